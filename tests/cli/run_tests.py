#!/usr/bin/env python3
"""The `carom` program against its contract (docs/cli.md).

Meson runs one group per test (tests/meson.build):
    CAROM=build/tools/carom python3 tests/cli/run_tests.py GROUP
Groups: bad, arguments, good, state, trace, hash, time, load, progress, snapshot (--save and
carom resume), outputs (files replaced whole or not at all: a full file system, a directory in
the way, a read-only folder, a signal mid-run).
Every check that fails is printed; the exit status is 1 if any did.
CAROM_SANITIZE names the build's sanitizers ("none" or empty when there are none): the time
limits of the load group are for an optimised build and are loosened under sanitizers."""
import csv
import errno
import io
import json
import math
import os
import pty
import re
import resource
import select
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENES = os.path.join(ROOT, "scenes")
CAROM = os.path.abspath(os.environ.get("CAROM", os.path.join(ROOT, "build", "tools", "carom")))
SANITIZED = os.environ.get("CAROM_SANITIZE", "none") not in ("", "none")
sys.path.insert(0, HERE)
from big_scene import write_big_scene  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(args, cwd=None, stdin=None, timeout=300):
    """Run carom; returns (status, stdout, stderr) with the outputs as text."""
    result = subprocess.run([CAROM] + args, cwd=cwd, input=stdin, capture_output=True,
                            timeout=timeout)
    return (result.returncode, result.stdout.decode("utf-8", "replace"),
            result.stderr.decode("utf-8", "replace"))


def run_ok(args, cwd=None):
    status, out, err = run(args, cwd=cwd)
    check(status == 0, f"carom {' '.join(args)}: exit {status}, stderr:\n{err}")
    return out, err


def example_scenes():
    return sorted(os.path.join(SCENES, name) for name in os.listdir(SCENES)
                  if name.endswith(".json"))


def state_scenes():
    return example_scenes() + [os.path.join(HERE, "good", "everything.json"),
                               os.path.join(HERE, "good", "vehicles_every_key.json")]


def load_json(path):
    with open(path) as file:
        return json.load(file)


def read_trace(path):
    with open(path, newline="") as file:
        return list(csv.reader(file))


# ---- bad ------------------------------------------------------------------------------------

# Made at test time rather than committed: (name, writer, expected stderr).
def write_deep(path):
    with open(path, "w") as file:
        file.write('{"bodies": ' + "[" * 100000 + "]" * 100000 + "}")


def write_50_mb(path):
    with open(path, "w") as file:
        file.write('{"version": 1, "bodies": [{"name": "')
        file.write("x" * (50 * 1000 * 1000))
        file.write('", "shapes": [{"type": "circle", "radius": -1}]}]}\n')


def write_oversized(path):
    with open(path, "wb") as file:
        file.truncate(100 * 1024 * 1024)  # sparse: refused from its size, never read


GENERATED_BAD = [
    ("deep.json", write_deep,
     "deep.json: line 1, column 75: JSON nested deeper than 64 levels: a scene needs 7\n"),
    ("fifty_mb.json", write_50_mb,
     "fifty_mb.json: bodies[0].shapes[0].radius: must be > 0, got -1\n"),
    ("oversized.json", write_oversized,
     "oversized.json: the file is 104857600 bytes, more than the 67108864 (64 MiB) a scene "
     "file may have\n"),
]


def check_refused(args, cwd, expected, label):
    """Exit 2, nothing on stdout, exactly the expected lines on stderr, no output files."""
    status, out, err = run(args + ["--out", "state.json", "--trace", "trace.csv"], cwd=cwd)
    check(status == 2, f"{label}: exit {status}, expected 2")
    check(out == "", f"{label}: printed on stdout:\n{out}")
    check(err == expected, f"{label}: stderr\n{err}expected\n{expected}")
    for name in ("state.json", "trace.csv"):
        check(not os.path.exists(os.path.join(cwd, name)), f"{label}: {name} was written")


def group_bad():
    bad = os.path.join(HERE, "bad")
    scenes = sorted(name for name in os.listdir(bad) if name.endswith(".json"))
    expected = sorted(name for name in os.listdir(bad) if name.endswith(".expected"))
    check([s[:-5] for s in scenes] == [e[:-9] for e in expected],
          "every bad scene has a .expected file and every .expected file a scene")
    check(len(scenes) + len(GENERATED_BAD) >= 30, "at least 30 bad scenes")
    with tempfile.TemporaryDirectory() as scratch:
        for name in scenes:
            shutil.copy(os.path.join(bad, name), scratch)
            with open(os.path.join(bad, name[:-5] + ".expected"), encoding="utf-8") as file:
                check_refused(["run", name], scratch, file.read(), name)
        for name, writer, message in GENERATED_BAD:
            writer(os.path.join(scratch, name))
            check_refused(["run", name], scratch, message, name)
            os.remove(os.path.join(scratch, name))
        check_refused(["run", "missing.json"], scratch,
                      "missing.json: cannot read the file: No such file or directory\n",
                      "a missing file")
        check_refused(["run", "/dev/zero"], scratch, "/dev/zero: the input is more than the "
                      "67108864 bytes (64 MiB) a scene file may have\n", "an endless input")
        os.mkdir(os.path.join(scratch, "folder"))
        check_refused(["run", "folder"], scratch,
                      "folder: cannot read the file: Is a directory\n", "a directory")
        # A pile too dense for the engine's bound on contacts (issue 21: 3,000 circles at one
        # point took 4 GB and aborted): a valid scene, so the step is refused, exit 1.
        with open(os.path.join(scratch, "pile.json"), "w") as file:
            circle = {"type": "dynamic", "shapes": [{"type": "circle", "radius": 0.5}]}
            json.dump({"version": 1, "bodies": [circle] * 1500}, file)
        status, out, err = run(["run", "pile.json", "--hash"], cwd=scratch)
        check(status == 1, f"a pile too dense to step: exit {status}, expected 1")
        check(out == "", f"a pile too dense to step: printed on stdout:\n{out}")
        check(err == "carom: step 1 failed: the step would make 1124250 new contacts besides "
              "the 0 there are, more than the world's max_contacts (1000000): shapes are piled "
              "too densely; spread them out or destroy some, or create the world with a larger "
              "max_contacts. The step was not taken\n",
              f"a pile too dense to step: stderr\n{err}")
        # The scene's own bound (world.max_contacts): 8 circles at one point make 28 pairs.
        with open(os.path.join(scratch, "small_pile.json"), "w") as file:
            json.dump({"version": 1, "world": {"max_contacts": 27},
                       "bodies": [circle] * 8}, file)
        status, out, err = run(["run", "small_pile.json", "--hash"], cwd=scratch)
        check(status == 1, f"a pile over the scene's max_contacts: exit {status}, expected 1")
        check(err.startswith("carom: step 1 failed: the step would make 28 new contacts besides "
                             "the 0 there are, more than the world's max_contacts (27)"),
              f"a pile over the scene's max_contacts: stderr\n{err}")


# ---- arguments ------------------------------------------------------------------------------

def group_arguments():
    scene = os.path.join(SCENES, "ball_drop.json")
    see_help = "carom: see 'carom --help'\n"
    refused = [
        (["run"], "carom: run needs a scene file: carom run SCENE.json\n" + see_help),
        (["run", scene, "--steps", "-1"],
         "carom: --steps must be an integer from 0 to 2147483647, got '-1'\n" + see_help),
        (["run", scene, "--steps=ten"],
         "carom: --steps must be an integer from 0 to 2147483647, got 'ten'\n" + see_help),
        (["run", scene, "--steps", "5", "--time", "1"],
         "carom: --steps and --time both say how long to run: give one\n" + see_help),
        (["run", scene, "--steps", "5", "--steps", "6"],
         "carom: --steps is given twice\n" + see_help),
        (["run", scene, "--dt", "0"],
         "carom: --dt must be a number of seconds > 0 and at most 1e12, got '0'\n" + see_help),
        (["run", scene, "--time", "nan"],
         "carom: --time must be a number of seconds >= 0 and at most 1e12, got 'nan'\n"
         + see_help),
        (["run", scene, "--time", "1e400"],
         "carom: --time must be a number of seconds >= 0 and at most 1e12, got '1e400'\n"
         + see_help),
        (["run", scene, "--substeps", "0"],
         "carom: --substeps must be an integer from 1 to 64, got '0'\n" + see_help),
        (["run", scene, "--substeps", "65"],
         "carom: --substeps must be an integer from 1 to 64, got '65'\n" + see_help),
        (["run", scene, "--threads", "0"],
         "carom: --threads must be an integer from 1 to 64, got '0'\n" + see_help),
        (["run", scene, "--every", "2"],
         "carom: --every only applies to a trace: add --trace FILE\n" + see_help),
        (["run", scene, "--trace", "t.csv", "--every", "0"],
         "carom: --every must be an integer from 1 to 2147483647, got '0'\n" + see_help),
        (["run", scene, "--frobnicate"], "carom: unknown option '--frobnicate'\n" + see_help),
        (["run", scene, "--hsah"],
         "carom: unknown option '--hsah'; did you mean --hash?\n" + see_help),
        (["run", scene, "--stpes=10"],
         "carom: unknown option '--stpes=10'; did you mean --steps?\n" + see_help),
        (["run", scene, "--hash=yes"], "carom: --hash takes no value\n" + see_help),
        (["run", scene, "--out"], "carom: --out needs a value\n" + see_help),
        (["run", scene, scene], f"carom: one scene file at a time: '{scene}' and '{scene}'\n"
         + see_help),
        (["run", "--steps", "x", "--dt", "-1"],
         "carom: --steps must be an integer from 0 to 2147483647, got 'x'\n"
         "carom: --dt must be a number of seconds > 0 and at most 1e12, got '-1'\n"
         "carom: run needs a scene file: carom run SCENE.json\n" + see_help),
        (["run", scene, "--out", "-", "--trace", "-"],
         "carom: --out and --trace cannot both write to stdout ('-')\n" + see_help),
        # Two outputs on one file: only the one renamed last would survive.
        (["run", scene, "--out", "x.json", "--save", "x.json"],
         "carom: --out 'x.json' and --save 'x.json' are the same file: each output needs its "
         "own\n" + see_help),
        (["run", scene, "--trace", "t.csv", "--out=./t.csv"],
         "carom: --out './t.csv' and --trace 't.csv' are the same file: each output needs its "
         "own\n" + see_help),
        (["run", scene, "--trace", "x", "--save", "missing/../x", "--out", "y"],
         "carom: --trace 'x' and --save 'missing/../x' are the same file: each output needs its "
         "own\n" + see_help),
        (["run", scene, "--out", "a", "--trace", "a", "--save", ".//a"],
         "carom: --out 'a' and --trace 'a' are the same file: each output needs its own\n"
         "carom: --out 'a' and --save './/a' are the same file: each output needs its own\n"
         "carom: --trace 'a' and --save './/a' are the same file: each output needs its own\n"
         + see_help),
        (["resume", "a.snap", "--out", "s.json", "--save", "s.json"],
         "carom: --out 's.json' and --save 's.json' are the same file: each output needs its "
         "own\n" + see_help),
        (["run", scene, "--time", "1e12", "--dt", "1e-12"],
         "carom: --time 1e+12 at dt 1e-12 would be more than 2147483647 steps\n"),
    ]
    with tempfile.TemporaryDirectory() as scratch:
        for args, expected in refused:
            status, out, err = run(args, cwd=scratch)
            label = "carom " + " ".join(args)
            check(status == 2, f"{label}: exit {status}, expected 2")
            check(out == "", f"{label}: printed on stdout:\n{out}")
            check(err == expected, f"{label}: stderr\n{err}expected\n{expected}")
            check(not os.path.exists(os.path.join(scratch, "t.csv")), f"{label}: wrote t.csv")
    status, out, err = run([])
    check(status == 2 and out == "" and err.startswith("usage: carom run"),
          "no arguments: usage on stderr, exit 2")
    status, out, err = run(["frobnicate"])
    check(status == 2 and out == "" and err.startswith("carom: unknown command 'frobnicate'\n"),
          "an unknown command: named on stderr, exit 2")
    for args in (["--help"], ["run", "--help"], ["run", scene, "-h"]):
        status, out, err = run(args)
        check(status == 0 and out.startswith("usage: carom run") and err == "",
              f"carom {' '.join(args)}: usage on stdout, exit 0")
    status, out, err = run(["--version"])
    check(status == 0 and re.fullmatch(r"carom \d+\.\d+\.\d+\n", out) is not None,
          f"--version printed {out!r}")
    # Output trouble is not bad input: exit 1, and still nothing on stdout.
    status, out, err = run(["run", scene, "--out", "/nonexistent/dir/state.json", "--hash"])
    check(status == 1 and out == "" and
          err == "carom: cannot write '/nonexistent/dir/state.json': No such file or directory\n",
          f"an unwritable --out: exit {status}, stderr {err!r}")
    with open("/dev/full", "w") as full:
        status = subprocess.run([CAROM, "run", scene, "--hash"], stdout=full,
                                stderr=subprocess.DEVNULL).returncode
    check(status == 1, f"a hash that cannot be written (stdout on /dev/full): exit {status}")


# ---- good -----------------------------------------------------------------------------------

def group_good():
    names = {os.path.basename(path) for path in example_scenes()}
    for required in ("billiards.json", "ball_drop.json", "box_stack.json", "pyramid.json",
                     "arena.json"):
        check(required in names, f"scenes/{required} exists")
    for path in example_scenes():
        out, err = run_ok(["run", path, "--steps", "120"])
        check(out == "" and err == "", f"{path}: a plain run prints nothing (got {out!r} {err!r})")
    good = os.path.join(HERE, "good")
    with open(os.path.join(good, "unknown_keys.expected")) as file:
        expected = file.read()
    status, out, err = run(["run", "unknown_keys.json"], cwd=good)
    check(status == 0, f"unknown keys: exit {status}, expected 0 (warnings do not stop a run)")
    check(out == "" and err == expected, f"unknown keys: stderr\n{err}expected\n{expected}")
    # The README shows what setup.sh's last command prints: heights from this trace.
    out, _ = run_ok(["run", os.path.join(SCENES, "ball_drop.json"), "--time", "3", "--trace",
                     "-", "--every", "30"])
    lines = {}
    for row in list(csv.reader(io.StringIO(out)))[1:]:
        lines.setdefault(row[0], f"  t = {float(row[1]):3.1f} s")
        lines[row[0]] += f"   {row[2]:<6} {float(row[4]):5.2f}"
    with open(os.path.join(ROOT, "README.md")) as file:
        readme = file.read()
    check("\n".join(lines.values()) + "\n```" in readme, "the README shows the output of "
          "setup.sh's ball drop:\n" + "\n".join(lines.values()))
    # A scene can come through a pipe.
    with open(os.path.join(SCENES, "ball_drop.json"), "rb") as file:
        status, out, err = run(["run", "/dev/stdin", "--steps", "10", "--hash"],
                               stdin=file.read())
    check(status == 0 and out.startswith("hash: "), f"a scene on stdin: exit {status} {err}")


# ---- state ----------------------------------------------------------------------------------

SHAPE_DEFAULTS = {"density": 1, "friction": 0.6, "restitution": 0, "sensor": False,
                  "category": 1, "group": 0}
GEOMETRY_DEFAULTS = {"circle": {"center": [0, 0]}, "box": {"center": [0, 0], "angle": 0},
                     "polygon": {}, "segment": {}, "chain": {"loop": False}, "capsule": {}}
BODY_DEFAULTS = {"type": "dynamic", "position": [0, 0], "angle": 0, "linear_velocity": [0, 0],
                 "angular_velocity": 0, "linear_damping": 0, "angular_damping": 0,
                 "bullet": False, "awake": True}


def label(index, body):
    return body.get("name", f"#{index}")


def compare_shapes(where, scene_shapes, state_shapes):
    check(len(scene_shapes) == len(state_shapes), f"{where}: shape count")
    for j, (given, written) in enumerate(zip(scene_shapes, state_shapes)):
        full = {**SHAPE_DEFAULTS, **GEOMETRY_DEFAULTS[given["type"]], **given}
        if full.get("hit_events"):  # a shape with hit events is written with its threshold
            full = {"hit_speed_threshold": 1, **full}
        check(full == written, f"{where}.shapes[{j}]: scene {full} but state {written}")


def compare_body(where, index, given, written, motion, elapsed):
    """Key by key: what the scene said (with defaults) plus the motion from the trace."""
    full = {**BODY_DEFAULTS, **given}
    for key in ("name", "type", "linear_damping", "angular_damping", "bullet"):
        check(full.get(key) == written.get(key), f"{where}.{key}: {full.get(key)} -> "
              f"{written.get(key)}")
    if not full["awake"]:  # created asleep and touched by nothing: asleep at the end too
        check(written.get("awake") is False, f"{where}: created asleep, written {written}")
    compare_shapes(where, full["shapes"], written["shapes"])
    c, s = written["rotation"]
    check(abs(math.hypot(c, s) - 1) < 1e-12, f"{where}.rotation is not a unit vector")
    check(abs(math.atan2(s, c) - written["angle"]) < 1e-15, f"{where}: angle != rotation")
    if full["type"] == "dynamic":
        x, y, angle, vx, vy, w = motion[label(index, given)]
        check([x, y] == written["position"] and angle == written["angle"] and
              [vx, vy] == written["linear_velocity"] and w == written["angular_velocity"],
              f"{where}: motion differs from the trace's last row")
    elif full["type"] == "static":
        check(written["position"] == full["position"] and written["linear_velocity"] == [0, 0]
              and written["angular_velocity"] == 0, f"{where}: a static body moved")
    else:  # kinematic: straight line at its own velocity
        expected = [p + v * elapsed for p, v in zip(full["position"], full["linear_velocity"])]
        check(all(abs(a - b) < 1e-9 for a, b in zip(expected, written["position"])),
              f"{where}: kinematic body at {written['position']}, expected {expected}")


def compare_state(path, scene, state, motion, elapsed):
    world, written_world = scene.get("world", {}), state["world"]
    check(written_world["gravity"] == world.get("gravity", [0, -10]), f"{path}: world.gravity")
    check(written_world["dt"] == world.get("dt", 1 / 60), f"{path}: world.dt")
    check(written_world["substeps"] == world.get("substeps", 4), f"{path}: world.substeps")
    if "cell_size" in world:
        check(written_world["cell_size"] == world["cell_size"], f"{path}: world.cell_size")
    defaults = {"sleep": True, "continuous": True, "contact_hertz": 35,
                "contact_damping_ratio": 10, "contact_push_max_velocity": 3,
                "contact_recycle_distance": 0.01, "joint_hertz": 60,
                "joint_damping_ratio": 2}
    for key, default in defaults.items():
        check(written_world.get(key, default) == world.get(key, default),
              f"{path}: world.{key} {world.get(key, default)} written as "
              f"{written_world.get(key, default)}")
    check(len(scene["bodies"]) == len(state["bodies"]), f"{path}: body count")
    for i, (given, written) in enumerate(zip(scene["bodies"], state["bodies"])):
        compare_body(f"{path}: bodies[{i}]", i, given, written, motion, elapsed)
    compare_joints(path, scene.get("joints", []), state.get("joints", []))
    compare_vehicles(path, scene, state)


def compare_joints(path, scene_joints, state_joints):
    """The scene's joints (none breaks in the example scenes), each with its settings as given
    and its exact frame."""
    check(len(scene_joints) == len(state_joints), f"{path}: joint count")
    for i, (given, written) in enumerate(zip(scene_joints, state_joints)):
        where = f"{path}: joints[{i}]"
        for key in ("type", "name", "body_a", "body_b", "limit", "motor", "spring"):
            if key in given:
                check(given[key] == written.get(key) or (key == "spring" and
                      {**{"damping_ratio": 0}, **given[key]} == written.get(key)),
                      f"{where}.{key}: {given[key]} -> {written.get(key)}")
        check(set(written["frame"]) == {"local_anchor_a", "local_anchor_b", "reference_rotation",
                                        "local_axis_a", "length"}, f"{where}: frame keys")
        c, s = written["frame"]["reference_rotation"]
        check(abs(math.hypot(c, s) - 1) < 1e-12, f"{where}: frame rotation is not unit")


def last_motion(trace_path):
    rows = read_trace(trace_path)[1:]
    last = max(int(row[0]) for row in rows)
    return {row[2]: [float(v) for v in row[3:]] for row in rows if int(row[0]) == last}


def hash_of_state(state):
    """The documented recipe (docs/cli.md), from a state file's numbers."""
    value = 0xcbf29ce484222325
    for body in state["bodies"]:
        numbers = body["position"] + body["rotation"] + body["linear_velocity"] + \
            [body["angular_velocity"]]
        for byte in struct.pack("<7d", *numbers):
            value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"hash: {value:016x}\n"


def group_state():
    steps = 90
    with tempfile.TemporaryDirectory() as scratch:
        for path in state_scenes():
            state_path = os.path.join(scratch, "state.json")
            trace_path = os.path.join(scratch, "trace.csv")
            out, _ = run_ok(["run", path, "--steps", str(steps), "--out", state_path,
                             "--trace", trace_path, "--every", str(steps), "--hash"])
            scene, state = load_json(path), load_json(state_path)
            dt = scene.get("world", {}).get("dt", 1 / 60)
            compare_state(path, scene, state, last_motion(trace_path), steps * dt)
            check(out == hash_of_state(state), f"{path}: --hash {out!r} is not the documented "
                  f"hash of the state, {hash_of_state(state)!r}")
            # Read back and written again: the same bytes, so the same doubles.
            again_path = os.path.join(scratch, "again.json")
            resumed, _ = run_ok(["run", state_path, "--steps", "0", "--out", again_path,
                                 "--hash"])
            with open(state_path, "rb") as a, open(again_path, "rb") as b:
                check(a.read() == b.read(), f"{path}: the state file read back and written "
                      "again with --steps 0 changed")
            check(resumed == out, f"{path}: reading the state file back did not restore the "
                  f"state bit for bit: hash {resumed!r} after {out!r}")
            # Every number in the file is the shortest text that reads back to its double.
            with open(state_path) as file:
                for number in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", file.read()):
                    value = float(number)
                    check(float(repr(value)) == value, f"{path}: {number} does not round-trip")
        state_keeps_max_contacts(scratch)


def state_keeps_max_contacts(scratch):
    """world.max_contacts holds, is written back by state files, and only when not the
    default."""
    circle = {"type": "dynamic", "shapes": [{"type": "circle", "radius": 0.5}]}
    for max_contacts, written in ((28, True), (1000000, False)):
        scene_path = os.path.join(scratch, "pile.json")
        with open(scene_path, "w") as file:
            json.dump({"version": 1, "world": {"max_contacts": max_contacts},
                       "bodies": [circle] * 8}, file)
        state_path = os.path.join(scratch, "pile_state.json")
        run_ok(["run", scene_path, "--steps", "3", "--out", state_path])
        world = load_json(state_path)["world"]
        if written:
            check(world.get("max_contacts") == max_contacts,
                  f"max_contacts {max_contacts}: the state file's world is {world}")
        else:
            check("max_contacts" not in world,
                  f"the default max_contacts was written: the state file's world is {world}")
        out, _ = run_ok(["run", state_path, "--steps", "1", "--hash"])
        check(out.startswith("hash: "), f"max_contacts {max_contacts}: reading back: {out!r}")
        if written:
            # the state read back keeps the bound: a ninth circle at the pile makes 36 pairs
            state = load_json(state_path)
            state["bodies"].append(dict(circle, position=state["bodies"][0]["position"]))
            with open(state_path, "w") as file:
                json.dump(state, file)
            status, _, err = run(["run", state_path, "--steps", "1"])
            check(status == 1 and "more than the world's max_contacts (28)" in err,
                  f"a ninth circle in the state read back: exit {status}, stderr\n{err}")


# ---- trace ----------------------------------------------------------------------------------

def group_trace():
    everything = os.path.join(HERE, "good", "everything.json")
    scene = load_json(everything)
    with tempfile.TemporaryDirectory() as scratch:
        trace_path = os.path.join(scratch, "trace.csv")
        run_ok(["run", everything, "--steps", "10", "--trace", trace_path])
        with open(trace_path) as file:
            check(file.readline() == "step,time,name,x,y,angle,vx,vy,w\n", "the trace header")
        rows = read_trace(trace_path)[1:]
        dynamic = [label(i, b) for i, b in enumerate(scene["bodies"])
                   if b.get("type", "dynamic") == "dynamic"]
        check(dynamic == ["wedge", "#2", "café", "sleeper", "#6"], "unnamed bodies are #index")
        per_step = len(dynamic)
        check([row[2] for row in rows] == dynamic * 11,
              "one row per dynamic body per step, in scene order, steps 0 to 10")
        check([int(row[0]) for row in rows[::per_step]] == list(range(11)), "steps 0..10")
        dt = scene["world"]["dt"]
        check(all(float(row[1]) == int(row[0]) * dt for row in rows), "time is step * dt")
        # Step 0 is the initial state: the scene's numbers (the angle through carom's sine,
        # cosine and atan2, which may move it by an ulp).
        initial = {row[2]: [float(v) for v in row[3:]] for row in rows[:per_step]}
        for i, body in enumerate(scene["bodies"]):
            if label(i, body) not in initial:
                continue
            full = {**BODY_DEFAULTS, **body}
            x, y, angle, vx, vy, w = initial[label(i, body)]
            angle_given = (math.atan2(full["rotation"][1], full["rotation"][0])
                           if "rotation" in full else full["angle"])
            check([x, y] == full["position"] and [vx, vy] == full["linear_velocity"] and
                  w == full["angular_velocity"] and abs(angle - angle_given) < 1e-15,
                  f"step 0 of {label(i, body)} is not its initial state: {initial[label(i, body)]}")
        # "-" writes to stdout, before the hash line.
        out, _ = run_ok(["run", everything, "--steps", "10", "--trace", "-", "--hash"])
        with open(trace_path) as file:
            check(out.startswith(file.read()) and re.fullmatch(r"hash: [0-9a-f]{16}\n",
                  out.split("\n")[-2] + "\n") is not None, "--trace - writes the trace to stdout")
        # --every K records steps 0, K, 2K ... only.
        run_ok(["run", everything, "--steps", "10", "--trace", trace_path, "--every", "3"])
        steps = [int(row[0]) for row in read_trace(trace_path)[1:]]
        check(steps == [s for s in (0, 3, 6, 9) for _ in range(per_step)], f"--every 3: {steps}")
        # Names with commas and quotes are quoted CSV fields.
        odd = os.path.join(scratch, "odd.json")
        with open(odd, "w") as file:
            json.dump({"bodies": [{"name": 'a, "b"', "shapes": [{"type": "circle",
                                                                 "radius": 1}]}]}, file)
        run_ok(["run", odd, "--steps", "1", "--trace", trace_path])
        with open(trace_path) as file:
            text = file.read()
        check('0,0,"a, ""b""",' in text, f"a name with a comma and quotes: {text}")
        check(read_trace(trace_path)[1][2] == 'a, "b"', "the quoted name reads back")


# ---- hash -----------------------------------------------------------------------------------

def group_hash():
    for path in example_scenes():
        first, _ = run_ok(["run", path, "--steps", "60", "--hash"])
        second, _ = run_ok(["run", path, "--steps", "60", "--hash"])
        check(re.fullmatch(r"hash: [0-9a-f]{16}\n", first) is not None, f"hash format {first!r}")
        check(first == second, f"{path}: two runs gave {first!r} and {second!r}")
        for threads in ("2", "3"):
            threaded, _ = run_ok(["run", path, "--steps", "60", "--hash", "--threads", threads])
            check(threaded == first, f"{path}: --threads {threads} gave {threaded!r}, "
                  f"one thread {first!r}")
    with tempfile.TemporaryDirectory() as scratch:
        scene = load_json(os.path.join(SCENES, "ball_drop.json"))
        original = os.path.join(scratch, "original.json")
        nudged = os.path.join(scratch, "nudged.json")
        with open(original, "w") as file:
            json.dump(scene, file)
        x = scene["bodies"][2]["position"][0]
        scene["bodies"][2]["position"][0] = math.nextafter(x, math.inf)  # one ulp
        with open(nudged, "w") as file:
            json.dump(scene, file)
        trace = os.path.join(scratch, "t.csv")
        a, _ = run_ok(["run", original, "--steps", "60", "--hash"])
        b, _ = run_ok(["run", nudged, "--steps", "60", "--hash"])
        check(a != b, "moving one body by one ulp changes the hash")
        c, _ = run_ok(["run", original, "--steps", "60", "--hash", "--trace", trace, "--out",
                       os.path.join(scratch, "s.json")])
        check(a == c, "writing a trace and a state file does not change the run")
        d, _ = run_ok(["run", original, "--steps", "60", "--hash", "--substeps", "2"])
        check(a != d, "--substeps changes the run")


# ---- time -----------------------------------------------------------------------------------

def steps_run(args):
    with tempfile.TemporaryDirectory() as scratch:
        trace = os.path.join(scratch, "t.csv")
        state = os.path.join(scratch, "s.json")
        run_ok(["run", os.path.join(SCENES, "ball_drop.json"), "--trace", trace, "--out", state]
               + args)
        rows = read_trace(trace)[1:]
        return max(int(row[0]) for row in rows), load_json(state)["world"]


def group_time():
    dt = 1 / 60
    for seconds in (1, 0.3, 1.7, 2.05, 0.01):
        steps, _ = steps_run(["--time", str(seconds)])
        check(steps == math.ceil(seconds / dt), f"--time {seconds}: {steps} steps, expected "
              f"ceil({seconds} / dt) = {math.ceil(seconds / dt)}")
    steps, world = steps_run(["--time", "0.5", "--dt", "0.3"])
    check(steps == 2 and world["dt"] == 0.3, f"--time 0.5 --dt 0.3: {steps} steps, dt {world}")
    # 0.1 / 0.01 is 10.000000000000002 in doubles; ten steps of 0.01 reach 0.1.
    steps, _ = steps_run(["--time", "0.1", "--dt", "0.01"])
    check(steps == 10, f"--time 0.1 --dt 0.01: {steps} steps, expected 10")
    steps, _ = steps_run(["--time", "0"])
    check(steps == 0, f"--time 0: {steps} steps")
    steps, _ = steps_run([])
    check(steps == 60, f"the default is 60 steps, ran {steps}")
    steps, world = steps_run(["--steps", "7", "--substeps", "3", "--dt", "0.02"])
    check(steps == 7 and world["substeps"] == 3 and world["dt"] == 0.02,
          f"--steps 7 --substeps 3 --dt 0.02: {steps} steps, world {world}")


# ---- load -----------------------------------------------------------------------------------

def best_time(args, repeats=3):
    best = math.inf
    for _ in range(repeats):
        start = time.monotonic()
        run_ok(args)
        best = min(best, time.monotonic() - start)
    return best


def group_load():
    limit = 10.0 if SANITIZED else 1.0
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "five_thousand.json")
        write_big_scene(5000, path)
        seconds = best_time(["run", path, "--steps", "1"])
        print(f"5,000 bodies: loaded, built and stepped once in {seconds:.3f} s")
        check(seconds < limit, f"5,000 bodies took {seconds:.3f} s to load and start "
              f"(limit {limit} s)")


# ---- progress -------------------------------------------------------------------------------

def run_on_terminal(args):
    """Run carom with stderr on a pseudo-terminal; returns (status, stdout, terminal text)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([CAROM] + args, stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    seen = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal closes when carom exits
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    out = process.stdout.read().decode()
    process.wait()
    os.close(controller)
    return process.returncode, out, seen.decode("utf-8", "replace")


def group_progress():
    with tempfile.TemporaryDirectory() as scratch:
        # Balls drifting apart in empty space never touch and never sleep, so every step
        # costs the same: one timed run says how many steps take about three seconds.
        path = os.path.join(scratch, "busy.json")
        balls = [{"position": [3.0 * (i % 40), 3.0 * (i // 40)], "linear_velocity": [1, 0.5],
                  "shapes": [{"type": "circle", "radius": 0.5}]} for i in range(1000)]
        with open(path, "w") as file:
            json.dump({"world": {"gravity": [0, 0]}, "bodies": balls}, file)
        per_step = best_time(["run", path, "--steps", "200"], repeats=1) / 200
        steps = str(max(200, int(3.0 / per_step)))
        # A busy machine can make the timing run slow and the real one fast, so the "long" run
        # is lengthened until it really lasts over 2 s (the line appears after 1 s).
        for _ in range(6):
            started = time.monotonic()
            status, out, seen = run_on_terminal(["run", path, "--steps", steps])
            if time.monotonic() - started > 2.0:
                break
            steps = str(2 * int(steps))
        check(status == 0 and out == "", f"a long run on a terminal: exit {status}")
        check(re.search(r"\rcarom: step \d+ of " + steps + r" \(\d+%\)", seen) is not None,
              f"a long run shows a progress line on a terminal, got {seen!r}")
        check(seen.endswith("\r\x1b[K"), "the progress line is erased at the end")
        status, out, seen = run_on_terminal(["run", path, "--steps", steps, "--quiet"])
        check(status == 0 and seen == "", f"--quiet hides the progress line, got {seen!r}")
        status, out, seen = run_on_terminal(["run", path, "--steps", "1"])
        check(status == 0 and seen == "", f"a short run shows no progress line, got {seen!r}")
        status, out, err = run(["run", path, "--steps", steps])
        check(status == 0 and err == "", "no progress line when stderr is not a terminal")


# ---- snapshot -------------------------------------------------------------------------------

# Bodies that fall asleep early: boxes resting on the ground from the start and a ball dropped
# on one of them. At step 300 (5 s) they all sleep, and a ball dropped from 150 m is still
# falling: it lands on the stack on the right at about step 330 and wakes it. So a run saved at
# step 300 saves sleeping islands, which resume must wake exactly as the long run does.
UNIT_BOX = {"type": "box", "half_extents": [0.5, 0.5]}
SLEEPY_SCENE = {
    "version": 1,
    "bodies": [
        {"name": "ground", "type": "static",
         "shapes": [{"type": "box", "half_extents": [20, 0.5], "center": [0, -0.5]}]},
        {"name": "left", "position": [-3, 0.5], "shapes": [UNIT_BOX]},
        {"name": "right", "position": [3, 0.5], "shapes": [UNIT_BOX]},
        {"name": "on top", "position": [3, 1.5], "shapes": [UNIT_BOX]},
        {"name": "ball", "position": [-3, 2], "shapes": [{"type": "circle", "radius": 0.5}]},
        {"name": "late", "position": [3.2, 150], "shapes": [{"type": "circle", "radius": 0.5}]},
    ],
}

SNAPSHOT_HEAD = struct.Struct("<8sIIdQQ")  # magic, version, substeps, dt, steps, scene size


def fnv1a(data):
    value = 0xcbf29ce484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return value


def parse_snapshot(data):
    """The layout documented in docs/cli.md, read independently of carom."""
    magic, version, substeps, dt, steps, scene_size = SNAPSHOT_HEAD.unpack_from(data, 0)
    offset = SNAPSHOT_HEAD.size
    scene = data[offset:offset + scene_size]
    offset += scene_size
    (engine_size,) = struct.unpack_from("<Q", data, offset)
    engine_offset = offset + 8
    offset = engine_offset + engine_size
    (checksum,) = struct.unpack_from("<Q", data, offset)
    return {"magic": magic, "version": version, "substeps": substeps, "dt": dt, "steps": steps,
            "scene": scene, "engine_offset": engine_offset, "engine_size": engine_size,
            "checksum": checksum, "end": offset + 8, "covered": offset}


def with_checksum(data):
    """data (a snapshot file with some bytes changed) with its checksum made right again."""
    fields = parse_snapshot(data)
    return data[:fields["covered"]] + struct.pack("<Q", fnv1a(data[:fields["covered"]]))


def hash_of(args):
    out, _ = run_ok(args + ["--hash"])
    check(re.fullmatch(r"hash: [0-9a-f]{16}\n", out) is not None, f"{args}: hash line {out!r}")
    return out


def check_split_run(scene, scratch, first, second, extra=()):
    """run first + resume second must end where run first + second ends, bit for bit."""
    extra = list(extra)
    save = os.path.join(scratch, "split.snap")
    whole = hash_of(["run", scene, "--steps", str(first + second)] + extra)
    run_ok(["run", scene, "--steps", str(first), "--save", save] + extra)
    resumed = hash_of(["resume", save, "--steps", str(second)])
    print(f"{' '.join([os.path.basename(scene)] + extra)}: run {first + second}: {whole.strip()}; "
          f"run {first} + resume {second}: {resumed.strip()}")
    check(resumed == whole, f"{scene} {extra}: run {first} + resume {second} gave {resumed!r}, "
          f"run {first + second} gave {whole!r}")
    return whole


def snapshot_hashes(scratch):
    sleepy = os.path.join(scratch, "sleepy.json")
    with open(sleepy, "w") as file:
        json.dump(SLEEPY_SCENE, file)
    # At the split every body of the sleepy scene but the late ball is at rest (asleep:
    # velocities exactly 0); by step 600 the late ball has knocked the stack over.
    state = os.path.join(scratch, "sleepy_300.json")
    final = os.path.join(scratch, "sleepy_600.json")
    run_ok(["run", sleepy, "--steps", "300", "--out", state])
    run_ok(["run", sleepy, "--steps", "600", "--out", final])
    at_300 = {body["name"]: body for body in load_json(state)["bodies"]}
    at_600 = {body["name"]: body for body in load_json(final)["bodies"]}
    check(all((body["linear_velocity"] == [0, 0] and body["angular_velocity"] == 0) ==
              (name != "late") for name, body in at_300.items()),
          "the sleepy scene at step 300: all at rest but the late ball")
    check(at_600["on top"]["position"] != at_300["on top"]["position"],
          "the sleepy scene: the late ball wakes the stack")
    for scene in state_scenes() + [sleepy]:
        check_split_run(scene, scratch, 300, 300)
    ball_drop = os.path.join(SCENES, "ball_drop.json")
    check_split_run(ball_drop, scratch, 0, 600)  # a snapshot before the first step
    check_split_run(ball_drop, scratch, 300, 0)  # resume for no steps: the saved state
    check_split_run(ball_drop, scratch, 45, 75, ["--dt", "0.01", "--substeps", "2"])
    box_stack = os.path.join(SCENES, "box_stack.json")
    check_split_run(box_stack, scratch, 150, 150, ["--substeps", "1"])
    # Saving does not change the run.
    save = os.path.join(scratch, "unused.snap")
    check(hash_of(["run", box_stack, "--steps", "200", "--save", save]) ==
          hash_of(["run", box_stack, "--steps", "200"]), "--save changes the run's hash")


def snapshot_chain(scratch):
    """run 100 -> resume 100 -> resume 100 is run 300; and resume --time is run's --time."""
    for scene in (os.path.join(SCENES, "billiards.json"), os.path.join(SCENES, "box_stack.json")):
        a, b = os.path.join(scratch, "a.snap"), os.path.join(scratch, "b.snap")
        run_ok(["run", scene, "--steps", "100", "--save", a])
        run_ok(["resume", a, "--steps", "100", "--save", b])
        chained = hash_of(["resume", b, "--steps", "100"])
        whole = hash_of(["run", scene, "--steps", "300"])
        print(f"{os.path.basename(scene)}: run 300: {whole.strip()}; run 100 + resume 100 + "
              f"resume 100: {chained.strip()}")
        check(chained == whole, f"{scene}: run 100 + resume 100 + resume 100 gave {chained!r}, "
              f"run 300 gave {whole!r}")
        check(parse_snapshot(open(b, "rb").read())["steps"] == 200,
              "a snapshot saved by resume counts the steps before it")
    ball_drop = os.path.join(SCENES, "ball_drop.json")
    a = os.path.join(scratch, "a.snap")
    run_ok(["run", ball_drop, "--time", "1", "--save", a])
    check(hash_of(["resume", a, "--time", "1.5"]) == hash_of(["run", ball_drop, "--time", "2.5"]),
          "run --time 1 + resume --time 1.5 is not run --time 2.5")


def snapshot_outputs(scratch):
    """resume writes its trace, state file and hash as the long run does from the same step."""
    scene = os.path.join(HERE, "good", "everything.json")
    save = os.path.join(scratch, "e.snap")
    long_trace, trace = os.path.join(scratch, "long.csv"), os.path.join(scratch, "t.csv")
    long_state, state = os.path.join(scratch, "long.json"), os.path.join(scratch, "s.json")
    run_ok(["run", scene, "--steps", "600", "--trace", long_trace, "--out", long_state])
    run_ok(["run", scene, "--steps", "300", "--save", save])
    run_ok(["resume", save, "--steps", "300", "--trace", trace, "--out", state])
    with open(long_state, "rb") as a, open(state, "rb") as b:
        check(a.read() == b.read(), "resume --out differs from run 600 --out")
    long_rows, rows = read_trace(long_trace), read_trace(trace)
    check(rows[0] == long_rows[0], "resume's trace has the same header")
    # Step 300 (the state resumed from) and every step after it, the same text to the digit.
    check(rows[1:] == [row for row in long_rows[1:] if int(row[0]) >= 300],
          "resume's trace is not run 600's trace from step 300 on")
    check(int(rows[1][0]) == 300 and int(rows[-1][0]) == 600,
          f"resume's trace runs from step {rows[1][0]} to {rows[-1][0]}, expected 300 to 600")
    # --every K: the state resumed from, then the multiples of K after it.
    out, _ = run_ok(["resume", save, "--steps", "20", "--trace", "-", "--every", "7"])
    steps = sorted({int(row[0]) for row in list(csv.reader(io.StringIO(out)))[1:]})
    check(steps == [300, 301, 308, 315], f"resume --every 7 from step 300 recorded {steps}")
    # The container, byte by byte as docs/cli.md describes it.
    with open(save, "rb") as file:
        data = file.read()
    fields = parse_snapshot(data)
    with open(scene, "rb") as file:
        scene_bytes = file.read()
    check(fields["magic"] == b"CAROMCLI" and fields["version"] == 1, "snapshot magic, version")
    check(fields["substeps"] == 6 and fields["dt"] == 0.01 and fields["steps"] == 300,
          f"snapshot substeps, dt, steps: {fields['substeps']}, {fields['dt']}, {fields['steps']}")
    check(fields["scene"] == scene_bytes, "the snapshot holds the scene file's bytes as read")
    check(fields["end"] == len(data) and fields["checksum"] == fnv1a(data[:fields["covered"]]),
          "the snapshot ends with the FNV-1a 64 of everything before it")


def check_resume_refused(args, cwd, expected, label):
    """Exit 2, nothing on stdout, exactly the expected stderr (a string, or a pattern for the
    whole of it), no output files."""
    status, out, err = run(["resume"] + args + ["--out", "state.json", "--trace", "trace.csv",
                                                "--save", "again.snap", "--hash"], cwd=cwd)
    check(status == 2, f"{label}: exit {status}, expected 2")
    check(out == "", f"{label}: printed on stdout:\n{out}")
    matches = (expected.fullmatch(err) is not None if isinstance(expected, re.Pattern)
               else err == expected)
    check(matches, f"{label}: stderr\n{err}expected\n{expected}")
    for name in ("state.json", "trace.csv", "again.snap"):
        check(not os.path.exists(os.path.join(cwd, name)), f"{label}: {name} was written")


def snapshot_refusals(scratch):
    ball_drop = os.path.join(SCENES, "ball_drop.json")
    run_ok(["run", ball_drop, "--steps", "90", "--save", os.path.join(scratch, "good.snap")])
    with open(os.path.join(scratch, "good.snap"), "rb") as file:
        good = file.read()
    fields = parse_snapshot(good)
    scene_end = SNAPSHOT_HEAD.size + len(fields["scene"])
    engine_at = fields["engine_offset"]

    def write(name, data):
        with open(os.path.join(scratch, name), "wb") as file:
            file.write(data)

    def flipped(data, offset):
        return data[:offset] + bytes([data[offset] ^ 0x10]) + data[offset + 1:]

    size = len(good)
    cases = [
        ("missing.snap", None, "missing.snap: cannot read the file: No such file or directory\n"),
        ("empty.snap", b"", "empty.snap: not a carom snapshot: the file is empty\n"),
        ("scene.snap", open(ball_drop, "rb").read(),
         'scene.snap: not a carom snapshot: it does not start with "CAROMCLI" (a snapshot is '
         "written by carom run --save; a scene file is run with carom run)\n"),
        ("magic.snap", b"CAROMCLX" + good[8:],
         'magic.snap: not a carom snapshot: it does not start with "CAROMCLI" (a snapshot is '
         "written by carom run --save; a scene file is run with carom run)\n"),
        ("short.snap", good[:5], "short.snap: truncated or corrupt snapshot: the magic (8 bytes "
         "from byte 0) runs past the end of the file (5 bytes)\n"),
        ("head.snap", good[:20], "head.snap: truncated or corrupt snapshot: the dt (8 bytes from "
         "byte 16) runs past the end of the file (20 bytes)\n"),
        ("scene_cut.snap", good[:100], f"scene_cut.snap: truncated or corrupt snapshot: the scene "
         f"text ({len(fields['scene'])} bytes from byte 40) runs past the end of the file (100 "
         "bytes)\n"),
        ("engine_cut.snap", good[:engine_at + 10], "engine_cut.snap: truncated or corrupt "
         f"snapshot: the engine snapshot ({fields['engine_size']} bytes from byte {engine_at}) "
         f"runs past the end of the file ({engine_at + 10} bytes)\n"),
        ("checksum_cut.snap", good[:-3], "checksum_cut.snap: truncated or corrupt snapshot: the "
         f"checksum (8 bytes from byte {size - 8}) runs past the end of the file ({size - 3} "
         "bytes)\n"),
        ("trailing.snap", good + b"\n",
         f"trailing.snap: corrupt snapshot: 1 byte after its end (byte {size})\n"),
        ("version.snap", good[:8] + struct.pack("<I", 2) + good[12:],
         "version.snap: snapshot file format version 2; this carom reads version 1\n"),
        ("scene_flip.snap", flipped(good, scene_end - 20),
         "scene_flip.snap: corrupt snapshot: the checksum does not match the contents\n"),
        ("engine_flip.snap", flipped(good, engine_at + fields["engine_size"] // 2),
         "engine_flip.snap: corrupt snapshot: the checksum does not match the contents\n"),
        ("substeps.snap", with_checksum(good[:12] + struct.pack("<I", 65) + good[16:]),
         "substeps.snap: corrupt snapshot: substeps 65, not 0 to 64\n"),
        ("dt.snap", with_checksum(good[:16] + struct.pack("<d", -0.5) + good[24:]),
         "dt.snap: corrupt snapshot: dt -0.5, not > 0 and at most 1e12\n"),
        ("steps.snap", with_checksum(good[:24] + struct.pack("<Q", 2**53) + good[32:]),
         "steps.snap: corrupt snapshot: step count 9007199254740992, more than 2^53 - 1\n"),
        # A scene error has a place to be reported: the same length, so only the checksum changes.
        ("bad_scene.snap", with_checksum(good.replace(b'"radius": 0.5', b'"radius":-0.5', 1)),
         "bad_scene.snap (saved scene): bodies[1].shapes[0].radius: must be > 0, got -0.5\n"),
    ]
    cases += engine_refusals(scratch, good, fields)
    for name, data, expected in cases:
        if data is not None:
            write(name, data)
        check_resume_refused([name], scratch, expected, f"resume {name}")
    with open(os.path.join(scratch, "huge.snap"), "wb") as file:
        file.truncate(300 * 1000 * 1000)  # sparse: refused from its size, never read
    check_resume_refused(["huge.snap"], scratch, "huge.snap: the file is 300000000 bytes, more "
                         "than the 268435456 (256 MiB) a snapshot file may have\n", "resume huge")
    # Output trouble is not bad input: exit 1 before anything runs, nothing on stdout.
    for args in (["run", ball_drop], ["resume", "good.snap"]):
        status, out, err = run(args + ["--save", "/nonexistent/dir/x.snap", "--hash"],
                               cwd=scratch)
        check(status == 1 and out == "" and
              err == "carom: cannot write '/nonexistent/dir/x.snap': No such file or directory\n",
              f"{args[0]} --save to an unwritable path: exit {status}, stderr {err!r}")


def engine_refusals(scratch, good, fields):
    """Snapshot files whose container is right (checksum made right again) but whose engine part
    is not: the engine's own checks refuse them, and resume passes its message on."""
    engine_at = fields["engine_offset"]
    # A bit flipped in the engine's scene part payload (after its 32-byte header): the engine's
    # part checksum catches it. Its message holds both checksums, which depend on the engine's
    # encoding, so they are matched as hex digits.
    flipped = bytearray(good)
    flipped[engine_at + 40] ^= 0x10
    # Another engine format version (the u16 after the part's 4-byte magic).
    other_version = bytearray(good)
    other_version[engine_at + 4:engine_at + 6] = struct.pack("<H", 99)
    # Another scene's engine snapshot behind this scene's text.
    other = os.path.join(scratch, "other.snap")
    run_ok(["run", os.path.join(SCENES, "box_stack.json"), "--steps", "1", "--save", other])
    with open(other, "rb") as file:
        other_data = file.read()
    other_fields = parse_snapshot(other_data)
    swapped = (good[:engine_at - 8] + struct.pack("<Q", other_fields["engine_size"]) +
               other_data[other_fields["engine_offset"]:other_fields["covered"]] + bytes(8))
    return [
        ("engine_bits.snap", with_checksum(bytes(flipped)), re.compile(
            r"engine_bits\.snap: the engine refused the snapshot: snapshot: the scene part's "
            r"checksum is [0-9a-f]{16} but its bytes give [0-9a-f]{16}: it was damaged\n")),
        ("engine_version.snap", with_checksum(bytes(other_version)),
         "engine_version.snap: the engine refused the snapshot: snapshot: the scene part is "
         "format version 99; this build of carom reads versions 2 to 6\n"),
        ("swapped.snap", with_checksum(swapped), "swapped.snap: corrupt snapshot: its scene has "
         "4 bodies, its engine snapshot 11\n"),
    ]


def snapshot_arguments(scratch):
    see_help = "carom: see 'carom --help'\n"
    refused = [
        (["resume"], "carom: resume needs a snapshot file: carom resume SNAPSHOT\n" + see_help),
        (["resume", "a.snap", "--dt", "0.01", "--substeps", "2"],
         "carom: resume continues with the dt and substeps of the snapshot: --dt cannot be "
         "given\ncarom: resume continues with the dt and substeps of the snapshot: --substeps "
         "cannot be given\n" + see_help),
        (["resume", "a.snap", "b.snap"],
         "carom: one snapshot file at a time: 'a.snap' and 'b.snap'\n" + see_help),
        (["resume", "a.snap", "--save", "-"],
         "carom: --save writes a binary snapshot: give a file name, not '-'\n" + see_help),
        (["run", os.path.join(SCENES, "ball_drop.json"), "--save", "a.snap", "--save", "b.snap"],
         "carom: --save is given twice\n" + see_help),
        (["resume", "a.snap", "--steps", "1", "--time", "1"],
         "carom: --steps and --time both say how long to run: give one\n" + see_help),
    ]
    for args, expected in refused:
        status, out, err = run(args, cwd=scratch)
        label = "carom " + " ".join(args)
        check(status == 2 and out == "" and err == expected,
              f"{label}: exit {status}, stdout {out!r}, stderr\n{err}expected\n{expected}")
    status, out, err = run(["resume", "--help"])
    check(status == 0 and out.startswith("usage: carom run") and "carom resume SNAPSHOT" in out,
          "carom resume --help prints the usage")


def group_snapshot():
    with tempfile.TemporaryDirectory() as scratch:
        snapshot_hashes(scratch)
        snapshot_chain(scratch)
        snapshot_outputs(scratch)
        snapshot_refusals(scratch)
        snapshot_arguments(scratch)


# ---- outputs --------------------------------------------------------------------------------

# Each output option with the name it writes in these checks, and a run long enough that every
# output is bigger than a stdio buffer (the trace has 5 dynamic bodies, every step).
OUTPUTS = [("--out", "state.json"), ("--trace", "trace.csv"), ("--save", "run.snap")]
EVERYTHING = os.path.join(HERE, "good", "everything.json")
LONG_ENOUGH = ["--steps", "200"]
NOBODY = 65534


def folder_contents(folder):
    """Every name in the folder (hidden ones too: temporaries start with a dot) and its bytes;
    None for what is not a regular file."""
    contents = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as file:
                contents[name] = file.read()
        else:
            contents[name] = None
    return contents


def write_previous_outputs(folder):
    """The results of an earlier run: what a failed run must leave exactly as it was."""
    run_ok(["run", EVERYTHING, "--steps", "3", "--out", os.path.join(folder, "state.json"),
            "--trace", os.path.join(folder, "trace.csv"),
            "--save", os.path.join(folder, "run.snap")])


def check_untouched(folder, before, label):
    after = folder_contents(folder)
    check(sorted(after) == sorted(before), f"{label}: the folder held {sorted(before)}, now "
          f"{sorted(after)} (a temporary left behind, or a file made or removed)")
    for name, data in before.items():
        check(after.get(name) == data, f"{label}: {name} changed")


def check_failed_write(args, folder, expected, label, **popen):
    """carom fails with exit 1 and exactly `expected` on stderr (a string, or a pattern for the
    whole of it), prints nothing, and leaves the folder byte for byte as it was."""
    before = folder_contents(folder)
    result = subprocess.run([CAROM] + args, cwd=folder, capture_output=True, timeout=300, **popen)
    err = result.stderr.decode("utf-8", "replace")
    check(result.returncode == 1, f"{label}: exit {result.returncode}, expected 1 ({err!r})")
    check(result.stdout == b"", f"{label}: printed {result.stdout!r} on stdout")
    matches = (expected.fullmatch(err) is not None if isinstance(expected, re.Pattern)
               else err == expected)
    check(matches, f"{label}: stderr\n{err}expected\n{expected}")
    check_untouched(folder, before, label)


def fill_up(folder):
    """Write into the folder until its file system has no space left."""
    descriptor = os.open(os.path.join(folder, "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
    for size in (65536, 4096, 1):  # to the last byte
        try:
            while True:
                os.write(descriptor, bytes(size))
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
    os.close(descriptor)


def mount_tmpfs(folder, options):
    """Mount a small tmpfs on the folder; None when done, else why it could not be."""
    if os.geteuid() != 0:
        return "not running as root"
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "carom-test", folder],
                            capture_output=True)
    return None if result.returncode == 0 else result.stderr.decode().strip() or "mount failed"


def unmount(folder):
    subprocess.run(["umount", folder], check=True)


def failed_writes_on_a_full_disk(folder, reason, popen):
    """In a folder where no write can succeed for `reason` (ENOSPC's or EFBIG's text), each
    output over an earlier file, all of them at once, and a new name: the earlier files keep
    their bytes and nothing else is left."""
    for option, name in OUTPUTS:
        check_failed_write(["run", EVERYTHING, option, name] + LONG_ENOUGH, folder,
                           f"carom: could not write all of '{name}': {reason} (the previous "
                           "file is kept)\n", f"{reason}: {option} over an earlier file", **popen)
    every = [arg for option, name in OUTPUTS for arg in (option, name)]
    check_failed_write(["run", EVERYTHING, "--hash"] + every + LONG_ENOUGH, folder, re.compile(
        r"(carom: could not write all of '(state\.json|trace\.csv|run\.snap)': "
        + re.escape(reason) + r" \(the previous file is kept\)\n)+"),
        f"{reason}: all three outputs over earlier files", **popen)
    check_failed_write(["resume", "run.snap", "--save", "run.snap"] + LONG_ENOUGH, folder,
                       f"carom: could not write all of 'run.snap': {reason} (the previous file "
                       "is kept)\n", f"{reason}: resume --save over the snapshot it resumes",
                       **popen)
    check_failed_write(["run", EVERYTHING, "--out", "new.json"], folder,
                       f"carom: could not write all of 'new.json': {reason} (no file was "
                       "made)\n", f"{reason}: a new state file", **popen)


def outputs_full_tmpfs(scratch):
    """A full file system: a small tmpfs, filled up after an earlier run wrote its outputs."""
    folder = os.path.join(scratch, "full")
    os.mkdir(folder)
    why_not = mount_tmpfs(folder, "size=256k")
    if why_not is not None:
        print(f"skipped: a full tmpfs ({why_not}); the file size limit below stands in for it")
        return
    try:
        write_previous_outputs(folder)
        fill_up(folder)
        failed_writes_on_a_full_disk(folder, "No space left on device", {})
    finally:
        unmount(folder)


def limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def outputs_file_size_limit(scratch):
    """A file size limit (RLIMIT_FSIZE) fails writes as a full disk does, for any user."""
    folder = os.path.join(scratch, "limited")
    os.mkdir(folder)
    write_previous_outputs(folder)
    failed_writes_on_a_full_disk(folder, "File too large", {"preexec_fn": limit_file_size})
    # Not ignored, the limit's signal stops carom at once: the temporary goes all the same.
    before = folder_contents(folder)
    result = subprocess.run([CAROM, "run", EVERYTHING, "--out", "state.json"] + LONG_ENOUGH,
                            cwd=folder, capture_output=True, preexec_fn=lambda: resource.setrlimit(
                                resource.RLIMIT_FSIZE, (1024, 1024)))
    check(result.returncode == -signal.SIGXFSZ, f"past the file size limit: exit "
          f"{result.returncode}, expected death by SIGXFSZ")
    check_untouched(folder, before, "killed by SIGXFSZ")
    # /dev/full is written in place (a device is not replaced), and its error reported.
    status, out, err = run(["run", EVERYTHING, "--out", "/dev/full", "--hash"])
    check(status == 1 and out == "" and err == "carom: could not write all of '/dev/full': No "
          "space left on device\n", f"--out /dev/full: exit {status}, stderr {err!r}")


def outputs_directory_in_the_way(scratch):
    """A directory where an output should go is refused before the run, naming the path; the
    other outputs are not written either."""
    folder = os.path.join(scratch, "in_the_way")
    os.mkdir(folder)
    for option, name in OUTPUTS:
        os.mkdir(os.path.join(folder, name))
        others = [arg for other, other_name in OUTPUTS if other != option
                  for arg in (other, "new-" + other_name)]
        check_failed_write(["run", EVERYTHING, option, name, "--hash"] + others, folder,
                           f"carom: cannot write '{name}': Is a directory\n",
                           f"a directory in the way of {option}")
        os.rmdir(os.path.join(folder, name))


def as_nobody():
    """How to run carom as an ordinary user: {} when this is one already, else the arguments
    that make root's child one; None when neither is possible."""
    if os.geteuid() != 0:
        return {}
    try:
        probe = subprocess.run(["true"], user=NOBODY, group=NOBODY, extra_groups=[])
    except (OSError, subprocess.SubprocessError):
        return None
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []} if probe.returncode == 0 \
        else None


def outputs_read_only(scratch):
    """A folder that cannot be written, a read-only file and a read-only file system: refused
    before the run, with the path and the reason; the earlier files keep their bytes."""
    user = as_nobody()
    if user is None:
        print("skipped: a read-only folder (running as root, and cannot run as another user)")
    else:
        folder = os.path.join(scratch, "read_only")
        os.mkdir(folder)
        os.chmod(scratch, 0o755)  # an ordinary user must reach the folder
        write_previous_outputs(folder)
        for name in os.listdir(folder):  # the files themselves writable: the folder is not
            os.chmod(os.path.join(folder, name), 0o666)
        os.chmod(folder, 0o555)
        for option, name in OUTPUTS:
            check_failed_write(["run", EVERYTHING, option, name], folder,
                               f"carom: cannot write '{name}': Permission denied\n",
                               f"{option} in a read-only folder", **user)
        os.chmod(folder, 0o755)
        os.chmod(os.path.join(folder, "state.json"), 0o444)
        check_failed_write(["run", EVERYTHING, "--out", "state.json"], folder,
                           "carom: cannot write 'state.json': Permission denied\n",
                           "--out over a read-only file in a writable folder", **user)
    folder = os.path.join(scratch, "read_only_fs")
    os.mkdir(folder)
    why_not = mount_tmpfs(folder, "size=256k")
    if why_not is not None:
        print(f"skipped: a read-only file system ({why_not})")
        return
    try:
        write_previous_outputs(folder)
        subprocess.run(["mount", "-o", "remount,ro", folder], check=True)
        for option, name in OUTPUTS:
            check_failed_write(["run", EVERYTHING, option, name], folder,
                               f"carom: cannot write '{name}': Read-only file system\n",
                               f"{option} on a read-only file system")
    finally:
        unmount(folder)


KILLING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)


def no_core_dump_and_default_signals():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGQUIT would leave a core file
    # carom keeps a signal its starter ignored (nohup ignores SIGHUP), and the run would then
    # never stop: the run under test starts with each signal's default action, wherever the
    # suite itself was started.
    for signal_number in KILLING_SIGNALS:
        signal.signal(signal_number, signal.SIG_DFL)


def outputs_killed(scratch):
    """A long run stopped by a signal leaves no temporary and the earlier files as they were."""
    folder = os.path.join(scratch, "killed")
    os.mkdir(folder)
    busy = os.path.join(scratch, "drifting.json")
    balls = [{"position": [3.0 * i, 0], "linear_velocity": [1, 0.5],
              "shapes": [{"type": "circle", "radius": 0.5}]} for i in range(200)]
    with open(busy, "w") as file:
        json.dump({"world": {"gravity": [0, 0]}, "bodies": balls}, file)
    write_previous_outputs(folder)
    for signal_number in KILLING_SIGNALS:
        before = folder_contents(folder)
        process = subprocess.Popen([CAROM, "run", busy, "--steps", "100000000", "--out",
                                    "state.json", "--trace", "trace.csv", "--every", "1000"],
                                   cwd=folder, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL,
                                   preexec_fn=no_core_dump_and_default_signals)
        deadline = time.monotonic() + 60
        while (not any(name.startswith(".") for name in os.listdir(folder))
               and time.monotonic() < deadline and process.poll() is None):
            time.sleep(0.01)  # until the temporaries exist: the run has started
        process.send_signal(signal_number)
        name = signal.Signals(signal_number).name
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()  # not left running its hundred million steps
            process.wait()
            check(False, f"{name}: the run was still going 60 s after the signal")
            continue
        check(process.returncode == -signal_number,
              f"{name}: exit {process.returncode}, expected death by the signal")
        check_untouched(folder, before, f"a run stopped by {name}")


def read_fifo(path, into):
    with open(path, "rb") as fifo:
        into.append(fifo.read())


def outputs_replaced(scratch):
    """What a successful write does: the earlier file replaced, its permissions kept, a link to
    it followed, a new file made with the umask's permissions, a FIFO written in place, the input
    file as the output, and no temporary left."""
    folder = os.path.join(scratch, "replaced")
    os.mkdir(folder)
    write_previous_outputs(folder)
    os.chmod(os.path.join(folder, "state.json"), 0o640)
    os.symlink("state.json", os.path.join(folder, "link.json"))
    expected_path = os.path.join(scratch, "expected.json")
    run_ok(["run", EVERYTHING, "--steps", "20", "--out", expected_path])
    run_ok(["run", EVERYTHING, "--steps", "20", "--out", "link.json"], cwd=folder)
    state = os.path.join(folder, "state.json")
    check(os.path.islink(os.path.join(folder, "link.json")), "--out over a link: still a link")
    with open(state, "rb") as a, open(expected_path, "rb") as b:
        check(a.read() == b.read(), "--out over a link: the file it points to has the new state")
    check(stat.S_IMODE(os.stat(state).st_mode) == 0o640,
          f"a replaced file keeps its permissions: {oct(os.stat(state).st_mode)}")
    # A new file: 0666 less the umask, as before.
    result = subprocess.run([CAROM, "run", EVERYTHING, "--steps", "1", "--out", "new.json"],
                            cwd=folder, preexec_fn=lambda: os.umask(0o027))
    new_mode = stat.S_IMODE(os.stat(os.path.join(folder, "new.json")).st_mode)
    check(result.returncode == 0 and new_mode == 0o640, f"a new file under umask 027: exit "
          f"{result.returncode}, mode {oct(new_mode)}, expected 0o640")
    # The input read whole first, so it can be the output: a state file continued in place.
    continued = os.path.join(scratch, "continued.json")
    run_ok(["run", state, "--steps", "10", "--out", continued])
    run_ok(["run", state, "--steps", "10", "--out", state])
    with open(state, "rb") as a, open(continued, "rb") as b:
        check(a.read() == b.read(), "run s.json --out s.json is run s.json --out other.json")
    # A FIFO is written in place, not replaced by a file.
    fifo = os.path.join(folder, "fifo")
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=read_fifo, args=(fifo, received))
    reader.start()
    out, _ = run_ok(["run", EVERYTHING, "--steps", "2", "--trace", fifo])
    reader.join(timeout=60)
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "--trace to a FIFO: still a FIFO")
    check(received and received[0].startswith(b"step,time,name,"),
          f"--trace to a FIFO: the reader got {received[:1]!r}")
    os.remove(fifo)
    # A character device is written in place, and two outputs may share it (/dev/null); made
    # here (a null device, as root) so that a mistake replaces nothing outside the test.
    if os.geteuid() == 0:
        device = os.path.join(folder, "null")
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        run_ok(["run", EVERYTHING, "--steps", "2", "--out", device, "--trace", device])
        check(stat.S_ISCHR(os.lstat(device).st_mode), "--out to a device: still the device")
        os.remove(device)
    check(not [name for name in os.listdir(folder) if name.startswith(".")],
          f"temporaries left behind: {os.listdir(folder)}")


def outputs_same_file(scratch):
    """Two outputs on one existing file under other names (a link, a hard link) are refused."""
    folder = os.path.join(scratch, "same")
    os.mkdir(folder)
    write_previous_outputs(folder)
    os.symlink("state.json", os.path.join(folder, "link.json"))
    os.link(os.path.join(folder, "state.json"), os.path.join(folder, "hard.json"))
    see_help = "carom: see 'carom --help'\n"
    for a, b in (("link.json", "state.json"), ("hard.json", "state.json"),
                 (os.path.join(folder, "state.json"), "link.json")):
        before = folder_contents(folder)
        status, out, err = run(["run", EVERYTHING, "--out", a, "--save", b], cwd=folder)
        expected = (f"carom: --out '{a}' and --save '{b}' are the same file: each output needs "
                    f"its own\n" + see_help)
        check(status == 2 and out == "" and err == expected,
              f"--out {a} --save {b}: exit {status}, stderr\n{err}expected\n{expected}")
        check_untouched(folder, before, f"--out {a} --save {b}")


def group_outputs():
    with tempfile.TemporaryDirectory() as scratch:
        outputs_full_tmpfs(scratch)
        outputs_file_size_limit(scratch)
        outputs_directory_in_the_way(scratch)
        outputs_read_only(scratch)
        outputs_killed(scratch)
        outputs_replaced(scratch)
        outputs_same_file(scratch)


# ---- events ---------------------------------------------------------------------------------

EVENT_KINDS = {"begin", "end", "hit", "sensor_begin", "sensor_end"}


def check_event_lines(path, text):
    """Every line a JSON object with the documented keys; contact events that agree: a begin
    before any hit or end of its pair, an end only for a begun pair."""
    open_pairs = set()
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        event = json.loads(line)
        where = f"{path} line {number}"
        check(event["kind"] in EVENT_KINDS, f"{where}: kind {event['kind']}")
        check(len(event["bodies"]) == 2 and len(event["shapes"]) == 2, f"{where}: two of each")
        has_contact = event["kind"] in ("begin", "hit")
        check(("point" in event) == has_contact and ("normal" in event) == has_contact and
              ("speed" in event) == has_contact, f"{where}: point, normal, speed on {event}")
        if has_contact:
            check(abs(math.hypot(*event["normal"]) - 1.0) < 1e-9, f"{where}: unit normal")
        pair = tuple(event["shapes"])
        if event["kind"] == "begin":
            check(pair not in open_pairs, f"{where}: begins twice")
            open_pairs.add(pair)
        elif event["kind"] in ("hit", "end"):
            check(pair in open_pairs, f"{where}: {event['kind']} without a begin")
            if event["kind"] == "end":
                open_pairs.discard(pair)
        events.append(event)
    return events


def group_events():
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "events.jsonl")
        run_ok(["run", os.path.join(SCENES, "billiards.json"), "--steps", "300", "--events",
                path])
        with open(path) as file:
            events = check_event_lines(path, file.read())
        check(any(e["kind"] == "begin" for e in events), "the billiard break begins contacts")
        # the three balls of ball_drop land together at step 58 on the ground (body 0); the
        # bounciest lands again later
        out, _ = run_ok(["run", os.path.join(SCENES, "ball_drop.json"), "--steps", "120",
                         "--events", "-"])
        events = check_event_lines("ball_drop", out)
        begins = [e for e in events if e["kind"] == "begin"]
        check(len(begins) >= 3 and all(e["step"] == 58 and e["bodies"][0] == 0
                                       for e in begins[:3]) and
              all(e["step"] > 58 for e in begins[3:]),
              f"ball_drop: three landings at step 58, got {begins}")
        check(all(e["normal"] == [0, 1] for e in begins), "ball_drop: the ground's normal is up")
        # resume numbers on: the events of 60 + 60 steps are those of 120
        snap = os.path.join(scratch, "half.snap")
        first = os.path.join(scratch, "first.jsonl")
        second = os.path.join(scratch, "second.jsonl")
        run_ok(["run", os.path.join(SCENES, "ball_drop.json"), "--steps", "60", "--save", snap,
                "--events", first])
        run_ok(["resume", snap, "--steps", "60", "--events", second])
        with open(first) as a, open(second) as b:
            check(a.read() + b.read() == out, "run 60 + resume 60 writes the events of run 120")
        status, _, err = run(["run", os.path.join(SCENES, "ball_drop.json"), "--out", "-",
                              "--events", "-"])
        check(status == 2 and "--events and --out cannot both write to stdout" in err, f"two outputs on stdout: {status} {err}")


# ---- body keys --------------------------------------------------------------------------------

BODY_KEYS_SCENE = {
    "version": 1, "world": {"gravity": [0, -10], "dt": 1 / 60},
    "bodies": [
        {"name": "ground", "type": "static",
         "shapes": [{"type": "box", "half_extents": [10, 0.5], "center": [0, -0.5]}]},
        {"name": "crate", "position": [0, 2], "angle": 0.5, "fixed_rotation": True,
         "shapes": [{"type": "box", "half_extents": [0.5, 0.25]}]},
        {"name": "balloon", "position": [3, 1], "gravity_scale": -0.5,
         "shapes": [{"type": "circle", "radius": 0.3}]},
        {"name": "ghost", "position": [-3, 3], "enabled": False, "linear_velocity": [1, 0],
         "shapes": [{"type": "circle", "radius": 0.3}]}]}


def group_body_keys():
    """fixed_rotation, gravity_scale and enabled act, and state files write them back."""
    with tempfile.TemporaryDirectory() as scratch:
        scene = os.path.join(scratch, "keys.json")
        with open(scene, "w") as file:
            json.dump(BODY_KEYS_SCENE, file)
        first = os.path.join(scratch, "first.json")
        run_ok(["run", scene, "--steps", "60", "--out", first])
        state = load_json(first)
        crate, balloon = state["bodies"][1], state["bodies"][2]
        check(crate.get("fixed_rotation") is True, f"fixed_rotation written back: {crate}")
        check(crate["rotation"] == [math.cos(0.5), math.sin(0.5)] or
              abs(crate["angle"] - 0.5) < 1e-15, f"the crate kept its angle: {crate['angle']}")
        check(crate["angular_velocity"] == 0, "a fixed rotation does not spin")
        check(balloon.get("gravity_scale") == -0.5, f"gravity_scale written back: {balloon}")
        check(balloon["position"][1] > 1 and balloon["linear_velocity"][1] > 4.9,
              f"the balloon rises at 5 m/s^2: {balloon}")
        check("gravity_scale" not in crate and "fixed_rotation" not in balloon and
              "enabled" not in crate, "defaults are not written")
        ghost = state["bodies"][3]
        check(ghost.get("enabled") is False and ghost["position"] == [-3, 3] and
              ghost["linear_velocity"] == [1, 0], f"a disabled body stays as it was: {ghost}")
        second = os.path.join(scratch, "second.json")
        run_ok(["run", first, "--steps", "0", "--out", second])
        check(load_json(second) == state, "a state file reads back to itself")
        for bad, message in ((["gravity_scale", "up"], "gravity_scale"),
                             (["fixed_rotation", 1], "fixed_rotation"),
                             (["enabled", "no"], "enabled")):
            broken = json.loads(json.dumps(BODY_KEYS_SCENE))
            broken["bodies"][1][bad[0]] = bad[1]
            path = os.path.join(scratch, "bad.json")
            with open(path, "w") as file:
                json.dump(broken, file)
            status, _, err = run(["run", path])
            check(status == 2 and f"bodies[1].{message}" in err, f"{bad}: {status} {err}")


# ---- scene keys: vehicles, surface grip, one-sided chains, hit events (issue 16) -------------

RACING_MODEL = os.path.join(SCENES, "racing_model.json")

# A car driven into a wall at about 15 m/s; hit_events on the car's shape or not.
def crash_scene(hit_events):
    car = {"type": "box", "half_extents": [2.2, 0.9], "density": 150}
    if hit_events:
        car.update({"hit_events": True, "hit_speed_threshold": 3})
    return {"version": 1, "world": {"gravity": [0, 0]},
            "bodies": [{"name": "wall", "type": "static",
                        "shapes": [{"type": "box", "half_extents": [0.5, 5], "center": [30, 0]}]},
                       {"name": "car", "shapes": [car]}],
            "vehicles": [{"body": "car", "controls": [{"step": 0, "throttle": 1}]}]}


def compare_vehicles(path, scene, state):
    """Each vehicle written back with every key: the file's values over the def's defaults."""
    defaults = {"gravity": 9.81, "grip": 1, "peak_slip_angle": 0.12, "slide_grip_ratio": 0.7,
                "max_drive_force": 5000, "max_power": 120000, "max_brake_force": 20000,
                "handbrake_force": 8000, "handbrake_grip_factor": 0.5, "max_steer_angle": 0.6,
                "steer_reduction_speed": 20, "rolling_resistance": 0.015,
                "drag_coefficient": 0.45}
    given_all, written_all = scene.get("vehicles", []), state.get("vehicles", [])
    check(len(given_all) == len(written_all), f"{path}: vehicle count")
    for i, (given, written) in enumerate(zip(given_all, written_all)):
        where = f"{path}: vehicles[{i}]"
        for key, default in defaults.items():
            check(written.get(key) == given.get(key, default),
                  f"{where}.{key}: {given.get(key, default)} written as {written.get(key)}")
        check(written["body"] == given["body"], f"{where}.body")
        check(len(written["wheels"]) == len(given.get("wheels", [None] * 4)), f"{where}.wheels")
        check(set(written["input"]) == {"throttle", "brake", "steer", "handbrake"},
              f"{where}.input keys: {written['input']}")


def group_scene_keys():
    with tempfile.TemporaryDirectory() as scratch:
        def path(name):
            return os.path.join(scratch, name)
        # Written back in full, and read back to the same bytes
        state = path("state.json")
        run_ok(["run", RACING_MODEL, "--steps", "0", "--out", state])
        scene, written = load_json(RACING_MODEL), load_json(state)
        compare_vehicles("racing_model", scene, written)
        check(written["vehicles"][0]["controls"] == [
            {"step": 0, "throttle": 1, "brake": 0, "steer": 0, "handbrake": False},
            {"step": 240, "throttle": 0, "brake": 1, "steer": 0, "handbrake": False}],
            f"the script written back: {written['vehicles'][0]['controls']}")
        # --steps 0 then a run of the state: the scene's run, bit for bit
        whole = hash_of(["run", RACING_MODEL, "--steps", "600"])
        check(hash_of(["run", state, "--steps", "600"]) == whole,
              "racing_model: the --steps 0 state run 600 steps is not the scene's run")
        # Split inside the script: the spent entries gone, the rest renumbered, the same end
        for split in (200, 240, 241):
            run_ok(["run", RACING_MODEL, "--steps", str(split), "--out", state])
            written = load_json(state)
            vehicle = written["vehicles"][1]
            expected = ([{"step": 240 - split, "throttle": 0, "brake": 1, "steer": 0,
                          "handbrake": False}] if split <= 240 else [])
            check(vehicle["controls"] == expected, f"split {split}: {vehicle['controls']}")
            spent = split > 240  # the brake entry taken over already
            check(vehicle["input"]["throttle"] == (0 if spent else 1) and
                  vehicle["input"]["brake"] == (1 if spent else 0),
                  f"split {split}: the input in force {vehicle['input']}")
            resumed = hash_of(["run", state, "--steps", str(600 - split)])
            check(resumed == whole, f"racing_model: run {split}, state, run {600 - split}: "
                  f"{resumed!r}, whole run {whole!r}")
        print(f"racing_model: run 600: {whole.strip()}; state files at 0, 200, 240, 241 agree")
        # Hit events appear when a scene enables them, and only then
        for hit_events in (True, False):
            crash = path("crash.json")
            with open(crash, "w") as file:
                json.dump(crash_scene(hit_events), file)
            out, _ = run_ok(["run", crash, "--steps", "240", "--events", "-"])
            events = check_event_lines("crash", out)
            hits = [e for e in events if e["kind"] == "hit"]
            begins = [e for e in events if e["kind"] == "begin"]
            check(len(begins) >= 1, f"the car reaches the wall: {events}")
            if hit_events:
                check(len(hits) >= 1 and all(e["speed"] > 3 for e in hits) and
                      hits[0]["bodies"] == [0, 1], f"hit_events: {hits}")
            else:
                check(hits == [], f"no hit_events, yet hits: {hits}")
        # The racing model's events: each car crosses the finish-line sensor, the grass car
        # reaches the grass
        out, _ = run_ok(["run", RACING_MODEL, "--steps", "600", "--events", "-"])
        events = check_event_lines("racing_model", out)
        sensed = sorted((e["shapes"][0], e["bodies"][1]) for e in events
                        if e["kind"] == "sensor_begin")
        check(sensed == [(2, 2), (3, 1), (3, 2)], f"racing_model sensor events: {sensed}")


GROUPS = {"bad": group_bad, "arguments": group_arguments, "good": group_good,
          "state": group_state, "trace": group_trace, "hash": group_hash, "time": group_time,
          "load": group_load, "progress": group_progress, "snapshot": group_snapshot,
          "outputs": group_outputs, "events": group_events,
          "body_keys": group_body_keys, "scene_keys": group_scene_keys}

if __name__ == "__main__":
    names = sys.argv[1:] or list(GROUPS)
    for name in names:
        GROUPS[name]()
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} failure(s) in {', '.join(names)}")
    sys.exit(1 if failures else 0)
