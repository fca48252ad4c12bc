"""carom.sweep: a function mapped over parameter sets, on Dask or in this process.

Every run builds its own world from the scene, so runs are independent and each result depends
only on its parameters: the same sweep gives the same hashes on 1, 2 or 200 workers, on any
mix of machines carom supports.
"""

import csv as _csv
import itertools
import logging
import os
import sys
import time

from .world import World


def grid(**axes):
    """Every combination of the given values, as a list of dicts, the last axis varying
    fastest: grid(grip=[0.8, 1.0], mass=[1000, 1500]) gives four parameter sets."""
    names = list(axes)
    return [dict(zip(names, values)) for values in itertools.product(*axes.values())]


def _scene_payload(scene):
    """What travels to the workers: the scene's bytes for a path (workers may not share this
    machine's files), the dict or callable as it is."""
    if callable(scene) or isinstance(scene, (dict, bytes)):
        return scene
    with open(os.fspath(scene), "rb") as file:
        return file.read()


def run_one(scene, run, steps, params):
    """One run of a sweep (this is what the workers execute): build the world, call run (or
    take steps), return params + figures + hash. Public so that a sweep's single case can be
    rerun and debugged alone."""
    made = scene(**params) if callable(scene) else scene
    world = made if isinstance(made, World) else World.from_scene(made)
    with world:
        if run is None:
            world.step(steps)
            figures = {}
        else:
            figures = run(world, **params) or {}
        if not isinstance(figures, dict):
            raise TypeError(f"sweep: run returned {type(figures).__name__}: it must return a "
                            "dict of figures (or None)")
        row = dict(params)
        for name, value in figures.items():
            if name in row:
                raise ValueError(f"sweep: run returned a figure named {name!r}, which is "
                                 "also a parameter: rename one")
            row[name] = value
        row["hash"] = world.hash_hex()
        row["steps"] = world.step_count
    return row


class _Progress:
    """A one-line progress bar on stderr: done/total, a bar, the elapsed time."""

    def __init__(self, total, enabled):
        self.total = total
        self.enabled = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.start = time.monotonic()
        self.done = 0

    def advance(self):
        self.done += 1
        if self.enabled:
            fraction = self.done / self.total if self.total else 1.0
            bar = "#" * int(30 * fraction)
            sys.stderr.write(f"\rsweep: {self.done}/{self.total} [{bar:<30}] "
                             f"{100 * fraction:3.0f}% {time.monotonic() - self.start:6.1f} s")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _connect(client, workers):
    """(client, what to close afterwards) for the client argument of sweep()."""
    from distributed import Client, LocalCluster

    if isinstance(client, Client):
        return client, []
    if isinstance(client, str):
        connected = Client(client)
        return connected, [connected]
    # silence_logs: the nanny's warnings about workers slow to exit at close (a busy machine)
    # say nothing about the sweep.
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                           processes=True, dashboard_address=None, silence_logs=logging.ERROR)
    connected = Client(cluster)
    return connected, [connected, cluster]


def sweep(scene, params, run=None, *, steps=60, client=None, workers=None, csv=None,
          progress=None):
    """Run a scene once per parameter set, in parallel on Dask, and return the results.

    scene: a scene file path, a scene dict (docs/cli.md), or a function taking the parameters
    as keywords and returning a scene dict or a World (to vary anything the scene format
    cannot say). A path is read here and its bytes sent to the workers.

    params: a list of dicts of parameters (grid() makes one), or a dict of lists, taken as a
    grid.

    run: a function run(world, **params) that runs the world and returns a dict of figures
    (numbers or strings), e.g. {"stop_distance": 41.2}. Without one, each world takes `steps`
    steps (default 60, as `carom run`).

    client: None (default) starts a dask.distributed LocalCluster of `workers` processes
    (default: one per core) for this sweep and closes it after; a scheduler address such as
    "tcp://10.0.0.5:8786" sends the sweep to that cluster (the one-line change from a laptop
    to a cluster); a distributed.Client is used as it is; "serial" runs here, one set after
    another, without Dask. Functions defined in a script are sent to the workers by value
    (cloudpickle); carom itself must be installed where the workers run. A script that uses
    the default LocalCluster needs `if __name__ == "__main__":` around its sweep (the workers
    are new processes that import it).

    Returns one dict per parameter set, in the order of params: the parameters, the figures,
    "hash" (the final state hash, 16 hex digits, as `carom run --hash`) and "steps" (the final
    step count). csv: a path to also write them there as CSV (write_csv). progress: show a progress
    bar on stderr (default: when stderr is a terminal).
    """
    if isinstance(params, dict):
        params = grid(**params)
    params = [dict(p) for p in params]
    payload = _scene_payload(scene)
    if client == "serial":
        bar = _Progress(len(params), progress)
        results = []
        for p in params:
            results.append(run_one(payload, run, steps, p))
            bar.advance()
    else:
        from distributed import as_completed

        connected, to_close = _connect(client, workers)
        futures = []
        try:
            bar = _Progress(len(params), progress)  # from here: not the cluster's start-up
            if not callable(payload):
                # Sent to every worker once, not with each of thousands of tasks.
                [payload] = connected.scatter([payload], broadcast=True)
            futures = [connected.submit(run_one, payload, run, steps, p, pure=False)
                       for p in params]
            for _ in as_completed(futures):
                bar.advance()
            results = connected.gather(futures)
        except BaseException:
            connected.cancel(futures)  # a failed run: the others are not waited for
            raise
        finally:
            for resource in to_close:
                resource.close()
    if csv is not None:
        write_csv(results, csv)
    return results


def write_csv(rows, path):
    """Write a list of dicts as CSV: a header of every key (in order of first appearance), one
    line per dict, floats in their shortest exact form (they read back to the same double)."""
    columns = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    with open(path, "w", newline="") as file:
        writer = _csv.DictWriter(file, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({key: repr(value) if isinstance(value, float) else value
                             for key, value in row.items()})
