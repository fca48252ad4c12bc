#!/usr/bin/env python3
"""Run the benchmark of ../shared/bench-scenes.md and Box2D v3's scenes on carom and the peers.

Builds nothing: bench/run builds first and then calls this. It runs the programs of an already
built build directory (bench_carom, and bench_chipmunk, bench_box2d and bench_box2d_v3 when their
engines were found), one process per (engine, scene, sleep setting, round) so each run's peak
memory is its own. Every engine runs every scene twice over: with sleeping off (nothing sleeps)
and with sleeping on at its own thresholds (--sleep picks one). Per scene, runs take turns
(round 1: sleep off A B C, sleep on A B C; round 2: ...) for --rounds rounds, so a slow spell of
this noisy machine hits every engine alike, and each run is timed by its process's own CPU
time. It prints a markdown report: the ratios carom/peer for each peer and sleep setting, median
ms/step with min and max, peak memory, the stability figures and the per-body scaling; --output
writes the report to a file, --update-doc replaces the marked results section of
docs/benchmarks.md, --json saves the raw runs and --from-json renders a saved run again without
running anything. The protocol of the programs is in bench/bench_common.h.

--threads 1,2,4 measures the engines that step one world on several threads (carom, Box2D v3)
at each of those worker counts instead, interleaved (round 1: T=1 A B, T=2 A B, ...), and
reports the wall-clock ms per step, the speed-up over one thread and carom / Box2D v3 at each
count (docs/benchmarks.md, "Threads"); --update-doc then replaces the threads section.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (scene, sizes) in the order of the report: those of the specification, then Box2D v3's own
# benchmark scenes at the size its benchmark program runs (scene_desc.h).
SCENES = [("rain", [1000, 4000, 16000]), ("pyramid", [20, 40]), ("arena", [1000, 5000]),
          ("large_pyramid", [100]), ("many_pyramids", [20]), ("smash", [80]),
          ("joint_grid", [100]), ("spinner", [6076]), ("tumbler", [45])]
# Box2D v3's joint scenes: only the programs of engines with joints build them (the others refuse
# them: bench_common.h), so only those run them.
JOINT_SCENES = ("joint_grid", "spinner", "tumbler")
JOINT_PROGRAMS = ("bench_carom", "bench_box2d_v3")
# The scenes whose stability table reports how far their boxes moved.
PYRAMIDS = ("pyramid", "large_pyramid", "many_pyramids")

# (label, program, variant), in the order of the report. "carom" is what the ratios divide.
ENGINES = [
    ("carom", "bench_carom", "ccd"),
    ("carom (no CCD)", "bench_carom", "no-ccd"),
    ("chipmunk (hash)", "bench_chipmunk", "hash"),
    ("chipmunk (bbtree)", "bench_chipmunk", "bbtree"),
    ("box2d", "bench_box2d", "default"),
    ("box2d v3", "bench_box2d_v3", "default"),
]
# Each peer's name and how a user gets it built, for the report's notes.
PEERS = {
    "bench_chipmunk": ("Chipmunk2D 7", "install the Debian package libchipmunk-dev"),
    "bench_box2d": ("Box2D 2.4", "install the Debian package libbox2d-dev"),
    "bench_box2d_v3": ("Box2D v3", "build Box2D v3 beside the project and configure with "
                       "-Dbox2d_v3=DIR, or run CAROM_BOX2D_V3=DIR bench/run "
                       "(docs/benchmarks.md, \"Box2D v3\")"),
}
# Sleep settings in the order of the report ("default": a run saved before both were measured).
SLEEPS = ["off", "on", "default"]
SLEEP_NAMES = {"off": "no sleep", "on": "sleep", "default": "engine default"}

BEGIN_MARK = "<!-- bench-results:begin (written by bench/run_bench.py --update-doc) -->"
END_MARK = "<!-- bench-results:end -->"
THREADS_BEGIN_MARK = ("<!-- bench-threads:begin (written by bench/run_bench.py --threads ... "
                      "--update-doc) -->")
THREADS_END_MARK = "<!-- bench-threads:end -->"
# The engines that step one world on several threads (bench_common.h, --threads).
THREADED_LABELS = ("carom", "box2d v3")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                   help="meson build directory holding bench/bench_* (default: build-bench)")
    p.add_argument("--rounds", type=int, default=3,
                   help="runs of each engine per scene and sleep setting (3)")
    p.add_argument("--steps", type=int, default=0,
                   help="steps timed per run (default: the scene's own: 600, or the count of "
                        "Box2D's benchmark for its scenes)")
    p.add_argument("--sleep", default="off,on",
                   help="sleep settings to run, comma-separated: off (nothing sleeps), on (each "
                        "engine sleeps at its own thresholds); default both")
    p.add_argument("--scenes", default="",
                   help="only these scenes: comma-separated names or name:size, e.g. "
                        "'pyramid,rain:1000' (default: all)")
    p.add_argument("--engines", default="",
                   help="only these engines, comma-separated: a word that is an engine's "
                        "label picks that engine (carom, box2d, box2d v3), any other word the "
                        "engines whose label contains it (chipmunk, v3, CCD)")
    p.add_argument("--threads", default="",
                   help="comma-separated worker counts, e.g. 1,2,4: run carom and Box2D v3 at "
                        "each and report wall-clock speed-ups (default: the one-thread report)")
    p.add_argument("--cpu", type=int, default=None,
                   help="run every one-thread run on this CPU alone (its number, as lscpu "
                        "counts them), every engine on the same one: on a virtual machine whose "
                        "CPUs are not equally fast, an unpinned run lands on either (default: "
                        "unpinned; with --threads it is ignored)")
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
    if args.rounds < 1 or args.steps < 0:
        p.error("--rounds must be at least 1 and --steps at least 1 (0: the scene's own)")
    try:
        args.thread_counts = [int(w) for w in args.threads.split(",") if w.strip()]
    except ValueError:
        p.error("--threads takes worker counts, e.g. 1,2,4")
    if any(t < 1 or t > 32 for t in args.thread_counts):
        p.error("--threads: each worker count must be between 1 and 32 (Box2D v3's limit)")
    if args.cpu is not None and args.cpu not in os.sched_getaffinity(0):
        p.error(f"--cpu {args.cpu}: this process may run on CPUs "
                f"{sorted(os.sched_getaffinity(0))} only")
    args.sleeps = [w.strip() for w in args.sleep.split(",") if w.strip()]
    if not args.sleeps or any(w not in ("off", "on") for w in args.sleeps):
        p.error("--sleep takes off, on or off,on")
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
    labels = {label for label, _, _ in ENGINES}
    for label, program, variant in ENGINES:
        path = os.path.join(bench_dir, program)
        if not os.path.exists(path):
            missing.add(program)
        elif args.thread_counts and label not in THREADED_LABELS:
            continue  # steps on one thread only
        elif not wanted or any(w == label or (w not in labels and w in label) for w in wanted):
            engines.append((label, path, variant))
    for program in sorted(missing):
        name, how = PEERS[program]
        notes.append(f"{name} is not built in {args.build_dir}: running without it (to add it, "
                     f"{how}).")
    if len(missing) == len(PEERS):
        notes.append("No peer engine: carom runs alone, so there are no carom/peer ratios.")
    return engines


def pinned_to(cpu):
    """What a child runs first to stay on one CPU (None: wherever the system puts it)."""
    return None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))


def run_once(path, variant, scene, size, sleep, steps, loads, threads=1, cpu=None):
    cmd = [path, scene, str(size), "--variant", variant, "--sleep", sleep]
    if steps:
        cmd += ["--steps", str(steps)]
    if threads != 1:
        cmd += ["--threads", str(threads)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          preexec_fn=pinned_to(cpu if threads == 1 else None))
    with open("/proc/loadavg") as f:  # how busy the machine was during this run
        loads.append(float(f.read().split()[0]))
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]  # Chipmunk prints a banner
    if proc.returncode != 0 or not lines:
        sys.stderr.write(f"  failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
        return None
    return json.loads(lines[-1])


def run_all(scenes, engines, args, loads):
    """Every run's result, each tagged with its engine label, sleep setting and round."""
    joint_engines = [e for e in engines if os.path.basename(e[1]) in JOINT_PROGRAMS]
    total = sum(len(joint_engines if scene in JOINT_SCENES else engines) for scene, _ in scenes)
    runs, total = [], total * len(args.sleeps) * args.rounds
    for scene, size in scenes:
        for rnd in range(args.rounds):
            for sleep in args.sleeps:
                for label, path, variant in engines:  # interleaved: A B C A B C ...
                    if scene in JOINT_SCENES and os.path.basename(path) not in JOINT_PROGRAMS:
                        continue
                    r = run_once(path, variant, scene, size, sleep, args.steps, loads,
                                 cpu=args.cpu)
                    shown = f"{r['ms_per_step']:.3f} ms/step" if r else "failed"
                    runs.append(dict(r or {"scene": scene, "n": size, "failed": True},
                                     label=label, round=rnd + 1, sleep=sleep))
                    sys.stderr.write(f"[{len(runs)}/{total}] {scene} {size} round {rnd + 1} "
                                     f"sleep {sleep} {label}: {shown}\n")
    return runs


def run_threads(scenes, engines, args, loads):
    """--threads: every run, tagged as run_all's and with its worker count; interleaved."""
    runs = []
    total = len(scenes) * len(engines) * len(args.sleeps) * len(args.thread_counts) * args.rounds
    for scene, size in scenes:
        for rnd in range(args.rounds):
            for sleep in args.sleeps:
                for threads in args.thread_counts:
                    for label, path, variant in engines:
                        r = run_once(path, variant, scene, size, sleep, args.steps, loads, threads)
                        shown = f"{r['wall_ms_per_step']:.3f} wall ms/step" if r else "failed"
                        runs.append(dict(r or {"scene": scene, "n": size, "failed": True},
                                         label=label, round=rnd + 1, sleep=sleep, threads=threads))
                        sys.stderr.write(f"[{len(runs)}/{total}] {scene} {size} round {rnd + 1} "
                                         f"sleep {sleep} threads {threads} {label}: {shown}\n")
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


def box2d_v3_conditions(options, source):
    """Which Box2D v3 was measured: its commit and the CMake settings it was built with."""
    root = options.get("box2d_v3") or ""
    if not root:
        return ""
    root = os.path.join(source, root)  # a relative option is taken from the source root
    commit = sh(["git", "rev-parse", "--short=12", "HEAD"], root) or "unknown"
    cache = {}
    try:
        with open(os.path.join(root, "build", "CMakeCache.txt")) as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                cache[name.split(":")[0]] = value
    except OSError:
        pass
    build_type = cache.get("CMAKE_BUILD_TYPE", "?")
    flags = cache.get(f"CMAKE_C_FLAGS_{build_type.upper()}", "")
    settings = ", ".join(f"{k}={cache[k]}" for k in ("BOX2D_AVX2", "BOX2D_DISABLE_SIMD",
                                                     "BOX2D_DOUBLE_PRECISION", "BOX2D_VALIDATE")
                         if k in cache)
    return (f" Box2D v3: commit {commit}, built beside the project with CMake "
            f"CMAKE_BUILD_TYPE={build_type}" + (f" ({flags})" if flags else "")
            + (f", {settings}" if settings else "") + ".")


def cpu_identity():
    """The CPU as /proc/cpuinfo names it, with its family, model and stepping, its widest vector
    instructions and the caches getconf reports. A virtual machine's CPU may be named only "AMD
    EPYC" whatever the host. Ratios of the same engines have moved by half between runs here
    (the 1,000-ball rain: 0.52 to 1.04 in one night); these figures at least say whether two
    runs had the same kind of host."""
    fields = {}
    for line in open("/proc/cpuinfo"):
        if ":" in line:
            key, value = (part.strip() for part in line.split(":", 1))
            fields.setdefault(key, value)
    details = [f"{key} {fields[key]}" for key in ("cpu family", "model", "stepping")
               if key in fields]
    flags = fields.get("flags", "").split()
    widest = next((name for flag, name in (("avx512f", "AVX-512"), ("avx2", "AVX2"),
                                            ("sse2", "SSE2"), ("asimd", "NEON"))
                   if flag in flags), None)
    if widest:
        details.append(widest)
    for name, label in (("LEVEL1_DCACHE_SIZE", "L1d"), ("LEVEL2_CACHE_SIZE", "L2")):
        size = sh(["getconf", name])
        if size.isdigit() and int(size) > 0:
            details.append(f"{label} {int(size) // 1024} KiB")
    name = fields.get("model name", "unknown")
    return name + (f" ({', '.join(details)})" if details else "")


def cpu_speeds(args, rounds=3):
    """The same short carom run (Box2D's large pyramid, 100 steps, sleeping off: its pile does
    not fit in a core's own caches) on each CPU this process may use, `rounds` times in turn;
    the median CPU ms per step of each. A virtual machine's CPUs need not be equally fast: on
    2026-11-27 one ran many_pyramids in 21.5 ms a step and the other in 15.7 for part of the
    morning, and both equally fast an hour later. A one-thread run unpinned meets the slower one
    or not as the system places it, and a second worker on it gains far less than the other."""
    path = os.path.join(args.build_dir, "bench", "bench_carom")
    cpus = sorted(os.sched_getaffinity(0))
    times = {cpu: [] for cpu in cpus}
    loads = []  # run_once's record of the load, not reported for these runs
    for _ in range(rounds):
        for cpu in cpus:
            r = run_once(path, "ccd", "large_pyramid", 100, "off", 100, loads, cpu=cpu)
            if r:
                times[cpu].append(r["ms_per_step"])
    return {cpu: median(t) for cpu, t in times.items() if t}


def cpu_speed_line(speeds):
    if len(speeds) < 2:
        return None
    fastest = min(speeds.values())
    each = ", ".join(f"CPU {cpu} {ms:.3f}"
                     + (f" ({ms / fastest:.2f}× the fastest)" if ms / fastest >= 1.005 else "")
                     for cpu, ms in sorted(speeds.items()))
    return ("The CPUs' speed before the run (carom's large_pyramid, 100 steps, sleeping off, "
            f"pinned to each in turn; median ms per step of 3): {each}.")


def rounds_line(args):
    """How the runs were repeated and interleaved, and what ms/step means in this report."""
    rounds = f"{args.rounds} round{'s' if args.rounds > 1 else ''} per engine, scene"
    if args.thread_counts:
        return (f"{rounds}, sleep setting and worker count "
                f"({', '.join(map(str, args.thread_counts))}), "
                + (f"{args.steps} steps each, " if args.steps else "each scene's own steps, ")
                + "interleaved; carom with its own threads (worker_count), Box2D v3 with "
                "workerCount and the benchmark's threads behind its task callbacks "
                "(bench/peer_box2d_v3.c).")
    return (f"{rounds} and sleep setting, interleaved, of "
            + (f"{args.steps} steps." if args.steps else "each scene's own steps (600; Box2D's "
               "large_pyramid 500, many_pyramids 200, smash 300, joint_grid 500, spinner 500, "
               "tumbler 750).")
            + " ms/step is the CPU time of the run's process (one thread in every engine), so "
            "other jobs on the machine do not inflate it."
            + (f" Every one-thread run on CPU {args.cpu} alone." if args.cpu is not None
               else ""))


def conditions(args, labels, loads, started):
    """What was measured and on what: the first section of the report."""
    model = cpu_identity()
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
        f"Peers: Debian packages {versions or 'not installed'}."
        + (box2d_v3_conditions(options, source) if "box2d v3" in labels else ""),
        rounds_line(args),
    ]
    speeds = cpu_speed_line(args.cpu_speeds)
    if speeds:
        lines.append(speeds)
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


def ms(results, scene, size, sleep, label):
    return median([r["ms_per_step"] for r in results.get((scene, size, sleep, label), [])])


def ratio_tables(scenes, sleeps, labels, results):
    """For each peer, the issue's view: carom and the peer side by side in each sleep setting."""
    out = []
    peers = [l for l in labels if not l.startswith("carom")]
    for peer in reversed(peers):  # Box2D v3 first: the engine carom is measured against
        header = "| scene |"
        rule = "|---|"
        for sleep in sleeps:
            name = SLEEP_NAMES[sleep]
            header += f" carom, {name} | {peer}, {name} | ratio |"
            rule += "--:|--:|--:|"
        rows = []
        for scene, size in scenes:
            cells = []
            for sleep in sleeps:
                c, p = ms(results, scene, size, sleep, "carom"), ms(results, scene, size, sleep, peer)
                cells += [fmt(c), fmt(p), fmt(c / p, 2) if p == p and p > 0 else "—"]
            rows.append(f"| {scene} {size} | " + " | ".join(cells) + " |")
        out += ["", header, rule] + rows
    return out


def timing_table(scenes, sleeps, labels, results):
    out = ["| scene | sleep | engine | median ms/step | min | max | wall ms/step | peak MB | "
           "scene MB | carom/engine |",
           "|---|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for scene, size in scenes:
        for sleep in sleeps:
            carom = ms(results, scene, size, sleep, "carom")
            for label in labels:
                runs = results.get((scene, size, sleep, label))
                if runs is None:
                    continue
                if not runs:
                    out.append(f"| {scene} {size} | {SLEEP_NAMES[sleep]} | {label} | failed "
                               "| | | | | | |")
                    continue
                times = [r["ms_per_step"] for r in runs]
                wall = median([r.get("wall_ms_per_step", float("nan")) for r in runs])
                peak = median([r["peak_kb"] / 1024 for r in runs])
                grown = median([(r["peak_kb"] - r["base_kb"]) / 1024 for r in runs])
                ratio = "" if label == "carom" else fmt(carom / median(times), 2)
                out.append(f"| {scene} {size} | {SLEEP_NAMES[sleep]} | {label} | "
                           f"{fmt(median(times))} | {fmt(min(times))} | {fmt(max(times))} | "
                           f"{fmt(wall)} | {fmt(peak, 1)} | {fmt(grown, 1)} | {ratio} |")
    return out


def pyramid_table(scenes, sleeps, labels, results):
    out = ["| scene | sleep | engine | top box moved (m) | farthest box moved (m) | "
           "farthest sideways (m) | boxes moved > 0.25 m | boxes off their row | "
           "boxes fallen off |",
           "|---|---|---|--:|--:|--:|--:|--:|--:|"]
    for scene, size in scenes:
        if scene not in PYRAMIDS:
            continue
        for sleep in sleeps:
            for label in labels:
                runs = results.get((scene, size, sleep, label))
                if not runs:
                    continue
                farthest = [r.get("max_displacement", float("nan")) for r in runs]
                sideways = [r.get("max_sideways", float("nan")) for r in runs]
                drifted = spread([r["drifted"] for r in runs if "drifted" in r], 0)
                out.append(f"| {scene} {size} | {SLEEP_NAMES[sleep]} | {label} | "
                           f"{spread([r['top_displacement'] for r in runs], 4)} | "
                           f"{spread(farthest, 4)} | {spread(sideways, 4)} | {drifted} | "
                           f"{spread([r['moved'] for r in runs], 0)} | "
                           f"{spread([r['escaped'] for r in runs], 0)} |")
    return out if len(out) > 2 else []


def escaped_table(scenes, sleeps, labels, results):
    rows = [(scene, size) for scene, size in scenes if scene not in PYRAMIDS and scene != "smash"]
    if not rows:
        return []
    out = ["| bodies escaped | sleep | " + " | ".join(labels) + " |",
           "|---|---|" + "--:|" * len(labels)]
    for scene, size in rows:
        for sleep in sleeps:
            cells = [spread([r["escaped"] for r in results.get((scene, size, sleep, l), [])], 0)
                     for l in labels]
            if any(c != "—" for c in cells):
                out.append(f"| {scene} {size} | {SLEEP_NAMES[sleep]} | " + " | ".join(cells)
                           + " |")
    return out


def scaling_tables(scenes, sleeps, labels, results):
    out = []
    for name, _ in SCENES:
        sizes = [s for n, s in scenes if n == name]
        if name in PYRAMIDS or len(sizes) < 2:
            continue
        out += ["", f"| {name}: µs per body per step | sleep | "
                + " | ".join(f"N = {s}" for s in sizes) + f" | N = {sizes[-1]} / N = {sizes[0]} |",
                "|---|---|" + "--:|" * (len(sizes) + 1)]
        for label in labels:
            for sleep in sleeps:
                if not any((name, s, sleep, label) in results for s in sizes):
                    continue
                per_body = [median([1e3 * r["ms_per_step"] / r["bodies"]
                                    for r in results.get((name, s, sleep, label), [])])
                            for s in sizes]
                cells = " | ".join(fmt(v, 3) for v in per_body)
                out.append(f"| {label} | {SLEEP_NAMES[sleep]} | {cells} | "
                           f"{fmt(per_body[-1] / per_body[0], 2)}× |")
    return out


def report(saved):
    """The markdown report of a run: {"conditions": [...], "runs": [...]}."""
    runs = saved["runs"]
    results = {}  # (scene, size, sleep, label) -> successful runs
    for r in runs:
        key = (r["scene"], r["n"], r.get("sleep", "default"), r["label"])
        results.setdefault(key, [])
        if not r.get("failed"):
            results[key].append(r)
    present = {(s, n) for s, n, _, _ in results}
    scenes = [(s, n) for s, sizes in SCENES for n in sizes if (s, n) in present]
    sleeps = [s for s in SLEEPS if any(k[2] == s for k in results)]
    labels = [l for l, _, _ in ENGINES if any(k[3] == l for k in results)]
    lines = ["#### Conditions", ""] + [f"- {c}" for c in saved["conditions"]]
    ratios = ratio_tables(scenes, sleeps, labels, results)
    if ratios:
        lines += ["", "#### carom against each peer", "",
                  "Median ms per step (CPU time) of carom and of the peer in each sleep "
                  "setting, and the ratio carom / peer: below 1, carom is faster. \"no sleep\": "
                  "sleeping off in both, every body awake from the start; \"sleep\": each at "
                  "its own default sleeping, the scene's sleepers created asleep."]
        lines += ratios
    lines += ["", "#### Time per step", "",
              "CPU ms per step of each run; median, min and max over the rounds, and the median "
              "of the same runs by the wall clock. Peak MB is the process's peak resident set "
              "(VmHWM), scene MB its growth while the scene was built and run. carom/engine is "
              "carom's median over this engine's: below 1, carom is faster; on the carom (no "
              "CCD) row it is the cost of continuous collision.", ""]
    lines += timing_table(scenes, sleeps, labels, results)
    stability = pyramid_table(scenes, sleeps, labels, results)
    if stability:
        lines += ["", "#### Stability", "",
                  "The pyramids after the run: how far the top box (the last created) and the "
                  "farthest box ended from their start, the farthest along x alone (slides and "
                  "shear, without the sag of soft contacts under a tall pile), how many boxes "
                  "ended more than 0.25 m from their start, more than half a box from it along "
                  "x or y, and with their center off the ground. A range means the rounds "
                  "disagreed.", ""]
        lines += stability
    escaped = escaped_table(scenes, sleeps, labels, results)
    if escaped:
        lines += ["", "Bodies whose center ended outside the walls (tunneled or thrown out):", ""]
        lines += escaped
    scaling = scaling_tables(scenes, sleeps, labels, results)
    if scaling:
        lines += ["", "#### Scaling", "",
                  "Median ms per step divided by the body count, in µs: flat means linear cost."]
        lines += scaling
    return "\n".join(lines) + "\n"


def threads_report(saved):
    """The markdown report of a --threads run: wall-clock times by worker count."""
    results = {}  # (scene, size, sleep, label, threads) -> successful runs
    for r in saved["runs"]:
        key = (r["scene"], r["n"], r.get("sleep", "default"), r["label"], r["threads"])
        results.setdefault(key, [])
        if not r.get("failed"):
            results[key].append(r)
    present = {(k[0], k[1]) for k in results}
    scenes = [(s, n) for s, sizes in SCENES for n in sizes if (s, n) in present]
    sleeps = [s for s in SLEEPS if any(k[2] == s for k in results)]
    labels = [l for l in THREADED_LABELS if any(k[3] == l for k in results)]
    counts = sorted({k[4] for k in results})

    def wall(scene, size, sleep, label, threads):
        return median([r["wall_ms_per_step"]
                       for r in results.get((scene, size, sleep, label, threads), [])])

    header = ("| scene | sleep | engine | "
              + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in counts)
              + "".join(f" | speed-up {t}/1" for t in counts if t > 1) + " |")
    rule = "|---|---|---|" + "--:|" * (len(counts) + len([t for t in counts if t > 1]))
    rows = []
    for scene, size in scenes:
        for sleep in sleeps:
            for label in labels + (["carom / box2d v3"] if len(labels) == 2 else []):
                if label in THREADED_LABELS:
                    times = [wall(scene, size, sleep, label, t) for t in counts]
                    cells = [fmt(t) for t in times]
                    cells += [fmt(times[0] / times[i], 2) + "×" for i, t in enumerate(counts)
                              if t > 1]
                else:  # the ratio row: below 1, carom is faster at that worker count
                    cells = [fmt(wall(scene, size, sleep, "carom", t)
                                 / wall(scene, size, sleep, "box2d v3", t), 2) for t in counts]
                    cells += [""] * len([t for t in counts if t > 1])
                rows.append(f"| {scene} {size} | {SLEEP_NAMES[sleep]} | {label} | "
                            + " | ".join(cells) + " |")
    lines = ["#### Conditions", ""] + [f"- {c}" for c in saved["conditions"]]
    lines += ["", "#### Wall-clock ms per step by worker count", "",
              "Median over the rounds of each run's wall-clock ms per step (the process's CPU "
              "time adds up every thread's, so it cannot show a speed-up). Speed-up T/1 is the "
              "one-thread median over the T-thread median; the carom / box2d v3 row divides "
              "carom's median by Box2D v3's at the same worker count: below 1, carom is "
              "faster.", "", header, rule] + rows
    return "\n".join(lines) + "\n"


def update_doc(path, text, begin_mark=BEGIN_MARK, end_mark=END_MARK):
    with open(path) as f:
        doc = f.read()
    begin, end = doc.find(begin_mark), doc.find(end_mark)
    if begin < 0 or end < begin:
        sys.exit(f"run_bench: {path} lacks the markers\n{begin_mark}\n{end_mark}")
    doc = doc[:begin + len(begin_mark)] + "\n\n" + text + "\n" + doc[end:]
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
        args.cpu_speeds = cpu_speeds(args)
        if args.thread_counts:
            runs = run_threads(scenes, engines, args, loads)
        else:
            runs = run_all(scenes, engines, args, loads)
        labels = [label for label, _, _ in engines]
        saved = {"conditions": conditions(args, labels, loads, started) + notes, "runs": runs,
                 "threads_report": bool(args.thread_counts)}
    # Every run records its worker count (bench_common.c prints "threads" even when it is 1), so
    # a saved run says which report it wants; a file saved before it said so wanted the threads
    # report only if some run used more than one worker.
    threaded = saved.get("threads_report",
                         any(r.get("threads", 1) != 1 for r in saved["runs"]))
    text = threads_report(saved) if threaded else report(saved)
    print(text, end="")
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    if args.update_doc:
        if threaded:
            update_doc(args.update_doc, text, THREADS_BEGIN_MARK, THREADS_END_MARK)
        else:
            update_doc(args.update_doc, text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(saved, f, indent=1)
    return 1 if any(r.get("failed") for r in saved["runs"]) else 0


if __name__ == "__main__":
    sys.exit(main())
