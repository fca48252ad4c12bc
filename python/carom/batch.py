"""carom.Batch: many independent worlds stepped in one C call, their state stacked."""

import ctypes
import os

import numpy as np

from . import _native
from ._native import lib
from ._convert import set_body_velocities
from .errors import error_for
from .world import World


class Batch:
    """Many independent worlds, stepped together in one C call, optionally on several threads.

        batch = carom.Batch([scene_a, scene_b, ...], threads=2)
        batch.step(60)
        batch.positions          # (W, N, 2): world w, body row n, m

    scenes: scene paths, scene dicts (docs/cli.md) or World objects (which the batch then
    owns). threads: how many threads step() uses (default 1; None: os.cpu_count()). Each world
    is stepped by one thread from start to end, so the results are bit for bit those of
    stepping each world alone, whatever the thread count.

    Stacked state (positions, angles, rotations, linear_velocities, angular_velocities,
    state(), hashes()) are COPIES, made in one C call over every world; they need every world to
    have the same number of bodies (a ValueError says which differ otherwise). At most 128
    worlds exist at once in a process (CAROM_MAX_WORLDS).
    """

    def __init__(self, scenes, threads=1):
        self.worlds = []
        try:
            for scene in scenes:
                self.worlds.append(scene if isinstance(scene, World) else
                                   World.from_scene(scene))
        except BaseException:
            self.close()
            raise
        self.threads = threads

    @property
    def threads(self):
        return self._threads

    @threads.setter
    def threads(self, value):
        value = (os.cpu_count() or 1) if value is None else int(value)
        if value < 1:
            raise ValueError(f"threads is {value}: at least 1")
        self._threads = value

    def __len__(self):
        return len(self.worlds)

    def close(self):
        """Destroy every world now."""
        for world in self.worlds:
            world.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def step(self, n=1):
        """Advance every world n steps of its own dt, in one C call on self.threads threads.
        A refused step raises with the world's index and step and the engine's message; the
        other worlds still took their n steps."""
        n = int(n)
        if n < 0:
            raise ValueError(f"step: n is {n}: the number of steps must be >= 0")
        count = len(self.worlds)
        ids = (_native.WorldId * max(count, 1))(*[world._id for world in self.worlds])
        dts = (ctypes.c_double * max(count, 1))(*[world.dt for world in self.worlds])
        done = 0
        while done < n:
            # Worlds whose scene vehicles have control scripts take them as World.step does:
            # every world steps to the nearest next entry of any, in one call per stretch.
            stretch = min([n - done] + [world._follow_script() for world in self.worlds])
            failed_world, failed_step = ctypes.c_int(), ctypes.c_int()
            message = ctypes.create_string_buffer(1024)
            status = lib.carompy_step_worlds(ids, dts, count, stretch, self._threads,
                                             ctypes.byref(failed_world),
                                             ctypes.byref(failed_step), message, len(message))
            if status != 0:
                raise error_for(status, message.value.decode("utf-8", "replace"),
                                context=f"world {failed_world.value}, step "
                                        f"{done + failed_step.value + 1} of {n}")
            done += stretch

    def _body_ids(self):
        per_world = [world._ids() for world in self.worlds]
        counts = {len(ids) for ids in per_world}
        if len(counts) > 1:
            sizes = ", ".join(f"world {i}: {len(ids)}" for i, ids in enumerate(per_world))
            raise ValueError(f"stacked arrays need the same number of bodies in every world "
                             f"({sizes}); read world.state() of each instead")
        n = counts.pop() if counts else 0
        flat = (_native.BodyId * max(len(per_world) * n, 1))()
        for w, ids in enumerate(per_world):
            ctypes.memmove(ctypes.byref(flat, w * n * ctypes.sizeof(_native.BodyId)), ids,
                           n * ctypes.sizeof(_native.BodyId))
        return flat, n

    def state(self):
        """Every world's state stacked, in one C call: a dict of float64 arrays position
        (W, N, 2, m), rotation (W, N, 2, cos and sin), angle (W, N, rad), linear_velocity
        (W, N, 2, m/s), angular_velocity (W, N, rad/s). Copies."""
        flat, n = self._body_ids()
        w = len(self.worlds)
        arrays = {"position": np.empty((w, n, 2)), "rotation": np.empty((w, n, 2)),
                  "angle": np.empty((w, n)), "linear_velocity": np.empty((w, n, 2)),
                  "angular_velocity": np.empty((w, n))}
        pointers = [arrays[key].ctypes.data_as(_native.c_double_p) for key in
                    ("position", "rotation", "angle", "linear_velocity", "angular_velocity")]
        failed = ctypes.c_int()
        status = lib.carompy_get_body_states(flat, w * n, *pointers, ctypes.byref(failed))
        if status != 0:
            raise error_for(status, context=f"world {failed.value // max(n, 1)}")
        return arrays

    def set_velocities(self, linear=None, angular=None):
        """Set every body of every world's velocities in one C call (an action for each
        world): linear (W, N, 2) m/s and/or angular (W, N) rad/s, as World.set_velocities:
        zeros on static bodies, every value checked before anything changes."""
        flat, n = self._body_ids()
        w = len(self.worlds)
        flattened = []
        for name, value, shape in (("linear", linear, (w, n, 2)), ("angular", angular, (w, n))):
            if value is None:
                flattened.append(None)
                continue
            array = np.asarray(value, dtype=np.float64)
            if array.shape != shape:
                raise ValueError(f"{name} velocities must have shape {shape}, got {array.shape}")
            flattened.append(array.reshape((w * n,) + shape[2:]))
        set_body_velocities(flat, w * n, *flattened,
                            lambda row: f"world {row // max(n, 1)}, body row {row % max(n, 1)}")

    @property
    def positions(self):
        """(W, N, 2) copy: body origins (m)."""
        return self.state()["position"]

    @property
    def angles(self):
        """(W, N) copy: angles (rad)."""
        return self.state()["angle"]

    @property
    def rotations(self):
        """(W, N, 2) copy: rotations (cos, sin)."""
        return self.state()["rotation"]

    @property
    def linear_velocities(self):
        """(W, N, 2) copy: center-of-mass velocities (m/s)."""
        return self.state()["linear_velocity"]

    @property
    def angular_velocities(self):
        """(W, N) copy: angular velocities (rad/s)."""
        return self.state()["angular_velocity"]

    def hashes(self):
        """(W,) uint64: each world's state hash (World.hash)."""
        return np.array([world.hash() for world in self.worlds], dtype=np.uint64)
