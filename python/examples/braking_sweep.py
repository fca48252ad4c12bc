"""The racing car's braking distance from 30 m/s over a grid of tyre grip and car mass, swept on
Dask, written to CSV and plotted to PNG (docs/python.md shows the plot).

    python braking_sweep.py                         # a LocalCluster, one worker per core
    python braking_sweep.py --workers 2 --out results/
    python braking_sweep.py --scheduler tcp://10.0.0.5:8786   # a running Dask cluster

The car is carom's top-down vehicle (include/carom/vehicle.h, docs/racing.md): a 4.4 m x 1.8 m
chassis at full brake. Braking is friction-limited (like a car with ABS): the tyres hold at most
grip x m g, so the distance is about v^2 / (2 grip g) whatever the mass, shortened a little by
air drag (more for a light car) and rolling resistance. Where grip x m g exceeds the brakes'
max_brake_force (20,000 N) the brakes, not the tyres, set the limit, and heavy cars on grippy
tyres stop later: the plot shows both regimes.
"""

import argparse
import os

import carom

SPEED = 30.0  # m/s at the start of braking
GRAVITY = 9.81  # m/s², the vehicle def's tyre load gravity
LENGTH, WIDTH = 4.4, 1.8  # m


def car_scene(grip, mass):
    """A scene with one car body of the given mass (kg) on a plane seen from above (no
    gravity in the plane); grip goes to the vehicle in brake()."""
    return {
        "version": 1,
        "world": {"gravity": [0, 0], "dt": 1 / 60},
        "bodies": [{"name": "car", "linear_velocity": [SPEED, 0],
                    "shapes": [{"type": "box", "half_extents": [LENGTH / 2, WIDTH / 2],
                                "density": mass / (LENGTH * WIDTH), "friction": 0.5}]}],
    }


def brake(world, grip, mass):
    """Full brake until the car stops; the figures of the run."""
    car = world.body("car")
    vehicle = world.create_vehicle(car, grip=grip, gravity=GRAVITY)
    vehicle.set_input(brake=1.0)
    start_x = car.position[0]
    while car.linear_velocity[0] > 0.01:
        world.step()
    return {"distance_m": car.position[0] - start_x, "time_s": world.time,
            "friction_limit_m": SPEED ** 2 / (2 * grip * GRAVITY)}


def plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grips = sorted({row["grip"] for row in rows})
    masses = sorted({row["mass"] for row in rows})
    figure, axes = plt.subplots(figsize=(7, 4.5), dpi=100)
    for mass in masses:
        points = sorted((row["grip"], row["distance_m"]) for row in rows if row["mass"] == mass)
        axes.plot(*zip(*points), marker="o", markersize=3, label=f"{mass:.0f} kg")
    fine = [grips[0] + (grips[-1] - grips[0]) * i / 100 for i in range(101)]
    axes.plot(fine, [SPEED ** 2 / (2 * g * GRAVITY) for g in fine], "k--", linewidth=1,
              label="v² / (2 grip g)")
    axes.set_xlabel("tyre grip (peak friction coefficient)")
    axes.set_ylabel("braking distance from 30 m/s (m)")
    axes.set_title("carom vehicle: full brake from 30 m/s")
    axes.grid(True, alpha=0.3)
    axes.legend(title="car mass")
    figure.tight_layout()
    figure.savefig(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=None,
                        help="LocalCluster workers (default: one per core)")
    parser.add_argument("--scheduler", default=None,
                        help="a Dask scheduler address instead of a LocalCluster")
    parser.add_argument("--out", default=".", help="folder for braking.csv and braking.png")
    args = parser.parse_args()
    params = carom.grid(grip=[0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3],
                        mass=[800.0, 1200.0, 1600.0, 2000.0])
    os.makedirs(args.out, exist_ok=True)
    rows = carom.sweep(car_scene, params, run=brake, client=args.scheduler,
                       workers=args.workers, csv=os.path.join(args.out, "braking.csv"),
                       progress=True)
    plot(rows, os.path.join(args.out, "braking.png"))
    for row in rows[:3]:
        print(f"grip {row['grip']:.1f}, {row['mass']:.0f} kg: {row['distance_m']:.2f} m in "
              f"{row['time_s']:.2f} s (hash {row['hash']})")
    print(f"{len(rows)} runs: {os.path.join(args.out, 'braking.csv')}, "
          f"{os.path.join(args.out, 'braking.png')}")


if __name__ == "__main__":
    main()
