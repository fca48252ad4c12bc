#!/usr/bin/env python3
"""`carom render` against its contract (docs/cli.md, "carom render").

    CAROM=build/tools/carom python3 tests/cli/render_tests.py [GROUP...]
Groups: arguments (each mistake's exact message, exit status 2, nothing written), pictures
(PNGs decoded here: sizes, the colors of static, dynamic, sleeping and kinematic bodies, the
region shown), runs (--frames and --gif against --png at the same steps, snapshots and state
files against the run they continue, GIF structure and timing), determinism (the same command writes the same
bytes), outputs (failed renders leave earlier files as they were).
The GIF writer's pixels are checked against giflib's decoder in tests/test_gif.c; here a GIF is
walked block by block. Every check that fails is printed; the exit status is 1 if any did."""
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENES = os.path.join(ROOT, "scenes")
CAROM = os.path.abspath(os.environ.get("CAROM", os.path.join(ROOT, "build", "tools", "carom")))
SEE_HELP = "carom: see 'carom render --help'\n"

STATIC, KINEMATIC, DYNAMIC, SLEEPING = 0x808080, 0x4d99e6, 0xe6b34d, 0x8c8c66
BACKGROUND = 0x1d2026

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(args, cwd=None):
    result = subprocess.run([CAROM] + args, cwd=cwd, capture_output=True, timeout=600)
    return (result.returncode, result.stdout.decode("utf-8", "replace"),
            result.stderr.decode("utf-8", "replace"))


def run_ok(args, cwd=None):
    status, out, err = run(args, cwd=cwd)
    check(status == 0 and out == "" and err == "",
          f"carom {' '.join(args)}: exit {status}, stdout {out!r}, stderr:\n{err}")


def read(path):
    with open(path, "rb") as file:
        return file.read()


def write(path, text):
    with open(path, "w") as file:
        file.write(text)


def sha(path):
    return hashlib.sha256(read(path)).hexdigest()


# ---- PNG and GIF, read here ----------------------------------------------------------------

def decode_png(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB PNG, every chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color == 2 and interlace == 0, f"unexpected PNG header {header}"
    raw = zlib.decompress(idat)
    stride = 3 * width
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 3] if x >= 3 else 0
            up = previous[x]
            corner = previous[x - 3] if x >= 3 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                      else corner)) & 255
        rows.append([tuple(line[3 * i:3 * i + 3]) for i in range(width)])
        previous = line
    return width, height, rows


def rgb(value):
    return ((value >> 16) & 255, (value >> 8) & 255, value & 255)


def walk_gif(data):
    """The screen size, whether it loops, and each frame's (delay, left, top, width, height)."""
    assert data[:6] == b"GIF89a", "not a GIF89a"
    width, height, packed = struct.unpack("<HHB", data[6:11])
    at = 13 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)
    frames, delay, loops = [], None, False

    def skip_blocks(at):
        while data[at] != 0:
            at += data[at] + 1
        return at + 1

    while data[at] != 0x3B:
        if data[at] == 0x21:
            label = data[at + 1]
            if label == 0xF9:
                delay, = struct.unpack("<H", data[at + 4:at + 6])
            elif label == 0xFF and data[at + 3:at + 14] == b"NETSCAPE2.0":
                loops = True
            at = skip_blocks(at + 2)
        else:
            assert data[at] == 0x2C, f"unexpected block {data[at]:#x} at {at}"
            left, top, w, h, flags = struct.unpack("<HHHHB", data[at + 1:at + 10])
            assert left + w <= width and top + h <= height, "a frame outside the screen"
            at += 10 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
            at = skip_blocks(at + 1)  # the LZW minimum code size, then the data
            frames.append((delay, left, top, w, h))
    assert at == len(data) - 1, "bytes after the trailer"
    return width, height, loops, frames


# ---- Groups --------------------------------------------------------------------------------

def group_arguments():
    scene = os.path.join(SCENES, "ball_drop.json")
    with tempfile.TemporaryDirectory() as scratch:
        cases = [
            ([], "carom: render needs a scene, state or snapshot file: carom render FILE "
                 "--png PICTURE.png\n"
                 "carom: render needs an output: --png FILE, --gif FILE or --frames FOLDER\n"),
            ([scene], "carom: render needs an output: --png FILE, --gif FILE or --frames "
                      "FOLDER\n"),
            ([scene, "--png"], "carom: --png needs a value\n"),
            ([scene, "--png", "a.png", "--gif", "a.gif"],
             "carom: --png, --gif and --frames each name the one output: give one\n"),
            ([scene, "--png", "a.png", "--png", "b.png"], "carom: --png is given twice\n"),
            ([scene, "--png", ""], "carom: --png needs a file name, got an empty one\n"),
            ([scene, "--png", "a.png", "--size", "15x100"],
             "carom: --size must be WIDTHxHEIGHT, two whole numbers of pixels from 16 to 4096, "
             "got '15x100'\n"),
            ([scene, "--png", "a.png", "--size=640"],
             "carom: --size must be WIDTHxHEIGHT, two whole numbers of pixels from 16 to 4096, "
             "got '640'\n"),
            ([scene, "--png", "a.png", "--size", "640x-1"],
             "carom: --size must be WIDTHxHEIGHT, two whole numbers of pixels from 16 to 4096, "
             "got '640x-1'\n"),
            ([scene, "--png", "a.png", "--size", "4097x16"],
             "carom: --size must be WIDTHxHEIGHT, two whole numbers of pixels from 16 to 4096, "
             "got '4097x16'\n"),
            ([scene, "--png", "a.png", "--view", "0,0,1"],
             "carom: --view must be X0,Y0,X1,Y1, four numbers of metres (at most 1e12 in "
             "magnitude), got '0,0,1'\n"),
            ([scene, "--png", "a.png", "--view", "0,0,1,2,3"],
             "carom: --view must be X0,Y0,X1,Y1, four numbers of metres (at most 1e12 in "
             "magnitude), got '0,0,1,2,3'\n"),
            ([scene, "--png", "a.png", "--view", "0,0,inf,1"],
             "carom: --view must be X0,Y0,X1,Y1, four numbers of metres (at most 1e12 in "
             "magnitude), got '0,0,inf,1'\n"),
            ([scene, "--png", "a.png", "--view", "0,0,2e12,1"],
             "carom: --view must be X0,Y0,X1,Y1, four numbers of metres (at most 1e12 in "
             "magnitude), got '0,0,2e12,1'\n"),
            ([scene, "--png", "a.png", "--view", "0,1,1,1"],
             "carom: --view '0,1,1,1': the lower-left corner must be below and left of the "
             "upper-right one (X0 < X1 and Y0 < Y1)\n"),
            ([scene, "--png", "a.png", "--every", "2"],
             "carom: --every only applies to --gif and --frames: a PNG is one picture\n"),
            ([scene, "--gif", "a.gif", "--every", "0"],
             "carom: --every must be an integer from 1 to 2147483647, got '0'\n"),
            ([scene, "--gif", "a.gif", "--steps", "1", "--time", "1"],
             "carom: --steps and --time both say how long to run: give one\n"),
            ([scene, "--frames", "missing"],
             "carom: --frames 'missing': no such folder (the frames go into it)\n"),
            ([scene, scene, "--png", "a.png"],
             f"carom: one input file at a time: '{scene}' and '{scene}'\n"),
            ([scene, "--png", "a.png", "--colour=red"],
             "carom: unknown option '--colour=red'\n"),
            ([scene, "--png", "a.png", "--quiet=yes"], "carom: --quiet takes no value\n"),
        ]
        for args, expected in cases:
            status, out, err = run(["render"] + args, cwd=scratch)
            check(status == 2 and out == "" and err == expected + SEE_HELP,
                  f"render {args}: exit {status}, stderr\n{err}expected\n{expected + SEE_HELP}")
            check(os.listdir(scratch) == [], f"render {args} wrote {os.listdir(scratch)}")
        missing = os.path.join(scratch, "nope.json")
        status, out, err = run(["render", missing, "--png", "a.png"], cwd=scratch)
        check(status == 2 and err == f"{missing}: cannot read the file: No such file or directory\n",
              f"a missing input: exit {status}, stderr\n{err}")
        write(os.path.join(scratch, "bad.json"), '{"bodies": [{"shapes": []}]}')
        status, out, err = run(["render", "bad.json", "--png", "a.png"], cwd=scratch)
        check(status == 2 and err.startswith("bad.json: bodies[0].shapes:")
              and not os.path.exists(os.path.join(scratch, "a.png")),
              f"a bad scene: exit {status}, stderr\n{err}")
        status, out, err = run(["render", scene, "--gif", "a.gif", "--every", "40000"],
                               cwd=scratch)
        expected = ("carom: a frame every 40000 steps of 0.0166667 s lasts 666.667 s, longer "
                    "than a GIF frame can (655.35 s): give a smaller --every\n")
        check(status == 2 and err == expected and os.listdir(scratch) == ["bad.json"],
              f"a GIF frame too long: exit {status}, stderr\n{err}expected\n{expected}")
        for args in (["render", "--help"], ["render", scene, "-h"]):
            status, out, err = run(args)
            check(status == 0 and out.startswith("usage: carom render INPUT") and err == "",
                  f"carom {' '.join(args)}: exit {status}, stdout {out[:60]!r}")


def pixel(rows, x, y):
    return rows[y][x]


def group_pictures():
    with tempfile.TemporaryDirectory() as scratch:
        scene = os.path.join(SCENES, "ball_drop.json")
        # The ground box spans x -10..10, y -1..0; the balls (r 0.5) sit at x -2, 0, 2, y 5.
        # Shown whole with the region -11,-2,11,9 in 440x220 pixels: 20 pixels a metre.
        start = os.path.join(scratch, "start.png")
        run_ok(["render", scene, "--png", start, "--size", "440x220", "--view",
                "-11,-2,11,9"])
        width, height, rows = decode_png(read(start))
        check((width, height) == (440, 220), f"--size 440x220 gave {width}x{height}")

        def at(x, y):  # world metres to the pixel there
            return pixel(rows, int((x + 11) * 20), int((9 - y) * 20))

        check(at(0, -0.5) == rgb(STATIC), f"the static ground is {at(0, -0.5)}")
        check(at(-2.2, 4.8) == rgb(DYNAMIC), f"a dynamic ball is {at(-2.2, 4.8)}")
        check(at(5, 5) == rgb(BACKGROUND), f"empty space is {at(5, 5)}")
        # After 3 s the dead ball sleeps on the ground (center y 0.5).
        later = os.path.join(scratch, "later.png")
        run_ok(["render", scene, "--png", later, "--time", "3", "--size", "440x220",
                "--view", "-11,-2,11,9"])
        width, height, rows = decode_png(read(later))
        check(at(-2.2, 0.4) == rgb(SLEEPING), f"the sleeping ball is {at(-2.2, 0.4)}")
        # The default region: every shape with a margin, 640 pixels on the longer side.
        default = os.path.join(scratch, "default.png")
        run_ok(["render", scene, "--png", default])
        width, height, rows = decode_png(read(default))
        check(width == 640 and 200 < height < 400, f"default size {width}x{height}")
        check(rows[0][0] == rgb(BACKGROUND) and rows[height - 1][width - 1] == rgb(BACKGROUND),
              "the margin is background")
        # A kinematic body (everything.json's sensor ring is kinematic and a sensor: its rim
        # shows; the pyramid's boxes are dynamic), and every other shape kind, drawn at all.
        everything = os.path.join(HERE, "good", "everything.json")
        picture = os.path.join(scratch, "everything.png")
        run_ok(["render", everything, "--png", picture])
        width, height, rows = decode_png(read(picture))
        colors = {color for row in rows for color in row}
        for name, value in (("static", STATIC), ("dynamic", DYNAMIC)):
            check(rgb(value) in colors, f"everything.json shows no {name} color")
        kinematic = os.path.join(scratch, "kinematic.json")
        write(kinematic, '{"bodies": [{"type": "kinematic", "angular_velocity": 1, '
                         '"shapes": [{"type": "box", "half_extents": [1, 1]}]}]}')
        run_ok(["render", kinematic, "--png", picture, "--size", "64x64", "--steps", "10"])
        width, height, rows = decode_png(read(picture))
        check(rows[32][32] == rgb(KINEMATIC), f"a kinematic box is {rows[32][32]}")
        # An empty scene is 20 m round the origin; far views draw nothing, and do not crash.
        empty = os.path.join(scratch, "empty.json")
        write(empty, '{"bodies": []}')
        run_ok(["render", empty, "--png", picture, "--size", "16x16"])
        for view in ("1e11,1e11,1e12,1e12", "0,0,1e-300,1e-300", "-1e12,-1e12,1e12,1e12"):
            run_ok(["render", scene, "--png", picture, "--view", view, "--size", "32x32"])


def group_runs():
    with tempfile.TemporaryDirectory() as scratch:
        scene = os.path.join(SCENES, "box_stack.json")
        common = ["--size", "200x120", "--view", "-6,-1,6,7"]
        frames = os.path.join(scratch, "frames")
        os.mkdir(frames)
        run_ok(["render", scene, "--frames", frames, "--steps", "30", "--every", "10"] + common)
        names = sorted(os.listdir(frames))
        check(names == [f"frame_{i:05d}.png" for i in range(4)], f"--frames wrote {names}")
        # A frame is the picture --png draws at its step, to the byte.
        for index, steps in ((0, 0), (3, 30)):
            png = os.path.join(scratch, f"at{steps}.png")
            run_ok(["render", scene, "--png", png, "--steps", str(steps)] + common)
            check(read(png) == read(os.path.join(frames, names[index])),
                  f"frame {index} differs from --png --steps {steps}")
        # A snapshot renders as the run it continues.
        snapshot = os.path.join(scratch, "s.snap")
        run_ok(["run", scene, "--steps", "20", "--save", snapshot])
        resumed = os.path.join(scratch, "resumed.png")
        run_ok(["render", snapshot, "--png", resumed, "--steps", "10"] + common)
        check(read(resumed) == read(os.path.join(scratch, "at30.png")),
              "a snapshot at step 20 rendered 10 steps on differs from 30 steps of the scene")
        # So does a state file written at that step (it is the state to the last bit).
        state = os.path.join(scratch, "state.json")
        run_ok(["run", scene, "--steps", "30", "--out", state])
        from_state = os.path.join(scratch, "from_state.png")
        run_ok(["render", state, "--png", from_state] + common)
        check(read(from_state) == read(os.path.join(scratch, "at30.png")),
              "the state file of step 30 renders differently from 30 steps of the scene")
        # The GIF: a frame every K steps from step 0, each K * dt long, the total exact.
        gif = os.path.join(scratch, "run.gif")
        run_ok(["render", scene, "--gif", gif, "--steps", "60"] + common)
        width, height, loops, gif_frames = walk_gif(read(gif))
        check((width, height, loops) == (200, 120, True), f"GIF screen {width}x{height}")
        # dt 1/60: every 2 steps (0.0333 s, the fewest that last 0.02 s), frames at 0..60.
        check(len(gif_frames) == 31, f"{len(gif_frames)} GIF frames, not 31")
        delays = [frame[0] for frame in gif_frames]
        check(sum(delays) == 103 and set(delays) <= {3, 4},
              f"GIF delays {delays}: 31 frames of 1/30 s are 1.03 s")
        check(gif_frames[0][1:] == (0, 0, 200, 120), "the first frame is whole")
        check(all(w * h < 200 * 120 for _, _, _, w, h in gif_frames[1:]),
              "later frames store only the changed rectangle")
        billiards = os.path.join(SCENES, "billiards.json")
        run_ok(["render", billiards, "--gif", gif, "--steps", "12", "--every", "4"])
        width, height, loops, gif_frames = walk_gif(read(gif))
        check([frame[0] for frame in gif_frames] == [3, 4, 3, 3],
              f"dt 1/120, every 4: delays {[frame[0] for frame in gif_frames]}")
        check((width, height) == (640, 320), f"billiards framed as {width}x{height}")


def group_determinism():
    with tempfile.TemporaryDirectory() as scratch:
        scene = os.path.join(SCENES, "billiards.json")
        hashes = []
        for name in ("a.gif", "b.gif"):
            path = os.path.join(scratch, name)
            run_ok(["render", scene, "--gif", path, "--steps", "120"])
            hashes.append(sha(path))
        check(hashes[0] == hashes[1], "two renders of one run differ")
        for name in ("a.png", "b.png"):
            run_ok(["render", os.path.join(SCENES, "pyramid.json"), "--png",
                    os.path.join(scratch, name), "--steps", "100"])
        check(read(os.path.join(scratch, "a.png")) == read(os.path.join(scratch, "b.png")),
              "two PNGs of one state differ")


def group_outputs():
    with tempfile.TemporaryDirectory() as scratch:
        scene = os.path.join(SCENES, "ball_drop.json")
        target = os.path.join(scratch, "keep.png")
        write(target, "earlier")
        write(os.path.join(scratch, "bad.json"), '{"bodies": [{"shapes": []}]}')
        status, _, _ = run(["render", "bad.json", "--png", target], cwd=scratch)
        check(status == 2 and read(target) == b"earlier", "a bad scene changed the output")
        os.mkdir(os.path.join(scratch, "dir.png"))
        status, out, err = run(["render", scene, "--png", "dir.png"], cwd=scratch)
        check(status == 1 and err == "carom: cannot write 'dir.png': Is a directory\n",
              f"a directory in the way: exit {status}, stderr\n{err}")
        status, out, err = run(["render", scene, "--gif", "/nonexistent/a.gif"])
        check(status == 1 and "cannot write '/nonexistent/a.gif'" in err,
              f"a missing folder: exit {status}, stderr\n{err}")
        run_ok(["render", scene, "--png", target])
        check(read(target)[:8] == b"\x89PNG\r\n\x1a\n", "the PNG replaced the earlier file")
        check(sorted(os.listdir(scratch)) == ["bad.json", "dir.png", "keep.png"],
              f"temporaries left: {os.listdir(scratch)}")


GROUPS = {"arguments": group_arguments, "pictures": group_pictures, "runs": group_runs,
          "determinism": group_determinism, "outputs": group_outputs}

if __name__ == "__main__":
    names = sys.argv[1:] or list(GROUPS)
    for name in names:
        GROUPS[name]()
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} failure(s) in render {', '.join(names)}")
    sys.exit(1 if failures else 0)
