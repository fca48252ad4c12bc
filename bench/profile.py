#!/usr/bin/env python3
"""Where carom spends its instructions: callgrind on bench_carom, one scene at a time.

Instruction counts, unlike times, repeat exactly on a busy machine. For each scene (default: the
smaller size of each) this runs `valgrind --tool=callgrind` on the release bench_carom of the
build directory (bench/run builds it), then prints a markdown table of the top functions by
self and inclusive instruction count. The binary has no debug information, so each function's
count includes whatever the compiler inlined into it, as in the timed runs.

Usage: bench/profile.py [--steps 600] [--top 8] [--build-dir build-bench] [rain:1000 ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SCENES = ["rain:1000", "pyramid:20", "arena:1000"]
# callgrind_annotate lines look like "  287,573,235 (48.06%)  ???:solve_contacts [/path/exe]"
LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+\S*?:(\S+)(?:\s+\[(.*)\])?\s*$")


def annotate(out_file, inclusive):
    cmd = ["callgrind_annotate", "--threshold=100", f"--inclusive={'yes' if inclusive else 'no'}",
           out_file]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    counts, total = {}, None
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        m = LINE.match(line)
        if m and (m.group(3) or "").endswith("bench_carom"):  # carom's own code, not libc
            counts[m.group(2)] = counts.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return total, counts


def profile(exe, scene, size, steps, top):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", exe,
                        scene, str(size), "--steps", str(steps)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        total, self_counts = annotate(out, False)
        _, incl_counts = annotate(out, True)
    step_total = incl_counts.get("carom_world_step", total)
    lines = [f"**{scene} {size}**, {steps} steps: {step_total / steps / 1e6:.2f} M instructions "
             f"per step in carom_world_step ({100 * step_total / total:.1f} % of the run).", "",
             "| function | self | inclusive |", "|---|--:|--:|"]
    for name in sorted(self_counts, key=lambda n: -self_counts[n])[:top]:
        lines.append(f"| `{name}` | {100 * self_counts[name] / total:.1f} % | "
                     f"{100 * incl_counts.get(name, 0) / total:.1f} % |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenes", nargs="*", default=DEFAULT_SCENES, help="name:size (default: "
                   + " ".join(DEFAULT_SCENES) + ")")
    p.add_argument("--steps", type=int, default=600)
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    args = p.parse_args()
    exe = os.path.join(args.build_dir, "bench", "bench_carom")
    if not os.path.exists(exe):
        sys.exit(f"profile: {exe} not found: build first (bench/run --quick does)")
    for item in args.scenes:
        scene, _, size = item.partition(":")
        print(profile(exe, scene, int(size or 1000), args.steps, args.top))


if __name__ == "__main__":
    main()
