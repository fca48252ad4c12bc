#!/usr/bin/env python3
"""Run the benchmark of ../shared/bench-scenes.md on carom and the peer engines, interleaved.

Builds nothing: bench/run builds first and then calls this. It runs the programs of an already
built build directory (bench_carom, and bench_chipmunk and bench_box2d when their packages were
found), one process per (engine, scene, round) so each run's peak memory is its own. Per scene,
engines take turns (A B C A B C ...) for --rounds rounds, so a slow spell of this noisy machine
hits every engine alike. It prints a markdown report: median ms/step with min and max, peak
memory, the ratio carom/engine, the stability figures and the per-body scaling; --output writes
the report to a file, --update-doc replaces the marked results section of docs/benchmarks.md,
--json saves the raw runs and --from-json renders a saved run again without running anything.
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

# (label, program, variant, package that provides the engine), in the order of the report.
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
    p.add_argument("--json", help="also save the conditions and every run's raw result here")
    p.add_argument("--from-json", metavar="FILE",
                   help="run nothing: render the report of a run saved with --json")
    args = p.parse_args()
    if args.quick:
        args.rounds, args.steps = 1, 60
    if args.rounds < 1 or args.steps < 1:
        p.error("--rounds and --steps must be at least 1")
    return args


# ---- Running ------------------------------------------------------------------------------------

def select_scenes(args):
    wanted = [w.strip() for w in args.scenes.split(",") if w.strip()]
    known = {n for n, _ in SCENES} | {f"{n}:{s}" for n, sizes in SCENES for s in sizes}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        sys.exit(f"run_bench: unknown scene {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return [(name, size) for name, sizes in SCENES for size in (sizes[:1] if args.quick else sizes)
            if not wanted or name in wanted or f"{name}:{size}" in wanted]


def select_engines(args, notes):
    """The (label, path, variant) of each engine to run; notes say which peers are missing."""
    bench_dir = os.path.join(args.build_dir, "bench")
    if not os.path.exists(os.path.join(bench_dir, "bench_carom")):
        sys.exit(f"run_bench: {bench_dir}/bench_carom not found: build first (bench/run does)")
    wanted = [w.strip() for w in args.engines.split(",") if w.strip()]
    engines, missing = [], set()
    for label, program, variant, package in ENGINES:
        path = os.path.join(bench_dir, program)
        if not os.path.exists(path):
            missing.add((program, package))
        elif not wanted or any(w in label for w in wanted):
            engines.append((label, path, variant))
    for program, package in sorted(missing):
        notes.append(f"{PEER_NAMES[program]} is not built (its package {package} was not found "
                     f"when {args.build_dir} was configured): running without it.")
    if len(missing) == len(PEER_NAMES):
        notes.append("No peer engine: carom runs alone, so there are no carom/peer ratios.")
    return engines


def run_once(path, variant, scene, size, steps, loads):
    cmd = [path, scene, str(size), "--steps", str(steps), "--variant", variant]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    with open("/proc/loadavg") as f:  # how busy the machine was during this run
        loads.append(float(f.read().split()[0]))
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]  # Chipmunk prints a banner
    if proc.returncode != 0 or not lines:
        sys.stderr.write(f"  failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
        return None
    return json.loads(lines[-1])


def run_all(scenes, engines, args, loads):
    """Every run's result, each tagged with its engine label and round."""
    runs, total = [], len(scenes) * len(engines) * args.rounds
    for scene, size in scenes:
        for rnd in range(args.rounds):
            for label, path, variant in engines:  # interleaved: A B C A B C ...
                r = run_once(path, variant, scene, size, args.steps, loads)
                shown = f"{r['ms_per_step']:.3f} ms/step" if r else "failed"
                runs.append(dict(r or {"scene": scene, "n": size, "failed": True},
                                 label=label, round=rnd + 1))
                sys.stderr.write(f"[{len(runs)}/{total}] {scene} {size} round {rnd + 1} "
                                 f"{label}: {shown}\n")
    return runs


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


def conditions(args, loads, started):
    """What was measured and on what: the first section of the report."""
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
    cc = sh(["cc", "--version"]).split("\n")[0]
    cxx = sh(["c++", "--version"]).split("\n")[0]
    lines = [
        f"Run {started:%Y-%m-%d %H:%M} UTC, carom commit {commit}"
        + (" with uncommitted changes in engine/ or include/" if dirty else "") + ".",
        f"Machine: {os.cpu_count()} CPUs, {model}. 1-minute load average after each run: "
        f"median {fmt(median(loads), 1)}, range {spread(loads, 1)} (the benchmark itself "
        f"accounts for 1).",
        f"Compilers: {cc}; {cxx}. carom: {os.path.basename(args.build_dir)}, buildtype "
        f"{options.get('buildtype', '?')}, b_ndebug {options.get('b_ndebug', '?')}.",
        f"Peers: Debian packages {versions or 'not installed'}.",
        f"{args.rounds} round{'s' if args.rounds > 1 else ''} of {args.steps} steps per engine "
        f"and scene, interleaved.",
    ]
    if options.get("optimization") in ("0", "g", "plain"):
        lines.append(f"carom was built without optimization ({args.build_dir}): its times mean "
                     "little; bench/run uses an optimized build-bench.")
    ndebug = options.get("b_ndebug")
    if ndebug == "false" or (ndebug == "if-release" and options.get("buildtype") != "release"):
        lines.append("carom's internal asserts are compiled in (NDEBUG is not defined).")
    return lines


# ---- Reporting ----------------------------------------------------------------------------------

def median(values):
    return statistics.median(values) if values else float("nan")


def fmt(value, digits=3):
    return "—" if value != value else f"{value:.{digits}f}"  # NaN shows as a dash


def spread(values, digits):
    if not values:
        return "—"
    lo, hi = min(values), max(values)
    return fmt(lo, digits) if lo == hi else f"{fmt(lo, digits)}–{fmt(hi, digits)}"


def timing_table(scenes, labels, results):
    out = ["| scene | engine | median ms/step | min | max | peak MB | scene MB | carom/engine |",
           "|---|---|--:|--:|--:|--:|--:|--:|"]
    for scene, size in scenes:
        carom = median([r["ms_per_step"] for r in results.get((scene, size, "carom"), [])])
        for label in labels:
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


def pyramid_table(scenes, labels, results):
    out = ["| scene | engine | top-box displacement (m) | boxes off their row | boxes fallen off |",
           "|---|---|--:|--:|--:|"]
    for scene, size in scenes:
        for label in labels:
            runs = results.get((scene, size, label), [])
            if scene == "pyramid" and runs:
                out.append(f"| {scene} {size} | {label} | "
                           f"{spread([r['top_displacement'] for r in runs], 4)} | "
                           f"{spread([r['moved'] for r in runs], 0)} | "
                           f"{spread([r['escaped'] for r in runs], 0)} |")
    return out if len(out) > 2 else []


def escaped_table(scenes, labels, results):
    rows = [(scene, size) for scene, size in scenes if scene != "pyramid"]
    if not rows:
        return []
    out = ["| bodies escaped | " + " | ".join(labels) + " |", "|---|" + "--:|" * len(labels)]
    for scene, size in rows:
        cells = [spread([r["escaped"] for r in results.get((scene, size, l), [])], 0)
                 for l in labels]
        out.append(f"| {scene} {size} | " + " | ".join(cells) + " |")
    return out


def scaling_tables(scenes, labels, results):
    out = []
    for name, _ in SCENES:
        sizes = [s for n, s in scenes if n == name]
        if name == "pyramid" or len(sizes) < 2:
            continue
        out += ["", f"| {name}: µs per body per step | " + " | ".join(f"N = {s}" for s in sizes)
                + f" | N = {sizes[-1]} / N = {sizes[0]} |", "|---|" + "--:|" * (len(sizes) + 1)]
        for label in labels:
            per_body = [median([1e3 * r["ms_per_step"] / r["bodies"]
                                for r in results.get((name, s, label), [])]) for s in sizes]
            cells = " | ".join(fmt(v, 3) for v in per_body)
            out.append(f"| {label} | {cells} | {fmt(per_body[-1] / per_body[0], 2)}× |")
    return out


def report(saved):
    """The markdown report of a run: {"conditions": [...], "runs": [...]}."""
    runs = saved["runs"]
    results = {}  # (scene, size, label) -> successful runs
    for r in runs:
        results.setdefault((r["scene"], r["n"], r["label"]), [])
        if not r.get("failed"):
            results[(r["scene"], r["n"], r["label"])].append(r)
    present = {(s, n) for s, n, _ in results}
    scenes = [(s, n) for s, sizes in SCENES for n in sizes if (s, n) in present]
    labels = [l for l, _, _, _ in ENGINES if any(k[2] == l for k in results)]
    lines = ["#### Conditions", ""] + [f"- {c}" for c in saved["conditions"]]
    lines += ["", "#### Time per step", "",
              "Mean ms per step of each run; median, min and max over the rounds. Peak MB is the "
              "process's peak resident set (VmHWM), scene MB its growth while the scene was "
              "built and run. carom/engine is carom's median over this engine's: below 1, carom "
              "is faster; on the carom (no CCD) row it is the cost of continuous collision.", ""]
    lines += timing_table(scenes, labels, results)
    stability = pyramid_table(scenes, labels, results)
    if stability:
        lines += ["", "#### Stability", "",
                  "The pyramid after the run: its top box's distance from its start, the boxes "
                  "that ended more than half a box from their start along x or y, and those whose "
                  "center ended off the ground. A range means the rounds disagreed.", ""]
        lines += stability
    escaped = escaped_table(scenes, labels, results)
    if escaped:
        lines += ["", "Bodies whose center ended outside the walls (tunneled or thrown out):", ""]
        lines += escaped
    scaling = scaling_tables(scenes, labels, results)
    if scaling:
        lines += ["", "#### Scaling", "",
                  "Median ms per step divided by the body count, in µs: flat means linear cost."]
        lines += scaling
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
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
    else:
        notes, loads = [], []
        scenes = select_scenes(args)
        engines = select_engines(args, notes)
        for n in notes:
            sys.stderr.write(f"run_bench: {n}\n")
        started = datetime.datetime.now(datetime.timezone.utc)
        runs = run_all(scenes, engines, args, loads)
        saved = {"conditions": conditions(args, loads, started) + notes, "runs": runs}
    text = report(saved)
    print(text, end="")
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    if args.update_doc:
        update_doc(args.update_doc, text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(saved, f, indent=1)
    return 1 if any(r.get("failed") for r in saved["runs"]) else 0


if __name__ == "__main__":
    sys.exit(main())
