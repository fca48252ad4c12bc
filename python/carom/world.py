"""carom.World: a world of bodies stepped with a fixed dt; its state, snapshots, events and
ray casts.

Units are SI throughout: metres, kilograms, seconds, radians; forces in N, torques in N·m,
densities in kg/m² (the world is 2D). +y is up, angles turn counter-clockwise.
"""

import ctypes
import json
import math
import os
import struct
import warnings

import numpy as np

from . import _native
from ._native import lib
from .errors import SceneError, SnapshotError, check, checked_call, error_for
from ._convert import (c_records, filter_of, id_keys, make_def, pairs_of, record_dtype,
                       set_body_velocities, vec2)
from .bodies import BODY_TYPES, Body, Shape
from .joints import JOINT_KINDS, JOINT_TYPE_NAMES, Joint, Vehicle

# The snapshot container of World.save(): the engine's snapshot (include/carom/snapshot.h) with
# what the engine does not keep: the step dt and the body names of a loaded scene.
_SNAPSHOT_MAGIC = b"CAROMPY\0"
_SNAPSHOT_VERSION = 1
_SNAPSHOT_HEADER = struct.Struct("<8sIId Q")  # magic, version, names length, dt, engine length

# numpy records for events and ray casts. Shapes are named by their key (index1 << 32 |
# generation: unique among the world's shapes); bodies by
# their row in the state arrays (World.bodies order), -1 when the body is gone. Shape.key is
# the same number.
RAY_HIT_DTYPE = np.dtype([("hit", "?"), ("shape", "<u8"), ("body", "<i4"),
                          ("point", "<f8", (2,)), ("normal", "<f8", (2,)),
                          ("fraction", "<f8")])
CONTACT_DTYPE = np.dtype([("shape_a", "<u8"), ("shape_b", "<u8"), ("body_a", "<i4"),
                          ("body_b", "<i4")])
HIT_DTYPE = np.dtype([("shape_a", "<u8"), ("shape_b", "<u8"), ("body_a", "<i4"),
                      ("body_b", "<i4"), ("point", "<f8", (2,)), ("normal", "<f8", (2,)),
                      ("approach_speed", "<f8")])
SENSOR_DTYPE = np.dtype([("sensor", "<u8"), ("visitor", "<u8"), ("sensor_body", "<i4"),
                         ("visitor_body", "<i4")])
JOINT_BREAK_DTYPE = np.dtype([("joint", "<u8"), ("type", "U9"), ("force", "<f8", (2,)),
                              ("torque", "<f8")])


def _read_scene_text(path_or_dict):
    """(bytes, file name for messages) of a scene given as a path, a dict, or JSON text."""
    if isinstance(path_or_dict, dict):
        return json.dumps(path_or_dict, allow_nan=True).encode(), "<dict>"
    if isinstance(path_or_dict, (bytes, bytearray)):
        return bytes(path_or_dict), "<bytes>"
    path = os.fspath(path_or_dict)
    try:
        with open(path, "rb") as file:
            return file.read(), path
    except OSError as error:
        raise SceneError([f"{path}: cannot read the file: {error.strerror}"]) from None


class _LoadedScene:
    """A scene read and checked by the command line's loader (tools/scene.c); frees itself."""

    def __init__(self, path_or_dict):
        self.handle = None  # for __del__ when the file cannot be read
        data, name = _read_scene_text(path_or_dict)
        self.handle = lib.carompy_scene_load(data, len(data), name.encode())
        report = lib.carompy_scene_report(self.handle).decode("utf-8", "replace")
        self.lines = [line for line in report.split("\n") if line]
        if not lib.carompy_scene_ok(self.handle):
            lines = self.lines
            self.close()
            raise SceneError(lines)
        for line in self.lines:
            warnings.warn(line, stacklevel=4)

    def close(self):
        if self.handle:
            lib.carompy_scene_free(self.handle)
            self.handle = None

    def __del__(self):
        self.close()


class World:
    """A carom world: bodies, their shapes and joints, stepped with a fixed dt.

    Create it with keyword arguments, the fields of carom_world_def (include/carom/types.h)::

        world = carom.World(gravity=(0, -10), dt=1/60, substeps=4)

    gravity: m/s², default (0, -10). dt: the step (s) that step() takes, default 1/60.
    substeps: solver substeps per step, 1..64, default 4. Others, with their defaults:
    cell_size (m, 0: chosen at the first step), restitution_threshold (1 m/s),
    contact_hertz (35 Hz), contact_damping_ratio (10), contact_push_max_velocity (3 m/s),
    contact_slop (0 m), enable_continuous (True), enable_sleep (True),
    sleep_linear_threshold (0.05 m/s), sleep_angular_threshold (0 rad/s: no spin limit),
    time_to_sleep (0.5 s), speculative_distance (0.02 m), contact_recycle_distance (0.01 m),
    joint_hertz (60 Hz), joint_damping_ratio (2), max_contacts (1,000,000).

    Or load a scene file of the `carom` command line (docs/cli.md): World.from_scene(path or
    dict), or world.load_scene(...). Bodies come in the file's order and world.hash() equals
    `carom run --hash` after the same number of steps. The scene's vehicles are in
    world.vehicles by body name, and step() follows their control scripts as `carom run` does.

    State in bulk (positions, angles, rotations, linear_velocities, angular_velocities,
    state()) are numpy arrays with one row per body in world.bodies order (ascending body id:
    the order of a scene file and of the hash). They are COPIES, made in one C call: the engine
    keeps bodies in its own layout, which moves as bodies come and go, so a view into it could
    dangle. A copy never changes after it was made; read again after stepping.

    At most 128 worlds exist at once in one process (CAROM_MAX_WORLDS); close() or `with`
    frees one at once, otherwise it is freed when the World object is garbage collected.
    """

    def __init__(self, *, dt=1.0 / 60.0, **world_def):
        self._check_dt(dt)
        definition = make_def("carom_world_def", world_def, "World")
        world_id = lib.carom_create_world(definition)
        if world_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context="World")
        self._adopt(world_id, dt)

    def _adopt(self, world_id, dt, names=None, joints=None, vehicles=None, script=None):
        self._id = world_id
        self.dt = self._check_dt(dt)
        self._body_ids = None  # ctypes array of the live bodies, refreshed on change
        self._names = dict(names or {})  # (index1, generation) -> name
        self.joints = dict(joints or {})  # name -> Joint, for joints loaded from a scene
        self.vehicles = dict(vehicles or {})  # body name -> Vehicle, for a scene's vehicles
        # The loaded scene, kept while its vehicles have control scripts for step() to follow.
        self._script = script

    @staticmethod
    def _check_dt(dt):
        dt = float(dt)
        if not math.isfinite(dt) or dt <= 0.0:
            raise error_for(4 if math.isfinite(dt) else 3,
                            f"dt is {dt}: the step must be a finite number of seconds > 0")
        return dt

    # ---- lifetime --------------------------------------------------------------------------

    def close(self):
        """Destroy the C world now (its bodies, shapes and joints with it). Idempotent."""
        if getattr(self, "_script", None) is not None:
            self._script.close()
            self._script = None
        if getattr(self, "_id", None) is not None and self._id.index1 != 0:
            lib.carom_destroy_world(self._id)
            self._id = _native.WorldId()
            self._body_ids = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def valid(self):
        """True until close() (or the world was otherwise destroyed)."""
        return bool(lib.carom_world_is_valid(self._id))

    # ---- scenes ----------------------------------------------------------------------------

    @classmethod
    def from_scene(cls, path_or_dict):
        """A new world from a scene: a path to a JSON scene file (docs/cli.md), the scene as a
        dict, or its JSON text as bytes. Raises SceneError with every problem the loader found
        (the lines `carom run` prints); warnings (unknown keys) become Python warnings."""
        world = cls.__new__(cls)
        world._id = _native.WorldId()
        world.load_scene(path_or_dict)
        return world

    def load_scene(self, path_or_dict):
        """Replace this world with the scene's (see from_scene): its world settings, its dt,
        its bodies in the file's order, its joints (in world.joints by name), its vehicles (in
        world.vehicles by their body's name), whose control scripts step() follows, counting
        steps from the scene's state (world.step_count). On a refused scene nothing changes."""
        scene = _LoadedScene(path_or_dict)
        script = None
        try:
            world_id = _native.WorldId()
            status = lib.carompy_scene_build(scene.handle, ctypes.byref(world_id))
            check(status, context="building the scene's world")
            names = {}
            for i in range(lib.carompy_scene_body_count(scene.handle)):
                name = lib.carompy_scene_body_name(scene.handle, i)
                if name is not None:
                    names[lib.carompy_scene_body_id(scene.handle, i).key()] = name.decode()
            joints = {}
            for i in range(lib.carompy_scene_joint_count(scene.handle)):
                name = lib.carompy_scene_joint_name(scene.handle, i)
                joint = Joint(self, lib.carompy_scene_joint_id(scene.handle, i))
                joints[name.decode() if name is not None else f"#{i}"] = joint
            vehicles = {}
            for i in range(lib.carompy_scene_vehicle_count(scene.handle)):
                body = lib.carompy_scene_vehicle_body(scene.handle, i)
                name = lib.carompy_scene_body_name(scene.handle, body).decode()
                vehicles[name] = Vehicle(self, lib.carompy_scene_vehicle_id(scene.handle, i))
            dt = lib.carompy_scene_dt(scene.handle)
            if lib.carompy_scene_next_control_step(scene.handle, 0) >= 0:
                script = scene
        finally:
            if script is None:
                scene.close()
        self.close()
        self._adopt(world_id, dt, names, joints, vehicles, script)

    # ---- stepping and settings -------------------------------------------------------------

    def step(self, n=1):
        """Advance n steps of self.dt seconds each, in one C call, or one per stretch between
        the control script's entries when a scene's vehicles have one. Raises (with the
        engine's message and the failing step) if a step is refused; the steps before it stay
        taken."""
        n = int(n)
        if n < 0:
            raise ValueError(f"step: n is {n}: the number of steps must be >= 0")
        done = 0
        while done < n:
            stretch = min(n - done, self._follow_script())
            failed_world, failed_step = ctypes.c_int(), ctypes.c_int()
            message = ctypes.create_string_buffer(1024)
            status = lib.carompy_step_worlds(ctypes.byref(self._id), ctypes.byref(
                ctypes.c_double(self.dt)), 1, stretch, 1, ctypes.byref(failed_world),
                ctypes.byref(failed_step), message, len(message))
            if status != 0:
                raise error_for(status, message.value.decode("utf-8", "replace"),
                                context=f"step {done + failed_step.value + 1} of {n}")
            done += stretch

    def _follow_script(self):
        """Before a step: set the inputs the vehicles' control scripts give for this step
        (world.step_count steps taken since the scene's state), as `carom run` does. Returns
        how many steps may follow before the next entry (a large number when none is left)."""
        if self._script is None:
            return 1 << 62
        taken = self.step_count
        check(lib.carompy_scene_apply_controls(self._script.handle, taken),
              context="the vehicles' control script")
        upcoming = lib.carompy_scene_next_control_step(self._script.handle, taken + 1)
        return upcoming - taken if upcoming >= 0 else 1 << 62

    @property
    def gravity(self):
        """Gravity (m/s²) as an (x, y) tuple; settable."""
        g = checked_call(lib.carom_world_get_gravity, self._id)
        return (g.x, g.y)

    @gravity.setter
    def gravity(self, value):
        check(lib.carom_world_set_gravity(self._id, vec2(value, "gravity")))

    @property
    def substeps(self):
        """Solver substeps per step, 1..64; settable."""
        return checked_call(lib.carom_world_get_substeps, self._id)

    @substeps.setter
    def substeps(self, value):
        check(lib.carom_world_set_substeps(self._id, int(value)))

    @property
    def counters(self):
        """A dict of the world's counters: body_count, shape_count, contact_count,
        touching_count, step_count, awake_body_count, sleeping_island_count."""
        c = checked_call(lib.carom_world_get_counters, self._id)
        return {name: getattr(c, name) for name, _ in c._fields_}

    @property
    def step_count(self):
        """Steps taken since the world was created (or since the scene's state)."""
        return self.counters["step_count"]

    @property
    def time(self):
        """step_count × dt (s)."""
        return self.step_count * self.dt

    def hash(self):
        """The state hash (an int): carom_world_hash, FNV-1a 64 over every body's pose and
        velocities in id order. For a scene loaded from a file, f"{world.hash():016x}" is what
        `carom run --hash` prints after the same steps."""
        value = checked_call(lib.carom_world_hash, self._id)
        return int(value)

    def hash_hex(self):
        """hash() as the 16 lowercase hex digits `carom run --hash` prints."""
        return f"{self.hash():016x}"

    # ---- bodies ----------------------------------------------------------------------------

    def _ids(self):
        if self._body_ids is None:
            count = ctypes.c_int()
            check(lib.carom_world_get_body_ids(self._id, None, 0, ctypes.byref(count)))
            ids = (_native.BodyId * count.value)()
            check(lib.carom_world_get_body_ids(self._id, ids, count.value, ctypes.byref(count)))
            self._body_ids = ids
            self._rows = {ids[i].key(): i for i in range(len(ids))}
        return self._body_ids

    def _body_changed(self):
        self._body_ids = None

    @property
    def bodies(self):
        """Every live body, static ones too, in ascending id order: the rows of the state
        arrays."""
        return [Body(self, body_id) for body_id in self._ids()]

    def __len__(self):
        return len(self._ids())

    def body(self, key):
        """A body by its name (scenes) or its row (an int)."""
        ids = self._ids()
        if isinstance(key, str):
            for body_id in ids:
                if self._names.get(body_id.key()) == key:
                    return Body(self, body_id)
            raise KeyError(f"no body is named {key!r}")
        return Body(self, ids[key])

    def row_of(self, body):
        """The row of a Body (or of a carom body id) in the state arrays; -1 if it is gone."""
        self._ids()
        body_id = body._id if isinstance(body, Body) else body
        return self._rows.get(body_id.key(), -1)

    @property
    def names(self):
        """Each body's name in row order (None for an unnamed body or one made from Python)."""
        return [self._names.get(body_id.key()) for body_id in self._ids()]

    def create_body(self, *, type="dynamic", name=None, **body_def):
        """A new body. type: "static", "kinematic" or "dynamic" (default). Keywords, the
        fields of carom_body_def: position (m, default (0, 0)), angle (rad, 0),
        linear_velocity (m/s of the center of mass, (0, 0)), angular_velocity (rad/s, 0),
        linear_damping and angular_damping (1/s, 0), gravity_scale (1), bullet (False),
        enable_sleep (True), awake (True). name: a label for world.body(name). Add shapes with
        body.add_circle / add_box / add_polygon / add_segment / add_chain."""
        if type not in BODY_TYPES:
            raise ValueError(f"body type {type!r}: use 'static', 'kinematic' or 'dynamic'")
        if "type" in body_def:
            raise TypeError("create_body: give the type as a name: type='dynamic'")
        definition = make_def("carom_body_def", dict(body_def, type=BODY_TYPES[type]),
                              "create_body")
        body_id = lib.carom_create_body(self._id, definition)
        if body_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context="create_body")
        self._body_changed()
        if name is not None:
            self._names[body_id.key()] = str(name)
        return Body(self, body_id)

    # ---- state in bulk ---------------------------------------------------------------------

    def _states(self, position=False, rotation=False, angle=False, linear=False,
                angular=False, out=None):
        ids = self._ids()
        n = len(ids)
        out = dict(out or {})

        def buffer(flag, key, shape):
            if not flag:
                return None, None
            array = out.get(key)
            if array is None:
                array = np.empty(shape, dtype=np.float64)
            elif array.shape != shape or array.dtype != np.float64 or not \
                    array.flags.c_contiguous:
                raise ValueError(f"out['{key}'] must be a C-contiguous float64 array of shape "
                                 f"{shape}, got {array.dtype} {array.shape}")
            return array, array.ctypes.data_as(_native.c_double_p)

        arrays = {}
        pointers = []
        for flag, key, shape in ((position, "position", (n, 2)), (rotation, "rotation", (n, 2)),
                                 (angle, "angle", (n,)), (linear, "linear_velocity", (n, 2)),
                                 (angular, "angular_velocity", (n,))):
            array, pointer = buffer(flag, key, shape)
            if array is not None:
                arrays[key] = array
            pointers.append(pointer)
        failed = ctypes.c_int()
        check(lib.carompy_get_body_states(ids, n, *pointers, ctypes.byref(failed)),
              context="reading body states")
        return arrays

    @property
    def positions(self):
        """(N, 2) float64 copy: every body's origin (m), world frame."""
        return self._states(position=True)["position"]

    @property
    def rotations(self):
        """(N, 2) float64 copy: every body's rotation as (cos, sin), the engine's own
        representation, exact."""
        return self._states(rotation=True)["rotation"]

    @property
    def angles(self):
        """(N,) float64 copy: every body's angle (rad, in [-pi, pi])."""
        return self._states(angle=True)["angle"]

    @property
    def linear_velocities(self):
        """(N, 2) float64 copy: every body's center-of-mass velocity (m/s)."""
        return self._states(linear=True)["linear_velocity"]

    @property
    def angular_velocities(self):
        """(N,) float64 copy: every body's angular velocity (rad/s, counter-clockwise)."""
        return self._states(angular=True)["angular_velocity"]

    def state(self, out=None):
        """Every body's state in one C call: a dict of float64 arrays position (N, 2, m),
        rotation (N, 2, cos and sin), angle (N, rad), linear_velocity (N, 2, m/s),
        angular_velocity (N, rad/s). Copies; give out=, a dict of such arrays from an earlier
        call, to fill them in place instead of allocating (for a loop that reads every step)."""
        return self._states(True, True, True, True, True, out=out)

    def set_velocities(self, linear=None, angular=None):
        """Set every body's velocities in one C call: linear (N, 2) m/s of the centers of
        mass and/or angular (N,) rad/s, rows as world.bodies. Static bodies must be given zeros
        (they cannot move). Every value is checked before anything changes: NaN or infinity
        raises NotFiniteError, a magnitude above 1e12 or a velocity on a static body
        OutOfRangeError, naming the row. Bodies given a velocity are woken."""
        ids = self._ids()
        set_body_velocities(ids, len(ids), linear, angular, lambda row: f"body row {row}")

    # ---- snapshots -------------------------------------------------------------------------

    def save(self):
        """The whole world as bytes: the engine's snapshot (scene and state parts,
        include/carom/snapshot.h, portable across machines) wrapped with the dt and the body
        names. World.restore(bytes) continues it bit for bit."""
        size = ctypes.c_size_t()
        check(lib.carom_world_save(self._id, 3, None, 0, ctypes.byref(size)), context="save")
        engine = ctypes.create_string_buffer(size.value)
        check(lib.carom_world_save(self._id, 3, engine, size.value, ctypes.byref(size)),
              context="save")
        names = json.dumps([[key[0], key[1], name] for key, name in self._names.items()]).encode()
        header = _SNAPSHOT_HEADER.pack(_SNAPSHOT_MAGIC, _SNAPSHOT_VERSION, len(names), self.dt,
                                       size.value)
        return header + names + engine.raw[:size.value]

    @staticmethod
    def _unpack_snapshot(data):
        data = bytes(data)
        if len(data) < _SNAPSHOT_HEADER.size or not data.startswith(_SNAPSHOT_MAGIC):
            raise SnapshotError("not a carom Python snapshot: it does not start with "
                                "CAROMPY (World.save() writes one)", 13)
        magic, version, names_length, dt, engine_length = _SNAPSHOT_HEADER.unpack_from(data)
        if version != _SNAPSHOT_VERSION:
            raise SnapshotError(f"Python snapshot version {version}; this package reads "
                                f"version {_SNAPSHOT_VERSION}", 14)
        start = _SNAPSHOT_HEADER.size
        if start + names_length + engine_length != len(data):
            raise SnapshotError(f"truncated or corrupt snapshot: {len(data)} bytes, the header "
                                f"says {start + names_length + engine_length}", 13)
        try:
            names = {(entry[0], entry[1]): entry[2]
                     for entry in json.loads(data[start:start + names_length])}
        except (ValueError, TypeError, IndexError):
            raise SnapshotError("corrupt snapshot: its body names are not readable", 13) \
                from None
        return dt, names, data[start + names_length:]

    @classmethod
    def restore(cls, data):
        """A new world from World.save() bytes: stepping it gives exactly the bits the saved
        world gave from that point. Corrupt bytes raise SnapshotError with the engine's
        message."""
        dt, names, engine = cls._unpack_snapshot(data)
        world_id = lib.carom_create_world_from_snapshot(engine, len(engine))
        if world_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context="restore")
        world = cls.__new__(cls)
        world._id = _native.WorldId()
        world._adopt(world_id, dt)
        # Restored bodies keep their index and generation; the world part of their ids is new.
        world._names = names
        return world

    def rollback(self, data):
        """Restore World.save() bytes into this world (rollback): bodies created since are
        destroyed, destroyed ones come back under their old ids. On error nothing changes."""
        dt, names, engine = self._unpack_snapshot(data)
        check(lib.carom_world_restore(self._id, engine, len(engine)), context="rollback")
        self.dt = dt
        self._names = names
        self._body_changed()

    # ---- events ----------------------------------------------------------------------------

    def _body_rows_of_shapes(self, shape_ids):
        """The body row of each shape of a structured array of carom_shape_id, -1 for a shape
        (or body) destroyed since. One C call and a search over the sorted body ids."""
        shapes = np.ascontiguousarray(shape_ids)
        count = len(shapes)
        bodies = np.zeros(count, dtype=np.dtype(_native.BodyId))
        if count:
            lib.carompy_shape_bodies(shapes.ctypes.data_as(ctypes.POINTER(_native.ShapeId)),
                                     count,
                                     bodies.ctypes.data_as(ctypes.POINTER(_native.BodyId)))
        world_ids = c_records(self._ids(), len(self._ids()), np.dtype(_native.BodyId))
        if len(world_ids) == 0:
            return np.full(count, -1, dtype=np.int32)
        # Rows are in ascending id order, so index1 is sorted.
        rows = np.minimum(np.searchsorted(world_ids["index1"], bodies["index1"]),
                          len(world_ids) - 1)
        found = ((bodies["index1"] != 0) & (world_ids["index1"][rows] == bodies["index1"]) &
                 (world_ids["generation"][rows] == bodies["generation"]))
        return np.where(found, rows, -1).astype(np.int32)

    def _shape_pairs(self, events, count, first, second, dtype):
        """Records of dtype with the shape keys and body rows of fields first and second."""
        records = np.zeros(count, dtype=dtype)
        names = dtype.names
        records[names[0]] = id_keys(events[first])
        records[names[1]] = id_keys(events[second])
        records[names[2]] = self._body_rows_of_shapes(events[first])
        records[names[3]] = self._body_rows_of_shapes(events[second])
        return records

    def contact_events(self):
        """The contact events of the last step, as numpy record arrays in a dict:
        begin and end (fields shape_a, shape_b: shape keys; body_a, body_b: rows, -1 for a body
        destroyed since) and hit (also point (m), normal (from A to B), approach_speed (m/s)).
        Hit events need enable_hit_events=True on a shape. Built without a Python loop."""
        events = checked_call(lib.carom_world_get_contact_events, self._id)
        result = {}
        for kind, c_name, dtype in (("begin", "carom_contact_begin_event", CONTACT_DTYPE),
                                    ("end", "carom_contact_end_event", CONTACT_DTYPE),
                                    ("hit", "carom_contact_hit_event", HIT_DTYPE)):
            count = getattr(events, f"{kind}_count")
            raw = c_records(getattr(events, f"{kind}_events"), count, record_dtype(c_name))
            result[kind] = self._shape_pairs(raw, count, "shape_a", "shape_b", dtype)
        hits = c_records(events.hit_events, events.hit_count,
                         record_dtype("carom_contact_hit_event"))
        result["hit"]["point"] = pairs_of(hits["point"])
        result["hit"]["normal"] = pairs_of(hits["normal"])
        result["hit"]["approach_speed"] = hits["approach_speed"]
        return result

    def sensor_events(self):
        """Sensor events of the last step: {"begin": ..., "end": ...} record arrays with fields
        sensor, visitor (shape keys), sensor_body, visitor_body (rows)."""
        events = checked_call(lib.carom_world_get_sensor_events, self._id)
        result = {}
        for kind in ("begin", "end"):
            count = getattr(events, f"{kind}_count")
            raw = c_records(getattr(events, f"{kind}_events"), count,
                            record_dtype("carom_sensor_event"))
            result[kind] = self._shape_pairs(raw, count, "sensor", "visitor", SENSOR_DTYPE)
        return result

    def joint_events(self):
        """Joints that broke in the last step: a record array with fields joint (its key),
        type (kind name), force (N, on body B, world frame), torque (N·m)."""
        events = checked_call(lib.carom_world_get_joint_events, self._id)
        raw = c_records(events.break_events, events.break_count,
                        record_dtype("carom_joint_break_event"))
        records = np.zeros(events.break_count, dtype=JOINT_BREAK_DTYPE)
        records["joint"] = id_keys(raw["joint"])
        records["type"] = [JOINT_TYPE_NAMES.get(int(code), "?") for code in raw["type"]]
        records["force"] = pairs_of(raw["force"])
        records["torque"] = raw["torque"]
        return records

    # ---- ray casts -------------------------------------------------------------------------

    def _ray_records(self, results, count):
        raw = c_records(results, count, record_dtype("carom_ray_result"))
        records = np.zeros(count, dtype=RAY_HIT_DTYPE)
        hit = raw["hit"] != 0
        records["hit"] = hit
        records["shape"] = np.where(hit, id_keys(raw["shape"]), 0)
        records["body"] = np.where(hit, self._body_rows_of_shapes(raw["shape"]), -1)
        records["point"] = pairs_of(raw["point"])
        records["normal"] = pairs_of(raw["normal"])
        records["fraction"] = np.where(hit, raw["fraction"], 1.0)
        return records

    def cast_ray(self, origin, translation, *, all=False, filter=None):
        """Cast a ray from origin (m) along translation (m), world frame. Returns a record
        array (RAY_HIT_DTYPE: hit, shape key, body row, point (m), normal facing the origin,
        fraction of the translation): the closest hit (one record, hit False when nothing was
        hit), or with all=True every hit in order of fraction. filter: a dict of category,
        mask, group (default: every shape). Sensors are passed through. Queries see the
        world as of its last step: with the default cell_size 0 the broad phase's grid is
        only made at the first step, and a world that has not stepped finds nothing."""
        origin_v, translation_v = vec2(origin, "origin"), vec2(translation, "translation")
        if not all:
            return self.cast_rays([origin], [translation], filter=filter)
        capacity = 16
        while True:
            results = ctypes.create_string_buffer(capacity * _native.sizeof("carom_ray_result"))
            count = ctypes.c_int()
            check(lib.carompy_cast_ray_all(self._id, origin_v, translation_v, filter_of(filter),
                                           results, capacity, ctypes.byref(count)),
                  context="cast_ray")
            if count.value <= capacity:
                return self._ray_records(results, count.value)
            capacity = count.value

    def cast_rays(self, origins, translations, *, filter=None):
        """The closest hit of each of K rays in one C call (a lidar, many agents' sight
        lines): origins and translations (K, 2) arrays (m). Returns K records (see cast_ray)."""
        origins = np.ascontiguousarray(origins, dtype=np.float64).reshape(-1, 2)
        translations = np.ascontiguousarray(translations, dtype=np.float64).reshape(-1, 2)
        if origins.shape != translations.shape:
            raise ValueError(f"cast_rays: {len(origins)} origins but {len(translations)} "
                             "translations")
        count = len(origins)
        results = ctypes.create_string_buffer(max(count, 1) * _native.sizeof("carom_ray_result"))
        failed = ctypes.c_int()
        check(lib.carompy_cast_rays_closest(
            self._id, origins.ctypes.data_as(_native.c_double_p),
            translations.ctypes.data_as(_native.c_double_p), count, filter_of(filter), results,
            ctypes.byref(failed)), context="cast_rays")
        return self._ray_records(results, count)

    # ---- shape casts and explosions (issue 16) ---------------------------------------------

    @staticmethod
    def _query_shape(shape, what="cast_shape"):
        """(kind, points, radius) for carompy_cast_shape and carompy_overlap_shape from a
        scene-style shape dict."""
        if not isinstance(shape, dict) or "type" not in shape:
            raise TypeError(f"{what}: the shape must be a dict with a 'type', got {shape!r}")
        kind = shape["type"]
        known = {"circle": {"radius", "center"}, "box": {"half_extents", "center", "angle",
                                                         "radius"},
                 "polygon": {"vertices", "radius"}, "capsule": {"center1", "center2", "radius"}}
        if kind not in known:
            raise TypeError(f"{what}: shape type {kind!r}: use one of {sorted(known)}")
        unknown = set(shape) - known[kind] - {"type"}
        if unknown:
            raise TypeError(f"{what}: unknown key(s) {sorted(unknown)} for a {kind}; valid: "
                            f"{sorted(known[kind])}")
        radius = float(shape.get("radius", 0.0))
        if kind == "circle":
            return 0, [vec2(shape.get("center", (0, 0)), "circle center")], radius
        if kind == "capsule":
            return 2, [vec2(shape["center1"], "capsule center1"),
                       vec2(shape["center2"], "capsule center2")], radius
        if kind == "polygon":
            return 1, [vec2(v, "polygon vertex") for v in shape["vertices"]], radius
        hx, hy = (float(v) for v in shape["half_extents"])
        center = vec2(shape.get("center", (0, 0)), "box center")
        c, s = math.cos(float(shape.get("angle", 0.0))), math.sin(float(shape.get("angle", 0.0)))
        corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        return 1, [_native.Vec2(center.x + c * x - s * y, center.y + s * x + c * y)
                   for x, y in corners], radius

    def cast_shape(self, shape, translation, *, position=(0.0, 0.0), angle=0.0, all=False,
                   filter=None):
        """Sweep a shape from position (m), turned by angle (rad), along translation (m),
        world frame, without turning (carom_world_cast_shape). shape is a dict in the scene
        file's form: {"type": "circle", "radius": r, "center": [x, y]}, {"type": "box",
        "half_extents": [hx, hy], "center", "angle", "radius"}, {"type": "polygon",
        "vertices": [...], "radius"} or {"type": "capsule", "center1", "center2", "radius"}
        (center, angle and radius optional; radius rounds a box or polygon). Returns
        RAY_HIT_DTYPE records as cast_ray does: the closest hit, or with all=True every hit in
        order of fraction then shape; point is where the shapes touch and normal the hit
        shape's, facing the cast shape. A shape overlapping at the start is hit at fraction 0.
        Sensors are passed through; filter as for cast_ray."""
        kind, points, radius = self._query_shape(shape)
        flat = np.array([[p.x, p.y] for p in points], dtype=np.float64).reshape(-1)
        position_v, translation_v = vec2(position, "position"), vec2(translation, "translation")
        capacity = 16 if all else 1
        while True:
            results = ctypes.create_string_buffer(capacity * _native.sizeof("carom_ray_result"))
            count = ctypes.c_int()
            check(lib.carompy_cast_shape(
                self._id, kind, flat.ctypes.data_as(_native.c_double_p), len(points), radius,
                position_v.x, position_v.y, float(angle), translation_v, filter_of(filter),
                int(bool(all)), results, capacity, ctypes.byref(count)), context="cast_shape")
            if count.value <= capacity:
                break
            capacity = count.value
        if not all and count.value == 0:
            records = np.zeros(1, dtype=RAY_HIT_DTYPE)
            records["body"] = -1
            records["fraction"] = 1.0
            return records
        return self._ray_records(results, count.value)

    def _overlapping(self, query, what):
        """The Shape list of an overlap query: query(ids, capacity, count) fills ids."""
        capacity = 16
        while True:
            ids = (_native.ShapeId * capacity)()
            count = ctypes.c_int()
            check(query(ids, capacity, ctypes.byref(count)), context=what)
            if count.value <= capacity:
                return [Shape(self, ids[i]) for i in range(count.value)]
            capacity = count.value

    def overlap_shape(self, shape, *, position=(0.0, 0.0), angle=0.0, filter=None):
        """The shapes that overlap or touch a shape placed at position (m), turned by angle
        (rad), in shape-id order (carom_world_overlap_shape). shape is a dict as cast_shape
        takes. Sensors are reported; filter as for cast_ray."""
        kind, points, radius = self._query_shape(shape, "overlap_shape")
        flat = np.array([[p.x, p.y] for p in points], dtype=np.float64).reshape(-1)
        position_v = vec2(position, "position")
        return self._overlapping(
            lambda ids, capacity, count: lib.carompy_overlap_shape(
                self._id, kind, flat.ctypes.data_as(_native.c_double_p), len(points), radius,
                position_v.x, position_v.y, float(angle), filter_of(filter), ids, capacity,
                count),
            "overlap_shape")

    def overlap_aabb(self, lower, upper, *, filter=None):
        """The shapes whose bounding box overlaps the box from lower to upper (m, world
        frame), in shape-id order (carom_world_overlap_aabb)."""
        lower_v, upper_v = vec2(lower, "lower"), vec2(upper, "upper")
        return self._overlapping(
            lambda ids, capacity, count: lib.carompy_overlap_aabb(
                self._id, lower_v, upper_v, filter_of(filter), ids, capacity, count),
            "overlap_aabb")

    def overlap_point(self, point, *, filter=None):
        """The shapes containing point (m, world frame), in shape-id order
        (carom_world_overlap_point); segments and chains have no inside."""
        point_v = vec2(point, "point")
        return self._overlapping(
            lambda ids, capacity, count: lib.carompy_overlap_point(
                self._id, point_v, filter_of(filter), ids, capacity, count),
            "overlap_point")

    def explode(self, position, *, radius=1.0, falloff=0.0, impulse_per_length=1.0,
                mask=0xFFFFFFFFFFFFFFFF):
        """An impulse on every dynamic shape within radius + falloff of position (m)
        (carom_world_explode): along the line from position to the shape's closest point,
        impulse_per_length (N·s/m) times the shape's width across that line, at full strength
        within radius and falling linearly to nothing over falloff; only shapes whose category
        meets mask. Static and kinematic bodies and sensors are untouched; pushed sleepers
        wake."""
        position_v = vec2(position, "explosion position")
        check(lib.carompy_explode(self._id, position_v.x, position_v.y, float(radius),
                                  float(falloff), float(impulse_per_length), int(mask)),
              context="explode")

    # ---- joints and vehicles ---------------------------------------------------------------

    def create_joint(self, kind, body_a, body_b, **fields):
        """A joint between body_a and body_b (include/carom/joint.h). kind: "revolute",
        "prismatic", "distance", "weld", "wheel", "motor" or "mouse" (one body: pass None as
        body_a). Keywords are the fields of the kind's C def, in world coordinates at creation
        (m, rad, Hz, N, N·m): e.g. revolute anchor, enable_limit, lower_angle, upper_angle,
        enable_motor, motor_speed (rad/s), max_motor_torque (N·m), enable_spring, hertz,
        damping_ratio; distance anchor_a, anchor_b, length (m); every kind collide_connected,
        break_force (N), break_torque (N·m). An unknown keyword lists the valid ones."""
        if kind not in JOINT_KINDS:
            raise ValueError(f"joint kind {kind!r}: use one of {', '.join(JOINT_KINDS)}")
        def_name, create, _ = JOINT_KINDS[kind]
        definition = make_def(def_name, fields, f"{kind} joint")
        if kind == "mouse":
            if body_a is not None:
                raise ValueError("a mouse joint has one body: create_joint('mouse', None, body)")
            joint_id = create(body_b._id, definition)
        else:
            joint_id = create(body_a._id, body_b._id, definition)
        if joint_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context=f"create_joint({kind!r})")
        return Joint(self, joint_id)

    def create_vehicle(self, body, **fields):
        """Make a dynamic body a top-down car (include/carom/vehicle.h, docs/racing.md).
        Keywords, the fields of carom_vehicle_def: grip (peak tyre friction, 1), gravity (m/s²
        loading the tyres, 9.81), peak_slip_angle (rad, 0.12), slide_grip_ratio (0.7),
        max_drive_force (N, 5000), max_power (W, 120000), max_brake_force (N, 20000),
        handbrake_force (N, 8000), handbrake_grip_factor (0.5), max_steer_angle (rad, 0.6),
        steer_reduction_speed (m/s, 20), rolling_resistance (0.015), drag_coefficient (kg/m,
        0.45). The default wheels suit a 4.4 m × 1.8 m car centred on the body's origin."""
        definition = make_def("carom_vehicle_def", fields, "create_vehicle")
        vehicle_id = lib.carom_create_vehicle(body._id, definition)
        if vehicle_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context="create_vehicle")
        return Vehicle(self, vehicle_id)

    def __repr__(self):
        if not self.valid:
            return "<carom.World (closed)>"
        return (f"<carom.World {len(self)} bodies, step {self.step_count}, dt {self.dt:g} s, "
                f"gravity {self.gravity}>")
