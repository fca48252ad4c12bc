#!/usr/bin/env python3
"""Writes the example scenes in this folder (scene format: docs/cli.md).

The scenes are data, checked in; this script is how they were made, so that a change to one is
a change to a recipe rather than to hundreds of hand-edited numbers. Run it from anywhere:
    python3 scenes/generate.py
pyramid.json and box_stack.json follow the recipes of the benchmark scenes (bench/scenes.c):
the same bodies, in the same order, at the same positions."""
import math
import os

import scene_json

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, scene):
    scene_json.write(HERE, name, scene)


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


def joints():
    """A door on a hinge with limits and a closing spring, a chain of eight links hanging from a
    beam, a cart on two sprung wheels driven by a motor, and a weight on a rope."""
    box = lambda hx, hy, **more: {"type": "box", "half_extents": [hx, hy], **more}
    bodies = [{"name": "ground", "type": "static", "shapes": [box(20, 0.5, center=[0, -0.5])]},
              {"name": "beam", "type": "static", "shapes": [box(3, 0.1, center=[2, 8])]},
              {"name": "door", "position": [10.5, 1.5], "shapes": [box(0.5, 1.2)]}]
    joints_ = [{"type": "revolute", "name": "hinge", "body_a": "ground", "body_b": "door",
                "anchor": [10, 2.6], "limit": [-1.2, 1.2],
                "spring": {"hertz": 0.5, "damping_ratio": 0.3}}]
    previous = "beam"
    for i in range(8):
        name = f"link{i}"
        bodies.append({"name": name, "position": [0.25 + 0.5 * i, 7.9],
                       "shapes": [box(0.25, 0.05, density=4)]})
        joints_.append({"type": "revolute", "body_a": previous, "body_b": name,
                        "anchor": [0.5 * i, 7.9]})
        previous = name
    bodies += [{"name": "cart", "position": [-12, 1.2], "shapes": [box(1.2, 0.25)]},
               {"name": "rear", "position": [-12.8, 0.4],
                "shapes": [{"type": "circle", "radius": 0.4, "friction": 0.9}]},
               {"name": "front", "position": [-11.2, 0.4],
                "shapes": [{"type": "circle", "radius": 0.4, "friction": 0.9}]},
               {"name": "weight", "position": [6, 4], "shapes": [{"type": "circle", "radius": 0.3,
                                                                  "density": 5}]}]
    for wheel, motor in (("rear", True), ("front", False)):
        joint = {"type": "wheel", "body_a": "cart", "body_b": wheel,
                 "anchor": [-12.8 if wheel == "rear" else -11.2, 0.4], "axis": [0, 1],
                 "spring": {"hertz": 4, "damping_ratio": 0.7}, "limit": [-0.25, 0.25]}
        if motor:
            joint["motor"] = {"speed": -6, "max_torque": 30}
        joints_.append(joint)
    joints_.append({"type": "distance", "name": "rope", "body_a": "beam", "body_b": "weight",
                    "anchor_a": [5, 8], "anchor_b": [6, 4], "spring": {"hertz": 0},
                    "max_length": 4.5})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies, "joints": joints_}


def capsules():
    """Capsules, rounded boxes and rounded triangles tumbling down a chain ramp onto the floor,
    where a column of rounded crates stands and two capsules lie side by side."""
    ramp = [[-12, 6], [-4, 1], [0, 0], [12, 0]]
    bodies = [{"name": "ground", "type": "static",
               "shapes": [{"type": "chain", "points": ramp, "friction": 0.3},
                          {"type": "box", "half_extents": [0.25, 2], "center": [12.25, 2]}]}]
    for i in range(12):
        x, y = -11 + 0.9 * (i % 4), 7.5 + 1.0 * (i // 4)
        kind = i % 3
        if kind == 0:
            shape = {"type": "capsule", "center1": [-0.35, 0], "center2": [0.35, 0],
                     "radius": 0.2}
        elif kind == 1:
            shape = {"type": "box", "half_extents": [0.3, 0.2], "radius": 0.08}
        else:
            shape = {"type": "polygon", "vertices": [[-0.3, -0.2], [0.3, -0.2], [0, 0.3]],
                     "radius": 0.05}
        bodies.append({"name": f"tumbler{i}", "position": [x, y], "angle": 0.4 * i,
                       "shapes": [shape]})
    for i in range(5):
        bodies.append({"name": f"crate{i}", "position": [6, 0.5 + i],
                       "shapes": [{"type": "box", "half_extents": [0.4, 0.4], "radius": 0.1}]})
    for i in range(2):
        bodies.append({"name": f"pill{i}", "position": [9, 0.25 + 0.5 * i],
                       "shapes": [{"type": "capsule", "center1": [-0.6, 0],
                                   "center2": [0.6, 0], "radius": 0.25}]})
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


def racing_model(brake_step=240, grass_from=33.0, grass_to=93.0):
    """Two of the racing demo's cars (docs/racing.md) seen from above, side by side on a straight
    between one-sided rails, with the same script: full throttle for 4 s, then full brake to
    rest. The lower lane's braking zone is grass (a sensor of surface grip 0.6), so that car
    stops about 1 / 0.6 times as far. A finish-line sensor across both lanes reports each car
    crossing; the cars report hits (hit_events) on anything they strike."""
    length, width, mass = 4.4, 1.8, 1200.0
    lanes = {"tarmac": 0.0, "grass": -6.0}
    track = [
        # Rails: one-sided chains, solid on the side facing the road (the right of each
        # segment, looking along the chain); a car leaving the road would pass out through
        # nothing, but could not come back through.
        {"type": "chain", "points": [[-20, 3], [140, 3]], "one_sided": True},
        {"type": "chain", "points": [[140, -9], [-20, -9]], "one_sided": True},
        {"type": "box", "half_extents": [(grass_to - grass_from) / 2, 2.5],
         "center": [(grass_from + grass_to) / 2, lanes["grass"]], "sensor": True,
         "surface_grip": 0.6},
        {"type": "box", "half_extents": [0.5, 6], "center": [20, -3], "sensor": True},
    ]
    bodies = [{"name": "track", "type": "static", "shapes": track}]
    vehicles = []
    script = [{"step": 0, "throttle": 1}, {"step": brake_step, "brake": 1}]
    for name, y in lanes.items():
        bodies.append({"name": name, "position": [0, y],
                       "shapes": [{"type": "box", "half_extents": [length / 2, width / 2],
                                   "density": mass / (length * width), "friction": 0.3,
                                   "restitution": 0.25, "hit_events": True,
                                   "hit_speed_threshold": 2}]})
        vehicles.append({"body": name, "controls": script})
    return {"world": {"gravity": [0, 0], "dt": 1 / 60}, "bodies": bodies, "vehicles": vehicles}


def star():
    """The seed's concave star (demos/seeds/star.c: five tips at 2 m, inner corners at 0.8 m),
    one body of convex pieces by "decompose": true, dropped tilted onto a static heptagon of
    radius 3 with a flat top; it lands on one tip, rocks onto the other and rests on both. Its
    ten points and the heptagon's are rounded to 1e-6 m."""
    def around(radius, count, start, step):
        return [[round(radius(i) * math.cos(start + step * i), 6) + 0.0,
                 round(radius(i) * math.sin(start + step * i), 6) + 0.0] for i in range(count)]
    heptagon = around(lambda i: 3.0, 7, math.pi / 2 + math.pi / 7, 2 * math.pi / 7)
    outline = around(lambda i: 2.0 if i % 2 == 0 else 0.8, 10, 0.5 * math.pi, math.pi / 5)
    top = 3.0 * math.cos(math.pi / 7)
    bodies = [{"name": "heptagon", "type": "static",
               "shapes": [{"type": "polygon", "vertices": heptagon}]},
              {"name": "star", "position": [0, round(top + 2.618, 3)], "angle": 0.05,
               "shapes": [{"type": "polygon", "vertices": outline, "decompose": True}]}]
    return {"world": {"gravity": [0, -10], "dt": 1 / 60}, "bodies": bodies}


if __name__ == "__main__":
    write("ball_drop.json", ball_drop())
    write("box_stack.json", box_stack())
    write("pyramid.json", pyramid())
    write("billiards.json", billiards())
    write("arena.json", arena())
    write("joints.json", joints())
    write("capsules.json", capsules())
    write("racing_model.json", racing_model())
    write("star.json", star())
