#!/usr/bin/env python3
"""Run the benchmark of ../shared/bench-scenes.md on carom and the peer engines, interleaved.

Builds nothing: bench/run builds first and then calls this. It runs the programs of an already
built build directory (bench_carom, and bench_chipmunk and bench_box2d when their packages were
found), one process per (engine, scene, round) so each run's peak memory is its own. Per scene,
engines take turns (A B C A B C ...) for --rounds rounds, so a slow spell of this noisy machine
hits every engine alike. It prints a markdown report: median ms/step with min and max, peak
memory, the ratio carom/engine, the stability figures and the per-body scaling; --output writes
the report to a file and --update-doc replaces the marked results section of docs/benchmarks.md.
The protocol of the programs is in bench/bench_common.h.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (scene, sizes) of the specification, in the order of the report.
SCENES = [("rain", [1000, 4000, 16000]), ("pyramid", [20, 40]), ("arena", [1000, 5000])]

# (label, program, variant, package that provides the engine)
ENGINES = [
    ("carom", "bench_carom", "ccd", None),
    ("carom (no CCD)", "bench_carom", "no-ccd", None),
    ("chipmunk (hash)", "bench_chipmunk", "hash", "libchipmunk-dev"),
    ("chipmunk (bbtree)", "bench_chipmunk", "bbtree", "libchipmunk-dev"),
    ("box2d", "bench_box2d", "default", "libbox2d-dev"),
]
PEER_NAMES = {"bench_chipmunk": "Chipmunk2D 7", "bench_box2d": "Box2D 2.4"}

BEGIN_MARK = "<!-- bench-results:begin (written by bench/run_bench.py --update-doc) -->"
END_MARK = "<!-- bench-results:end -->"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                   help="meson build directory holding bench/bench_* (default: build-bench)")
    p.add_argument("--rounds", type=int, default=5, help="runs of each engine per scene (5)")
    p.add_argument("--steps", type=int, default=600, help="steps timed per run (600)")
    p.add_argument("--scenes", default="",
                   help="only these scenes: comma-separated names or name:size, e.g. "
                        "'pyramid,rain:1000' (default: all)")
    p.add_argument("--engines", default="",
                   help="only engines whose label contains one of these comma-separated words")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: smallest size of each scene, 1 round, 60 steps")
    p.add_argument("--output", help="also write the markdown report to this file")
    p.add_argument("--update-doc", metavar="FILE",
                   help="replace the results section between the markers in FILE "
                        "(docs/benchmarks.md)")
    p.add_argument("--json", help="also write every run's raw result to this file")
    args = p.parse_args()
    if args.quick:
        args.rounds, args.steps = 1, 60
    if args.rounds < 1 or args.steps < 1:
        p.error("--rounds and --steps must be at least 1")
    return args


def select_scenes(args):
    wanted = [w.strip() for w in args.scenes.split(",") if w.strip()]
    chosen = []
    for name, sizes in SCENES:
        for size in sizes[:1] if args.quick else sizes:
            if not wanted or name in wanted or f"{name}:{size}" in wanted:
                chosen.append((name, size))
    known = {n for n, _ in SCENES} | {f"{n}:{s}" for n, sizes in SCENES for s in sizes}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        sys.exit(f"run_bench: unknown scene {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return chosen


def select_engines(args, notes):
    bench_dir = os.path.join(args.build_dir, "bench")
    if not os.path.exists(os.path.join(bench_dir, "bench_carom")):
        sys.exit(f"run_bench: {bench_dir}/bench_carom not found: build first (bench/run does)")
    wanted = [w.strip() for w in args.engines.split(",") if w.strip()]
    engines, missing = [], set()
    for label, program, variant, package in ENGINES:
        path = os.path.join(bench_dir, program)
        if not os.path.exists(path):
            missing.add((program, package))
            continue
        if not wanted or any(w in label for w in wanted):
            engines.append((label, path, variant))
    for program, package in sorted(missing):
        notes.append(f"{PEER_NAMES[program]} is not built (its package {package} was not found "
                     f"when {args.build_dir} was configured): running without it.")
    if len(missing) == len(PEER_NAMES):
        notes.append("No peer engine: carom runs alone, so there are no carom/peer ratios.")
    return engines


LOADS = []  # the 1-minute load average after each run: how busy the machine was


def run_once(path, variant, scene, size, steps):
    cmd = [path, scene, str(size), "--steps", str(steps), "--variant", variant]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]  # Chipmunk prints a banner
    with open("/proc/loadavg") as f:
        LOADS.append(float(f.read().split()[0]))
    if proc.returncode != 0 or not lines:
        sys.stderr.write(f"  failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
        return None
    return json.loads(lines[-1])


def run_all(scenes, engines, args):
    results = {}  # (scene, size, label) -> [run, ...]
    total, done = len(scenes) * len(engines) * args.rounds, 0
    for scene, size in scenes:
        for rnd in range(args.rounds):
            for label, path, variant in engines:  # interleaved: A B C A B C ...
                r = run_once(path, variant, scene, size, args.steps)
                done += 1
                shown = f"{r['ms_per_step']:.3f} ms/step" if r else "failed"
                sys.stderr.write(f"[{done}/{total}] {scene} {size} round {rnd + 1} "
                                 f"{label}: {shown}\n")
                results.setdefault((scene, size, label), [])
                if r:
                    results[(scene, size, label)].append(r)
    return results


def sh(cmd, cwd=ROOT):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd).stdout.strip()
    except OSError:
        return ""


def meson_info(build_dir, name):
    try:
        with open(os.path.join(build_dir, "meson-info", name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def machine_notes(args):
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                  if l.startswith("model name")), "unknown")
    versions = sh(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", "libchipmunk-dev",
                   "libbox2d-dev"]).replace("\n", ", ")
    options = {o["name"]: o["value"]
               for o in meson_info(args.build_dir, "intro-buildoptions.json") or []}
    # The commit of the sources the build directory was configured from, which need not be
    # this script's checkout.
    source = meson_info(args.build_dir, "meson-info.json").get("directories", {}).get("source",
                                                                                     ROOT)
    commit = sh(["git", "rev-parse", "--short=12", "HEAD"], source) or "unknown"
    dirty = sh(["git", "status", "--porcelain", "--", "engine", "include"], source)
    warnings = []
    if options.get("optimization") in ("0", "g", "plain"):
        warnings.append(f"carom was built without optimization ({args.build_dir}): its times "
                        "mean little; bench/run uses an optimized build-bench.")
    ndebug = options.get("b_ndebug")
    if ndebug == "false" or (ndebug == "if-release" and options.get("buildtype") != "release"):
        warnings.append("carom's internal asserts are compiled in (NDEBUG is not defined).")
    cc = sh(["cc", "--version"]).split("\n")[0]
    cxx = sh(["c++", "--version"]).split("\n")[0]
    return [
        f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, carom commit "
        f"{commit}" + (" with uncommitted changes in engine/ or include/" if dirty else "") + ".",
        f"Machine: {os.cpu_count()} CPUs, {model}; 1-minute load average during the run "
        f"{spread(LOADS, 1) if LOADS else '?'} (median {fmt(median(LOADS), 1)}; the benchmark itself accounts for 1).",
        f"Compilers: {cc}; {cxx}. carom build: {args.build_dir} buildtype "
        f"{options.get('buildtype', '?')}, b_ndebug {options.get('b_ndebug', '?')}.",
        f"Peers: Debian packages {versions or 'not installed'}.",
        f"{args.rounds} round{'s' if args.rounds > 1 else ''} of {args.steps} steps per engine "
        f"and scene, interleaved.",
    ] + warnings


def median(values):
    return statistics.median(values) if values else float("nan")


def fmt(value, digits=3):
    return "—" if value != value else f"{value:.{digits}f}"  # NaN shows as a dash


def timing_table(scenes, engines, results):
    out = ["| scene | engine | median ms/step | min | max | peak MB | scene MB | carom/engine |",
           "|---|---|--:|--:|--:|--:|--:|--:|"]
    for scene, size in scenes:
        carom = median([r["ms_per_step"] for r in results.get((scene, size, "carom"), [])])
        for label, _, _ in engines:
            runs = results.get((scene, size, label), [])
            if not runs:
                out.append(f"| {scene} {size} | {label} | failed | | | | | |")
                continue
            ms = [r["ms_per_step"] for r in runs]
            peak = median([r["peak_kb"] / 1024 for r in runs])
            grown = median([(r["peak_kb"] - r["base_kb"]) / 1024 for r in runs])
            ratio = "" if label == "carom" else fmt(carom / median(ms), 2)
            out.append(f"| {scene} {size} | {label} | {fmt(median(ms))} | {fmt(min(ms))} | "
                       f"{fmt(max(ms))} | {fmt(peak, 1)} | {fmt(grown, 1)} | {ratio} |")
    return out


def spread(values, digits):
    lo, hi = min(values), max(values)
    return fmt(lo, digits) if lo == hi else f"{fmt(lo, digits)}–{fmt(hi, digits)}"


def stability_table(scenes, engines, results):
    out = ["| scene | engine | top-box displacement (m) | boxes off their row | bodies escaped |",
           "|---|---|--:|--:|--:|"]
    for scene, size in scenes:
        for label, _, _ in engines:
            runs = results.get((scene, size, label), [])
            if not runs:
                continue
            escaped = spread([r["escaped"] for r in runs], 0)
            if scene == "pyramid":
                top = spread([r["top_displacement"] for r in runs], 4)
                moved = spread([r["moved"] for r in runs], 0)
                out.append(f"| {scene} {size} | {label} | {top} | {moved} | {escaped} |")
            else:
                out.append(f"| {scene} {size} | {label} | | | {escaped} |")
    return out


def scaling_tables(scenes, engines, results):
    out = []
    for name, _ in SCENES:
        sizes = [s for n, s in scenes if n == name]
        if name == "pyramid" or len(sizes) < 2:
            continue
        out += [f"| {name}: µs per body per step | " + " | ".join(f"N = {s}" for s in sizes)
                + f" | N = {sizes[-1]} / N = {sizes[0]} |",
                "|---|" + "--:|" * (len(sizes) + 1)]
        for label, _, _ in engines:
            per_body = [median([1e3 * r["ms_per_step"] / r["bodies"]
                                for r in results.get((name, s, label), [])]) for s in sizes]
            cells = " | ".join(fmt(v, 3) for v in per_body)
            out.append(f"| {label} | {cells} | {fmt(per_body[-1] / per_body[0], 2)}× |")
        out.append("")
    return out


def report(scenes, engines, results, notes, args):
    lines = ["#### Conditions", ""] + [f"- {n}" for n in machine_notes(args) + notes]
    lines += ["", "#### Time per step", "",
              "Mean ms per step of each run; median, min and max over the rounds. Peak MB is the "
              "process's peak resident set (VmHWM), scene MB its growth while the scene was "
              "built and run. carom/engine is carom's median over this engine's: below 1, carom "
              "is faster; on the carom (no CCD) row it is the cost of continuous collision.", ""]
    lines += timing_table(scenes, engines, results)
    lines += ["", "#### Stability", "",
              "After the run: the pyramid's top box's distance from its start, the boxes that "
              "ended more than half a box from their start along x or y, and bodies whose center "
              "ended outside the walls (fell off the ground, or escaped the container). A range "
              "means the rounds disagreed.", ""]
    lines += stability_table(scenes, engines, results)
    scaling = scaling_tables(scenes, engines, results)
    if scaling:
        lines += ["", "#### Scaling", "",
                  "Median µs per step divided by the body count: flat means linear cost.", ""]
        lines += scaling[:-1]
    return "\n".join(lines) + "\n"


def update_doc(path, text):
    with open(path) as f:
        doc = f.read()
    begin, end = doc.find(BEGIN_MARK), doc.find(END_MARK)
    if begin < 0 or end < begin:
        sys.exit(f"run_bench: {path} lacks the markers\n{BEGIN_MARK}\n{END_MARK}")
    doc = doc[:begin + len(BEGIN_MARK)] + "\n\n" + text + "\n" + doc[end:]
    with open(path, "w") as f:
        f.write(doc)


def main():
    args = parse_args()
    notes = []
    scenes = select_scenes(args)
    engines = select_engines(args, notes)
    for n in notes:
        sys.stderr.write(f"run_bench: {n}\n")
    results = run_all(scenes, engines, args)
    text = report(scenes, engines, results, notes, args)
    print(text, end="")
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    if args.update_doc:
        update_doc(args.update_doc, text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r for runs in results.values() for r in runs], f, indent=1)
    failed = any(not runs for runs in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
