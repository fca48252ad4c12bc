"""Measure what docs/python.md reports: Batch's world-steps per second on 1 and 2 threads, and
a Dask sweep's speed-up from 1 to 2 workers.

    python throughput.py [--rounds 5]

Runs are interleaved (1 thread, 2 threads, 1, 2, ...) and the medians reported, with the
process CPU time beside the wall time, because the machines this was measured on are shared:
a busy machine slows every run, interleaving spreads that over both settings alike. The sweep
is timed from a running cluster (the cluster's start-up, a few seconds, is not in it).
"""

import argparse
import json
import pathlib
import statistics
import time

import carom

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"


def pyramid_variation(friction):
    """The benchmark pyramid (210 boxes) with another friction on every box, and sleep off,
    so that every step does the work of a step."""
    scene = json.loads((SCENES / "pyramid.json").read_text())
    scene["world"]["sleep"] = False
    for body in scene["bodies"]:
        for shape in body["shapes"]:
            shape["friction"] = friction
    return scene


def drop_variations(count):
    """ball_drop.json with the first ball at a different height in each world (4 bodies), and
    sleep off, so that every step does the work of a step."""
    scene = json.loads((SCENES / "ball_drop.json").read_text())
    scene["world"]["sleep"] = False
    worlds = []
    for i in range(count):
        varied = json.loads(json.dumps(scene))
        varied["bodies"][1]["position"] = [-2, 3 + 0.01 * i]
        worlds.append(varied)
    return worlds


def time_batch(scenes, steps, threads):
    with carom.Batch(scenes, threads=threads) as batch:
        wall, cpu = time.perf_counter(), time.process_time()
        batch.step(steps)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        hashes = list(batch.hashes())
    return wall, cpu, hashes


def batch_rows(name, scenes, steps, rounds):
    timings = {1: [], 2: []}
    hashes = {}
    for _ in range(rounds):
        for threads in (1, 2):
            wall, cpu, hashes[threads] = time_batch(scenes, steps, threads)
            timings[threads].append((wall, cpu))
    assert hashes[1] == hashes[2], "1 and 2 threads gave different hashes"
    world_steps = len(scenes) * steps
    for threads in (1, 2):
        wall = statistics.median(t[0] for t in timings[threads])
        cpu = statistics.median(t[1] for t in timings[threads])
        print(f"| {name} | {threads} | {world_steps / wall:,.0f} | {wall:.3f} s | {cpu:.3f} s |")
    speedup = (statistics.median(t[0] for t in timings[1]) /
               statistics.median(t[0] for t in timings[2]))
    print(f"|   | speed-up | {speedup:.2f}x | | |")


def settle(world, friction):
    world.step(600)
    return {"kinetic_energy_j": sum(body.kinetic_energy for body in world.bodies)}


def sweep_rows(rounds):
    from distributed import Client, LocalCluster

    params = carom.grid(friction=[0.3 + 0.05 * i for i in range(16)])
    clients = {}
    for workers in (1, 2):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        clients[workers] = (Client(cluster), cluster)
    timings = {1: [], 2: []}
    hashes = {}
    try:
        for _ in range(rounds):
            for workers in (1, 2):
                start = time.perf_counter()
                rows = carom.sweep(pyramid_variation, params, run=settle,
                                   client=clients[workers][0], progress=False)
                timings[workers].append(time.perf_counter() - start)
                hashes[workers] = [row["hash"] for row in rows]
    finally:
        for client, cluster in clients.values():
            client.close()
            cluster.close()
    assert hashes[1] == hashes[2], "1 and 2 workers gave different hashes"
    for workers in (1, 2):
        print(f"| {workers} | {statistics.median(timings[workers]):.2f} s | "
              f"{min(timings[workers]):.2f} s |")
    print(f"| speed-up | {statistics.median(timings[1]) / statistics.median(timings[2]):.2f}x | |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("| worlds | threads | world-steps/s | wall (median) | CPU (median) |")
    print("|---|---|---|---|---|")
    batch_rows("64 x ball_drop (4 bodies, no sleep), 2000 steps", drop_variations(64), 2000,
               args.rounds)
    batch_rows("8 x pyramid (210 boxes), 300 steps",
               [pyramid_variation(0.6) for _ in range(8)], 300, args.rounds)
    print()
    print("| workers | sweep of 16 pyramids x 600 steps (median) | fastest |")
    print("|---|---|---|")
    sweep_rows(args.rounds)


if __name__ == "__main__":
    main()
