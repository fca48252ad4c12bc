#!/usr/bin/env python3
"""Writes Box2D v3's stacking scenes as carom scene files (format: docs/cli.md).

Each scene re-creates one of Box2D v3's samples (samples/sample_stacking.cpp,
samples/sample_robustness.cpp) or benchmarks (shared/benchmarks.c, "Large Pyramid") with the
same sizes, densities, friction, restitution, counts and positions; README.md in this folder
lists where carom's shapes differ. The scenes are checked in; this script is their recipe:
    python3 scenes/box2d/generate.py
tests/test_stacking.c loads these files and asserts how they behave."""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # scenes/scene_json.py
import scene_json  # noqa: E402
WORLD = {"gravity": [0, -10], "dt": 1 / 60}
# Box2D's rounded box of half extent 0.45 and radius 0.05 has the outline of a 0.5 box with
# rounded corners; carom has no rounded polygons yet, so it is the plain 0.5 box.
ROUNDED_UNIT_BOX = [0.5, 0.5]
# Box2D's cards are 2 mm thick; carom's thinnest box edge is 2.5 mm (CAROM_MIN_BOX_HALF_EXTENT).
CARD_HALF_THICKNESS = 0.00125


def write(name, scene):
    scene_json.write(HERE, name, scene)


def static_body(name, shapes, position=(0, 0)):
    return {"name": name, "type": "static", "position": list(position), "shapes": shapes}


def box(hx, hy, **keys):
    return {"type": "box", "half_extents": [hx, hy], **keys}


def segment(a, b):
    return {"type": "segment", "points": [list(a), list(b)]}


def vertical_stack(rows=12):
    """"Vertical Stack" at its defaults: one column of 12 rounded boxes, friction 0.3, every
    other box shifted 1 cm left or right; ground and wall are segments. (The sample's bullets
    are fired by a key press and are left out.)"""
    bodies = [static_body("ground", [segment((10, 0), (10, 20)), segment((-30, 0), (30, 0))])]
    for i in range(rows):
        shift = -0.01 if i % 2 == 0 else 0.01
        bodies.append({"name": f"box{i}", "position": [8 + shift, 0.5 + i],
                       "shapes": [box(*ROUNDED_UNIT_BOX, friction=0.3)]})
    return {"world": WORLD, "bodies": bodies}


def tilted_stack(columns=10, rows=10):
    """"Tilted Stack": ten columns 5 m apart of ten rounded boxes, friction 0.3, each box 0.2 m
    right of the one below it: every column leans too far to stand, and topples."""
    bodies = [static_body("ground", [box(1000, 1)], (0, -1))]
    x_root = -0.5 * 5 * (columns - 1)
    for j in range(columns):
        for i in range(rows):
            bodies.append({"name": f"c{j}r{i}", "position": [x_root + 5 * j + 0.2 * i, 0.5 + i],
                           "shapes": [box(*ROUNDED_UNIT_BOX, friction=0.3)]})
    return {"world": WORLD, "bodies": bodies}


def card_house():
    """"Card House" (from PEEL): five storeys of A-frames of 0.4 m cards leaning at 25 degrees,
    with flat cards across the apexes, friction 0.7 everywhere, on a ground box 80 m by 4 m."""
    ground = static_body("ground", [box(40, 2, friction=0.7)], (0, -2))
    height = 0.2
    bodies = [ground]

    def card(name, x, y, angle):
        bodies.append({"name": name, "position": [x, y], "angle": angle,
                       "shapes": [box(CARD_HALF_THICKNESS, height, friction=0.7)]})

    lean = 25 * math.pi / 180
    y = height - 0.02
    z0 = 0.0
    for storey, count in enumerate(range(5, 0, -1)):
        z = z0
        for i in range(count):
            if i != count - 1:
                card(f"s{storey}flat{i}", z + 0.25, y + height - 0.015, 0.5 * math.pi)
            card(f"s{storey}left{i}", z, y, -lean)
            z += 0.175
            card(f"s{storey}right{i}", z, y, lean)
            z += 0.175
        y += 2 * height - 0.03
        z0 += 0.175
    return {"world": WORLD, "bodies": bodies}


ARCH_INNER = [(16.0, 0.0), (14.93803712795643, 5.133601056842984),
              (13.79871746027416, 10.24928069555078), (12.56252963284711, 15.34107019122473),
              (11.20040987372525, 20.39856541571217), (9.66521217819836, 25.40369899225096),
              (7.87179930638133, 30.3179337000085), (5.635199558196225, 35.03820717801641),
              (2.405937953536585, 39.09554102558315)]
ARCH_OUTER = [(24.0, 0.0), (22.33619528222415, 6.02299846205841),
              (20.54936888969905, 12.00964361211476), (18.60854610798073, 17.9470321677465),
              (16.46769273811807, 23.81367936585418), (14.05325025774858, 29.57079353071012),
              (11.23551045834022, 35.13775818285372), (7.752568160730571, 40.30450679009583),
              (3.016931552701656, 44.28891593799322)]


def arch():
    """"Arch": 17 stones without mortar (8 a side and a keystone) between two curves given
    point by point, scaled by 1/4, friction 0.6, with four 4 m by 1 m boxes stacked on the
    keystone, on a segment ground. The stones are polygons in world coordinates on bodies at
    the origin, as in the sample."""
    inner = [(0.25 * x, 0.25 * y) for x, y in ARCH_INNER]
    outer = [(0.25 * x, 0.25 * y) for x, y in ARCH_OUTER]
    bodies = [static_body("ground", [{**segment((-100, 0), (100, 0)), "friction": 0.6}])]

    def stone(name, points):
        bodies.append({"name": name, "shapes": [{"type": "polygon", "friction": 0.6,
                                                 "vertices": [list(p) for p in points]}]})

    for i in range(8):
        stone(f"right{i}", [inner[i], outer[i], outer[i + 1], inner[i + 1]])
    for i in range(8):
        stone(f"left{i}", [(-outer[i][0], outer[i][1]), (-inner[i][0], inner[i][1]),
                           (-inner[i + 1][0], inner[i + 1][1]),
                           (-outer[i + 1][0], outer[i + 1][1])])
    stone("keystone", [inner[8], outer[8], (-outer[8][0], outer[8][1]),
                       (-inner[8][0], inner[8][1])])
    for i in range(4):
        bodies.append({"name": f"load{i}", "position": [0, 0.5 + outer[8][1] + i],
                       "shapes": [box(2, 0.5, friction=0.6)]})
    return {"world": WORLD, "bodies": bodies}


def double_domino(count=15):
    """"Double Domino": 15 dominoes 0.25 m by 1 m, 1 m apart, friction 0.6. The sample gives
    the first an impulse of (0.2, 0) N·s at (x, 1), its top edge; a scene has no impulses, so
    the first starts with the velocities that impulse gives it: 0.2 / 0.25 kg = 0.8 m/s, and
    -0.1 N·m·s over its inertia 0.25 (0.25² + 1²) / 12 kg·m²."""
    bodies = [static_body("ground", [box(100, 1)], (0, -1))]
    mass = 0.25 * 1.0
    inertia = mass * (0.25 ** 2 + 1.0 ** 2) / 12
    x = -0.5 * count
    for i in range(count):
        body = {"name": f"domino{i}", "position": [x, 0.5],
                "shapes": [box(0.125, 0.5, friction=0.6)]}
        if i == 0:
            body["linear_velocity"] = [0.2 / mass, 0]
            body["angular_velocity"] = -0.5 * 0.2 / inertia
        bodies.append(body)
        x += 1
    return {"world": WORLD, "bodies": bodies}


def confined(grid=25):
    """"Confined": 625 discs of radius 0.5 without gravity, placed 0.72 m apart (so every
    neighbour overlaps by 0.28 m) in a closed box. Box2D's walls are capsules of radius 0.5
    along the lines x = ±10.5, y = 0 and y = 20.5; here they are boxes with the same extents
    (square corners outside the room, where no disc reaches)."""
    walls = [box(11, 0.5), box(0.5, 10.75, center=[-10.5, 10.25]),
             box(0.5, 10.75, center=[10.5, 10.25]), box(11, 0.5, center=[0, 20.5])]
    bodies = [static_body("walls", walls)]
    for column in range(grid):
        for row in range(grid):
            bodies.append({"name": f"disc{column * grid + row}",
                           "position": [-8.75 + column * 18 / grid, 1.5 + row * 18 / grid],
                           "gravity_scale": 0,
                           "shapes": [{"type": "circle", "radius": 0.5}]})
    return {"world": WORLD, "bodies": bodies}


def high_mass_ratio_1():
    """"HighMassRatio1": three pyramids of ten rows of 2 m boxes (1 kg/m²), each topped, 2 m
    above its place, by a box of density 100, 200 and 300."""
    bodies = [static_body("ground", [box(50, 1, center=[0, -1])])]
    for j in range(3):
        offset = -20 + 2 * 11 * j
        y = 1.0
        for count in range(10, 0, -1):
            for i in range(count):
                top = count == 1
                bodies.append({"name": f"p{j}r{10 - count}b{i}",
                               "position": [2 * (i - 0.5 * count) + offset, y + 2 if top else y],
                               "shapes": [box(1, 1, density=100 * (j + 1) if top else 1)]})
            y += 2
    return {"world": WORLD, "bodies": bodies}


def high_mass_ratio_2():
    """"HighMassRatio2": a 20 m box (400 kg) dropped from 15 m onto two 1 m boxes 18 m apart."""
    bodies = [static_body("ground", [box(50, 1, center=[0, -1])]),
              {"name": "left", "position": [-9, 0.5], "shapes": [box(0.5, 0.5)]},
              {"name": "right", "position": [9, 0.5], "shapes": [box(0.5, 0.5)]},
              {"name": "big", "position": [0, 26], "shapes": [box(10, 10)]}]
    return {"world": WORLD, "bodies": bodies}


def overlap_recovery(base=4, overlap=0.25, extent=0.5):
    """"Overlap Recovery" at its defaults: a pyramid of ten unit boxes placed 25 % into each
    other and into the ground segment. The sample sets its contact tuning itself (stiffness
    30 Hz, damping ratio 10, push-out at most 3 m/s), so the scene does too."""
    bodies = [static_body("ground", [segment((-40, 0), (40, 0))])]
    fraction = 1 - overlap
    y = extent
    for i in range(base):
        x = fraction * extent * (i - base)
        for j in range(i, base):
            bodies.append({"name": f"r{i}b{j - i}", "position": [x, y],
                           "shapes": [box(extent, extent)]})
            x += 2 * fraction * extent
        y += 2 * fraction * extent
    tuning = {"contact_hertz": 30, "contact_damping_ratio": 10, "contact_push_max_velocity": 3}
    return {"world": {**WORLD, **tuning}, "bodies": bodies}


def large_pyramid(base=100):
    """Box2D's "Large Pyramid" benchmark: 5,050 unit boxes, 100 in the bottom row, on a ground
    box 200 m by 2 m, sleeping off (as the benchmark sets it)."""
    bodies = [static_body("ground", [box(100, 1)], (0, -1))]
    for i in range(base):
        y = 2 * i * 0.5 + 0.5
        for j in range(i, base):
            x = (i + 1) * 0.5 + (j - i) - 0.5 * base
            bodies.append({"name": f"r{i}b{j - i}", "position": [x, y],
                           "shapes": [box(0.5, 0.5)]})
    return {"world": {**WORLD, "sleep": False}, "bodies": bodies}


if __name__ == "__main__":
    write("vertical_stack.json", vertical_stack())
    write("tilted_stack.json", tilted_stack())
    write("card_house.json", card_house())
    write("arch.json", arch())
    write("double_domino.json", double_domino())
    write("confined.json", confined())
    write("high_mass_ratio_1.json", high_mass_ratio_1())
    write("high_mass_ratio_2.json", high_mass_ratio_2())
    write("overlap_recovery.json", overlap_recovery())
    write("large_pyramid.json", large_pyramid())
