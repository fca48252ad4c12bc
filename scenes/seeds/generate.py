#!/usr/bin/env python3
"""Writes the seed scenarios of demos/seeds/ as scene files (scene format: docs/cli.md), for
`carom run` and the web scene player's examples (docs/web.md):

    sat_boxes.json  the four pairs of rotated boxes of demos/seeds/sat_boxes.c, floating (gravity
                    scale 0): the two apart pairs stay put, the two overlapping pairs are pushed
                    apart; below them, rotated boxes fall onto a tilted plank and the floor.
    mtd.json        the three overlapping polygon pairs of demos/seeds/mtd.c, A fixed, B pushed
                    out along the minimum translation distance by the contact solver.
    star.json       the five-pointed star of demos/seeds/star.c as five convex kites of one
                    static body, a heptagon dropped into its top notch, where it rests, and one
                    onto its right arm, off which it slides to the floor.

The scenes are checked in; this script is how they were made. Run it from anywhere:
    python3 scenes/seeds/generate.py
(the billiard break, demos/seeds/billiards.c, is scenes/billiards.json already)."""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # scenes/scene_json.py
import scene_json  # noqa: E402


def write(name, scene):
    scene_json.write(HERE, name, scene)


def r(x):
    """Short numbers in the file: 12 significant digits are plenty for a scene."""
    return float(f"{x:.12g}")


def box(name, position, angle, half_extents, **body):
    return {"name": name, "position": [r(position[0]), r(position[1])], "angle": r(angle),
            "shapes": [{"type": "box", "half_extents": half_extents}], **body}


# (label, A's half extents and angle, B's centre, B's half extents and angle) of sat_boxes.c
SAT_PAIRS = [
    ("apart_aabbs_overlap", 1.2, 0.35, 0.6, (1.45, 1.1), 0.9, 0.3, -0.5),
    ("apart", 0.8, 0.5, -0.3, (2.3, -0.4), 0.6, 0.6, 0.4),
    ("overlapping", 1.1, 0.45, 0.25, (1.3, 0.5), 0.8, 0.35, 1.2),
    ("corner_into_face", 1.0, 0.6, 0.0, (1.55, 0.35), 0.5, 0.5, 0.785),
]


def sat_boxes():
    bodies = [
        {"name": "floor", "type": "static",
         "shapes": [{"type": "box", "half_extents": [14, 0.5], "center": [0, -0.5]}]},
        {"name": "plank", "type": "static", "position": [-4, 3], "angle": -0.35,
         "shapes": [{"type": "box", "half_extents": [4, 0.2]}]},
    ]
    for k, (label, ahw, ahh, aangle, bcenter, bhw, bhh, bangle) in enumerate(SAT_PAIRS):
        origin = (-9 + 6 * k, 10)
        floating = {"gravity_scale": 0, "linear_damping": 1, "angular_damping": 1}
        bodies.append(box(f"{label}_a", origin, aangle, [ahw, ahh], **floating))
        bodies.append(box(f"{label}_b", (origin[0] + bcenter[0], origin[1] + bcenter[1]), bangle,
                          [bhw, bhh], **floating))
    for i in range(8):
        bodies.append(box(f"falling{i}", (-7 + 1.3 * i, 6 + 0.9 * (i % 3)), 0.4 + 0.7 * i,
                          [0.5 - 0.03 * i, 0.3 + 0.02 * i]))
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


# (label, A: sides, radius, angle, centre; B: the same) of mtd.c
MTD_PAIRS = [
    ("triangle_pentagon", (3, 1.0, 0.3, (0.0, 0.0)), (5, 0.8, 0.1, (1.05, 0.45))),
    ("hexagon_box", (6, 0.9, 0.0, (0.0, 0.0)), (4, 0.75, 0.4, (0.9, -0.9))),
    ("octagon_triangle", (8, 1.0, 0.2, (0.0, 0.0)), (3, 0.9, -0.4, (-0.2, 1.2))),
]


def regular(sides, radius, angle):
    return [[r(radius * math.cos(angle + 2 * math.pi * i / sides)),
             r(radius * math.sin(angle + 2 * math.pi * i / sides))] for i in range(sides)]


def mtd():
    bodies = []
    for k, (label, a, b) in enumerate(MTD_PAIRS):
        origin = (-5 + 5 * k, 0)
        for part, (sides, radius, angle, center), kind in (("a", a, "static"), ("b", b, "dynamic")):
            body = {"name": f"{label}_{part}", "type": kind,
                    "position": [r(origin[0] + center[0]), r(origin[1] + center[1])],
                    "shapes": [{"type": "polygon", "vertices": regular(sides, radius, angle)}]}
            if kind == "dynamic":
                # pushed out, then brought to rest by damping (there is no gravity)
                body.update({"linear_damping": 3, "angular_damping": 3})
            bodies.append(body)
    return {"world": {"gravity": [0, 0], "dt": 1 / 60}, "bodies": bodies}


def star():
    arms, outer, inner = 5, 2.0, 0.8
    points = []
    for i in range(2 * arms):
        radius = outer if i % 2 == 0 else inner
        t = 0.3 * math.pi + math.pi * i / arms  # tips at 54 and 126 degrees
        points.append((radius * math.cos(t), radius * math.sin(t)))
    kites = []
    for i in range(arms):
        kite = [(0.0, 0.0), points[(2 * i + 2 * arms - 1) % (2 * arms)], points[2 * i],
                points[2 * i + 1]]
        kites.append({"type": "polygon", "vertices": [[r(x), r(y)] for x, y in kite]})
    bodies = [
        {"name": "star", "type": "static", "shapes": kites},
        {"name": "floor", "type": "static",
         "shapes": [{"type": "box", "half_extents": [6, 0.25], "center": [0, -3]}]},
    ]
    # the heptagon into the notch at the top, between the two upper tips, dropped from where
    # star.c drops it; a second one onto the right arm, from which it slides to the floor
    heptagon = regular(7, 0.45, 0.0)
    x, y = points[1]
    notch = (1.35 * x / math.hypot(x, y), 1.35 * y / math.hypot(x, y))
    for name, start in (("heptagon", (notch[0] + 0.3, notch[1] + 1.5)), ("slider", (2.2, 3.0))):
        bodies.append({"name": name, "position": [r(start[0]), r(start[1])],
                       "shapes": [{"type": "polygon", "vertices": heptagon}]})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


if __name__ == "__main__":
    write("sat_boxes.json", sat_boxes())
    write("mtd.json", mtd())
    write("star.json", star())
