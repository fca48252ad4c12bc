#!/usr/bin/env python3
"""Writes the example scenes in this folder (scene format: docs/cli.md).

The scenes are data, checked in; this script is how they were made, so that a change to one is
a change to a recipe rather than to hundreds of hand-edited numbers. Run it from anywhere:
    python3 scenes/generate.py
pyramid.json and box_stack.json follow the recipes of the benchmark scenes (bench/scenes.c):
the same bodies, in the same order, at the same positions."""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, scene):
    scene = {"version": 1, **scene}
    path = os.path.join(HERE, name)
    with open(path, "w") as out:
        out.write(dump(scene) + "\n")


def dump(scene):
    """One body per line: readable, and diffs show which body changed."""
    head = {k: v for k, v in scene.items() if k != "bodies"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "bodies": [')
    bodies = [json.dumps(body) for body in scene["bodies"]]
    lines.append(",\n".join("    " + body for body in bodies))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines)


def ball_drop():
    bodies = [{"name": "ground", "type": "static",
               "shapes": [{"type": "box", "half_extents": [10, 0.5], "center": [0, -0.5]}]}]
    for name, x, restitution in (("dead", -2, 0.0), ("half", 0, 0.5), ("lively", 2, 0.9)):
        bodies.append({"name": name, "position": [x, 5],
                       "shapes": [{"type": "circle", "radius": 0.5,
                                   "restitution": restitution}]})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


def box_stack(count=10):
    bodies = [{"name": "ground", "type": "static",
               "shapes": [{"type": "box", "half_extents": [20, 1], "center": [0, -1]}]}]
    for i in range(count):
        bodies.append({"name": f"box{i}", "position": [0, 0.5 + i],
                       "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


def pyramid(base=20):
    bodies = [{"name": "ground", "type": "static",
               "shapes": [{"type": "box", "half_extents": [base + 20, 1], "center": [0, -1]}]}]
    for row in range(base):
        in_row = base - row
        for i in range(in_row):
            bodies.append({"name": f"r{row}b{i}",
                           "position": [(i - 0.5 * (in_row - 1)) * 1.0, 0.5 + row * 1.0],
                           "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


def billiards():
    """A pool break, seen from above: no gravity, cushions as one chain loop."""
    radius = 0.028575                       # 2 1/4 inch balls
    density = 0.17 / (math.pi * radius**2)  # 170 g each
    half_length, half_width = 1.27, 0.635   # a 9-foot table's playing surface
    ball = {"type": "circle", "radius": radius, "density": round(density, 3),
            "friction": 0.2, "restitution": 0.95}
    cushions = [[-half_length, -half_width], [half_length, -half_width],
                [half_length, half_width], [-half_length, half_width]]
    bodies = [{"name": "cushions", "type": "static",
               "shapes": [{"type": "chain", "points": cushions, "loop": True,
                           "restitution": 0.8, "friction": 0.2}]},
              {"name": "cue", "position": [-0.635, 0], "linear_velocity": [6, 0],
               "linear_damping": 0.3, "angular_damping": 0.3, "bullet": True,
               "shapes": [ball]}]
    spacing = 2 * radius + 0.0001
    number = 1
    for row in range(5):
        for i in range(row + 1):
            x = 0.635 + row * spacing * math.sqrt(3) / 2
            y = (i - row / 2) * spacing
            bodies.append({"name": f"ball{number}", "position": [round(x, 6), round(y, 6)],
                           "linear_damping": 0.3, "angular_damping": 0.3, "shapes": [ball]})
            number += 1
    return {"world": {"gravity": [0, 0], "dt": 1 / 120, "substeps": 4}, "bodies": bodies}


def arena(count=64, seed=0x5eed0003):
    """Top-down cars (boxes 1 m x 2 m) driving at up to 20 m/s inside a walled square."""
    state = seed

    def random_unit():  # xorshift64*, as in bench/scenes.c
        nonlocal state
        mask = (1 << 64) - 1
        state ^= state >> 12
        state ^= (state << 25) & mask
        state ^= state >> 27
        return (((state * 2685821657736338717) & mask) >> 11) / 9007199254740992.0

    def random_range(lo, hi):
        return lo + (hi - lo) * random_unit()

    spacing = 3.0
    columns = math.ceil(math.sqrt(count))
    half = 0.5 * columns * spacing + 2.0
    walls = [[-half, -half], [half, -half], [half, half], [-half, half]]
    bodies = [{"name": "walls", "type": "static",
               "shapes": [{"type": "chain", "points": walls, "loop": True, "friction": 0.3}]}]
    for i in range(count):
        row, column = divmod(i, columns)
        x = -0.5 * (columns - 1) * spacing + column * spacing + random_range(-0.3, 0.3)
        y = -0.5 * (columns - 1) * spacing + row * spacing + random_range(-0.3, 0.3)
        angle = random_range(-math.pi, math.pi)
        speed = random_range(0.0, 20.0)
        heading = random_range(-math.pi, math.pi)
        bodies.append({"name": f"car{i}", "position": [round(x, 4), round(y, 4)],
                       "angle": round(angle, 4),
                       "linear_velocity": [round(speed * math.cos(heading), 3),
                                           round(speed * math.sin(heading), 3)],
                       "linear_damping": 0.5, "angular_damping": 0.5,
                       "shapes": [{"type": "box", "half_extents": [0.5, 1.0],
                                   "friction": 0.3, "restitution": 0.5}]})
    return {"world": {"gravity": [0, 0], "dt": 1 / 60}, "bodies": bodies}


if __name__ == "__main__":
    write("ball_drop.json", ball_drop())
    write("box_stack.json", box_stack())
    write("pyramid.json", pyramid())
    write("billiards.json", billiards())
    write("arena.json", arena())
