#!/usr/bin/env python3
"""Writes a big valid scene for the load-time tests and measurements (tests/cli/run_tests.py,
docs/cli.md): N dynamic balls on a grid above a ground box, one body per line.
    python3 tests/cli/big_scene.py N OUT.json"""
import math
import sys


def write_big_scene(count, path):
    columns = max(1, math.ceil(math.sqrt(count)))
    with open(path, "w") as out:
        out.write('{"version": 1, "world": {"gravity": [0, -10]}, "bodies": [\n')
        width = columns * 1.1 + 2
        out.write('  {"name": "ground", "type": "static", "shapes": [{"type": "box", '
                  f'"half_extents": [{width}, 1], "center": [0, -1]}}]}}')
        for i in range(count):
            row, column = divmod(i, columns)
            x = (column - 0.5 * (columns - 1)) * 1.1
            y = 1.0 + row * 1.1
            out.write(f',\n  {{"name": "b{i}", "position": [{x:.4f}, {y:.4f}], '
                      '"shapes": [{"type": "circle", "radius": 0.5, "friction": 0.6}]}')
        out.write("\n]}\n")


if __name__ == "__main__":
    write_big_scene(int(sys.argv[1]), sys.argv[2])
