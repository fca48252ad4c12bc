"""carom: a deterministic 2D rigid-body physics engine, from Python.

    import carom
    world = carom.World.from_scene("scenes/ball_drop.json")
    world.step(90)
    world.positions          # (N, 2) numpy array, m
    f"{world.hash():016x}"   # what `carom run scenes/ball_drop.json --steps 90 --hash` prints

- World: bodies, shapes, joints and vehicles made with keyword arguments, stepped with a fixed
  dt; state in bulk as numpy arrays; snapshots (save / World.restore); events and ray casts as
  numpy record arrays.
- Batch: many independent worlds stepped in one C call, on several threads, state stacked.
- sweep: a function mapped over parameter sets on Dask (a LocalCluster by default, any
  scheduler address for a cluster), each result with its parameters and final hash.

Units are SI: m, kg, s, rad, N, N·m; densities in kg/m². Results are bit-for-bit the same on
every machine carom supports, so a sweep run on any cluster reproduces on a laptop.
Every refusal of the C library raises a CaromError subclass carrying the library's message.
docs/python.md has the whole guide.
"""

from . import _native
from .batch import Batch
from .errors import (CaromError, InvalidIdError, InvalidPolygonError, NoMassError,
                     NotFiniteError, OutOfRangeError, SceneError, SnapshotError,
                     TooManyContactsError, TooManyWorldsError, WorldLockedError)
from .sweep import grid, sweep, write_csv
from .bodies import Body, Shape
from .joints import Joint, Vehicle
from .world import (CONTACT_DTYPE, HIT_DTYPE, JOINT_BREAK_DTYPE, RAY_HIT_DTYPE, SENSOR_DTYPE,
                    World)

__version__ = _native.lib.carom_version_string().decode()

__all__ = [
    "World", "Body", "Shape", "Joint", "Vehicle", "Batch", "sweep", "grid", "write_csv",
    "CaromError", "InvalidIdError", "WorldLockedError", "NotFiniteError", "OutOfRangeError",
    "InvalidPolygonError", "NoMassError", "TooManyWorldsError", "SnapshotError",
    "TooManyContactsError", "SceneError", "RAY_HIT_DTYPE", "CONTACT_DTYPE", "HIT_DTYPE",
    "SENSOR_DTYPE", "JOINT_BREAK_DTYPE",
]
