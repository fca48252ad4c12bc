"""The native library, its functions, and how Python reaches carom's C structs.

The library (libcarom_native.so, python/native/carompy.h) holds the engine and the package's C
helpers. It is looked up, in order: the path in the environment variable CAROM_NATIVE_LIBRARY,
then beside this file (where `pip install ./python` puts it).

Defs (carom_world_def, carom_body_def, ...) and event and ray records are not mirrored here:
their fields are found by name in FIELDS, with offsets from the C compiler
(python/native/layout.c), and defs start from the engine's default constructors, so a field
added to a header needs no change here. The small, stable structs passed by value (vectors,
ids, filters, counters) are mirrored with ctypes, and each mirror's size is compared with the
C compiler's at import: a header that changed without this file refuses to load instead of
reading the wrong bytes.
"""

import ctypes
import os
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint16, c_uint32
from ctypes import c_uint64, c_void_p

LIBRARY_NAME = "libcarom_native.so"


def _find_library():
    explicit = os.environ.get("CAROM_NATIVE_LIBRARY")
    if explicit:
        return explicit
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(beside):
        return beside
    raise ImportError(
        f"carom: {LIBRARY_NAME} not found beside {__file__}: install the package with "
        "`pip install ./python` (docs/python.md), or point CAROM_NATIVE_LIBRARY at "
        "build/python/libcarom_native.so of a meson build")


lib = ctypes.CDLL(_find_library())


class Vec2(ctypes.Structure):
    _fields_ = [("x", c_double), ("y", c_double)]


class Rot(ctypes.Structure):
    _fields_ = [("c", c_double), ("s", c_double)]


class Transform(ctypes.Structure):
    _fields_ = [("p", Vec2), ("q", Rot)]


class AABB(ctypes.Structure):
    _fields_ = [("lower", Vec2), ("upper", Vec2)]


class WorldId(ctypes.Structure):
    _fields_ = [("index1", c_uint16), ("generation", c_uint16)]


class _ObjectId(ctypes.Structure):
    _fields_ = [("index1", c_int32), ("generation", c_uint32), ("world0", c_uint16),
                ("world_generation", c_uint16)]

    def key(self):
        """(index1, generation): unique among the objects of one kind in one world."""
        return (self.index1, self.generation)


class BodyId(_ObjectId):
    pass


class ShapeId(_ObjectId):
    pass


class JointId(_ObjectId):
    pass


class VehicleId(_ObjectId):
    pass


class Filter(ctypes.Structure):
    _fields_ = [("category", c_uint64), ("mask", c_uint64), ("group", c_int32)]


class Circle(ctypes.Structure):
    _fields_ = [("center", Vec2), ("radius", c_double)]


class Capsule(ctypes.Structure):
    _fields_ = [("center1", Vec2), ("center2", Vec2), ("radius", c_double)]


class Segment(ctypes.Structure):
    _fields_ = [("point1", Vec2), ("point2", Vec2)]


class WorldCounters(ctypes.Structure):
    _fields_ = [("body_count", c_int), ("shape_count", c_int), ("contact_count", c_int),
                ("touching_count", c_int), ("step_count", c_int), ("awake_body_count", c_int),
                ("sleeping_island_count", c_int)]


class ContactEvents(ctypes.Structure):
    # The arrays' elements are read by field offsets (FIELDS), not through a mirror.
    _fields_ = [("begin_events", c_void_p), ("begin_count", c_int),
                ("end_events", c_void_p), ("end_count", c_int),
                ("hit_events", c_void_p), ("hit_count", c_int)]


class SensorEvents(ctypes.Structure):
    _fields_ = [("begin_events", c_void_p), ("begin_count", c_int),
                ("end_events", c_void_p), ("end_count", c_int)]


class JointEvents(ctypes.Structure):
    _fields_ = [("break_events", c_void_p), ("break_count", c_int)]


VEHICLE_MAX_WHEELS = 8


class VehicleInput(ctypes.Structure):
    _fields_ = [("throttle", c_double), ("brake", c_double), ("steer", c_double),
                ("handbrake", c_int)]


class WheelState(ctypes.Structure):
    _fields_ = [("position", Vec2), ("direction", Vec2), ("slip_angle", c_double),
                ("surface_grip", c_double), ("longitudinal_force", c_double),
                ("lateral_force", c_double), ("sliding", c_int)]


class VehicleState(ctypes.Structure):
    _fields_ = [("forward_speed", c_double), ("lateral_speed", c_double),
                ("yaw_rate", c_double), ("steer_lock", c_double), ("steer_angle", c_double),
                ("wheel_count", c_int), ("wheels", WheelState * VEHICLE_MAX_WHEELS)]


# Every mirror, by its C name, for the size check below.
MIRRORS = {
    "carom_vec2": Vec2, "carom_rot": Rot, "carom_transform": Transform, "carom_aabb": AABB,
    "carom_world_id": WorldId, "carom_body_id": BodyId, "carom_shape_id": ShapeId,
    "carom_joint_id": JointId, "carom_vehicle_id": VehicleId, "carom_filter": Filter,
    "carom_circle": Circle, "carom_capsule": Capsule, "carom_segment": Segment, "carom_world_counters": WorldCounters,
    "carom_contact_events": ContactEvents, "carom_sensor_events": SensorEvents,
    "carom_joint_events": JointEvents, "carom_vehicle_input": VehicleInput,
    "carom_wheel_state": WheelState, "carom_vehicle_state": VehicleState,
}


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


status = c_int
c_double_p = POINTER(c_double)
c_int_p = POINTER(c_int)
RAY_CALLBACK = ctypes.CFUNCTYPE(c_double, ShapeId, Vec2, Vec2, c_double, c_void_p)

_SIGNATURES = [
    ("carompy_sizeof", c_size_t, c_char_p),
    ("carom_status_str", c_char_p, c_int),
    ("carom_last_status", c_int),
    ("carom_last_error", c_char_p),
    ("carom_clear_last_error", None),
    ("carom_version_string", c_char_p),
    ("carom_default_filter", Filter),
    ("carom_create_world", WorldId, c_void_p),
    ("carom_destroy_world", status, WorldId),
    ("carom_world_is_valid", c_int, WorldId),
    ("carom_world_step", status, WorldId, c_double),
    ("carom_world_set_gravity", status, WorldId, Vec2),
    ("carom_world_get_gravity", Vec2, WorldId),
    ("carom_world_set_substeps", status, WorldId, c_int),
    ("carom_world_get_substeps", c_int, WorldId),
    ("carom_world_get_counters", WorldCounters, WorldId),
    ("carom_world_hash", c_uint64, WorldId),
    ("carom_world_get_body_ids", status, WorldId, POINTER(BodyId), c_int, c_int_p),
    ("carom_world_get_contact_events", ContactEvents, WorldId),
    ("carom_world_get_sensor_events", SensorEvents, WorldId),
    ("carom_world_get_joint_events", JointEvents, WorldId),
    ("carom_world_save", status, WorldId, c_int, c_void_p, c_size_t, POINTER(c_size_t)),
    ("carom_world_restore", status, WorldId, c_char_p, c_size_t),
    ("carom_create_world_from_snapshot", WorldId, c_char_p, c_size_t),
    ("carom_create_body", BodyId, WorldId, c_void_p),
    ("carom_destroy_body", status, BodyId),
    ("carom_body_is_valid", c_int, BodyId),
    ("carom_body_get_type", c_int, BodyId),
    ("carom_body_get_position", Vec2, BodyId),
    ("carom_body_get_rotation", Rot, BodyId),
    ("carom_body_get_angle", c_double, BodyId),
    ("carom_body_get_world_center", Vec2, BodyId),
    ("carom_body_get_linear_velocity", Vec2, BodyId),
    ("carom_body_get_angular_velocity", c_double, BodyId),
    ("carom_body_get_mass", c_double, BodyId),
    ("carom_body_get_rotational_inertia", c_double, BodyId),
    ("carom_body_get_kinetic_energy", c_double, BodyId),
    ("carom_body_set_transform", status, BodyId, Vec2, c_double),
    ("carom_body_set_linear_velocity", status, BodyId, Vec2),
    ("carom_body_set_angular_velocity", status, BodyId, c_double),
    ("carom_body_wake", status, BodyId),
    ("carom_body_is_awake", c_int, BodyId),
    ("carom_body_apply_force", status, BodyId, Vec2, Vec2),
    ("carom_body_apply_force_to_center", status, BodyId, Vec2),
    ("carom_body_apply_torque", status, BodyId, c_double),
    ("carom_body_apply_linear_impulse", status, BodyId, Vec2, Vec2),
    ("carom_body_apply_angular_impulse", status, BodyId, c_double),
    ("carom_create_circle_shape", ShapeId, BodyId, c_void_p, POINTER(Circle)),
    ("carom_create_polygon_shape", ShapeId, BodyId, c_void_p, c_void_p),
    ("carom_create_segment_shape", ShapeId, BodyId, c_void_p, POINTER(Segment)),
    ("carom_create_box_shape", ShapeId, BodyId, c_void_p, c_double, c_double, Vec2,
     c_double),
    ("carom_create_chain", status, BodyId, c_void_p, POINTER(Vec2), c_int, c_int,
     POINTER(ShapeId)),
    ("carom_make_polygon", status, POINTER(Vec2), c_int, c_void_p),
    ("carom_make_rounded_polygon", status, POINTER(Vec2), c_int, c_double, c_void_p),
    ("carom_create_capsule_shape", ShapeId, BodyId, c_void_p, POINTER(Capsule)),
    ("carom_body_get_shape_count", c_int, BodyId),
    ("carom_body_get_shapes", c_int, BodyId, POINTER(ShapeId), c_int),
    # concave polygons by convex decomposition (issue 16)
    ("carom_create_decomposed_polygon_shapes", status, BodyId, c_void_p, POINTER(Vec2), c_int,
     POINTER(ShapeId), c_int, c_int_p),
    ("carom_destroy_shape", status, ShapeId),
    ("carom_shape_is_valid", c_int, ShapeId),
    ("carom_shape_get_type", c_int, ShapeId),
    ("carom_shape_get_body", BodyId, ShapeId),
    ("carom_shape_get_density", c_double, ShapeId),
    ("carom_shape_get_friction", c_double, ShapeId),
    ("carom_shape_get_restitution", c_double, ShapeId),
    ("carom_shape_is_sensor", c_int, ShapeId),
    ("carom_shape_get_aabb", AABB, ShapeId),
    ("carom_shape_set_friction", status, ShapeId, c_double),
    ("carom_shape_set_restitution", status, ShapeId, c_double),
    ("carom_shape_set_density", status, ShapeId, c_double),
    ("carom_create_revolute_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_prismatic_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_distance_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_weld_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_wheel_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_motor_joint", JointId, BodyId, BodyId, c_void_p),
    ("carom_create_mouse_joint", JointId, BodyId, c_void_p),
    ("carom_destroy_joint", status, JointId),
    ("carom_joint_is_valid", c_int, JointId),
    ("carom_joint_get_type", c_int, JointId),
    ("carom_joint_get_body_a", BodyId, JointId),
    ("carom_joint_get_body_b", BodyId, JointId),
    ("carom_joint_get_reaction_force", Vec2, JointId),
    ("carom_joint_get_reaction_torque", c_double, JointId),
    ("carom_joint_get_angle", c_double, JointId),
    ("carom_joint_get_translation", c_double, JointId),
    ("carom_joint_set_motor_speed", status, JointId, c_double),
    ("carom_mouse_joint_set_target", status, JointId, Vec2),
    ("carom_create_vehicle", VehicleId, BodyId, c_void_p),
    ("carom_destroy_vehicle", status, VehicleId),
    ("carom_vehicle_is_valid", c_int, VehicleId),
    ("carom_vehicle_set_input", status, VehicleId, c_double, c_double, c_double, c_int),
    ("carom_vehicle_get_input", VehicleInput, VehicleId),
    ("carom_vehicle_get_state", status, VehicleId, POINTER(VehicleState)),
    ("carompy_get_body_states", status, POINTER(BodyId), c_int, c_double_p, c_double_p,
     c_double_p, c_double_p, c_double_p, c_int_p),
    ("carompy_cast_rays_closest", status, WorldId, c_double_p, c_double_p, c_int, Filter,
     c_void_p, c_int_p),
    ("carompy_cast_ray_all", status, WorldId, Vec2, Vec2, Filter, c_void_p, c_int, c_int_p),
    # shape casts, explosions and shape geometry (issue 16: python/native/queries.c)
    ("carompy_cast_shape", status, WorldId, c_int, c_double_p, c_int, c_double, c_double,
     c_double, c_double, Vec2, Filter, c_int, c_void_p, c_int, c_int_p),
    ("carompy_overlap_shape", status, WorldId, c_int, c_double_p, c_int, c_double, c_double,
     c_double, c_double, Filter, POINTER(ShapeId), c_int, c_int_p),
    ("carompy_overlap_aabb", status, WorldId, Vec2, Vec2, Filter, POINTER(ShapeId), c_int,
     c_int_p),
    ("carompy_overlap_point", status, WorldId, Vec2, Filter, POINTER(ShapeId), c_int, c_int_p),
    ("carompy_explode", status, WorldId, c_double, c_double, c_double, c_double, c_double,
     c_uint64),
    ("carompy_shape_geometry", status, ShapeId, c_double_p, c_int_p, c_double_p, c_int_p),
    ("carompy_field_count", c_int),
    ("carompy_field", c_char_p, c_int, POINTER(c_char_p), POINTER(c_size_t),
     POINTER(ctypes.c_char)),
    ("carompy_default_def", c_int, c_char_p, c_void_p),
    ("carompy_shape_bodies", None, POINTER(ShapeId), c_int, POINTER(BodyId)),
    ("carompy_get_body_types", None, POINTER(BodyId), c_int, c_int_p),
    ("carompy_set_body_velocities", status, POINTER(BodyId), c_int, c_double_p, c_double_p,
     c_int_p),
    ("carompy_step_worlds", status, POINTER(WorldId), c_double_p, c_int, c_int, c_int, c_int_p,
     c_int_p, c_char_p, c_size_t),
    ("carompy_scene_load", c_void_p, c_char_p, c_size_t, c_char_p),
    ("carompy_scene_ok", c_int, c_void_p),
    ("carompy_scene_report", c_char_p, c_void_p),
    ("carompy_scene_warning_count", c_int, c_void_p),
    ("carompy_scene_build", status, c_void_p, POINTER(WorldId)),
    ("carompy_scene_dt", c_double, c_void_p),
    ("carompy_scene_body_count", c_int, c_void_p),
    ("carompy_scene_body_name", c_char_p, c_void_p, c_int),
    ("carompy_scene_body_id", BodyId, c_void_p, c_int),
    ("carompy_scene_joint_count", c_int, c_void_p),
    ("carompy_scene_joint_name", c_char_p, c_void_p, c_int),
    ("carompy_scene_joint_id", JointId, c_void_p, c_int),
    ("carompy_scene_vehicle_count", c_int, c_void_p),
    ("carompy_scene_vehicle_body", c_int, c_void_p, c_int),
    ("carompy_scene_vehicle_id", VehicleId, c_void_p, c_int),
    ("carompy_scene_apply_controls", status, c_void_p, ctypes.c_int64),
    ("carompy_scene_next_control_step", ctypes.c_int64, c_void_p, ctypes.c_int64),
    ("carompy_scene_free", None, c_void_p),
]

for _signature in _SIGNATURES:
    _declare(*_signature)


def _load_fields():
    """{struct name: {field name: (offset, kind)}} from the library (python/native/layout.c)."""
    fields = {}
    name, offset, kind = c_char_p(), c_size_t(), ctypes.c_char()
    for index in range(lib.carompy_field_count()):
        struct_name = lib.carompy_field(index, ctypes.byref(name), ctypes.byref(offset),
                                        ctypes.byref(kind)).decode()
        fields.setdefault(struct_name, {})[name.value.decode()] = (offset.value,
                                                                    kind.value.decode())
    return fields


FIELDS = _load_fields()


def sizeof(type_name):
    """The C compiler's sizeof of a carom struct, by name."""
    return lib.carompy_sizeof(type_name.encode())


def _check_layouts():
    for c_name, mirror in MIRRORS.items():
        native = lib.carompy_sizeof(c_name.encode())
        if native != ctypes.sizeof(mirror):
            raise ImportError(
                f"carom: the Python mirror of {c_name} is {ctypes.sizeof(mirror)} bytes but the "
                f"library's struct is {native}: python/carom/_native.py does not match "
                "include/carom/*.h (update the mirror, or rebuild the library)")


_check_layouts()
