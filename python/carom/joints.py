"""Joints and vehicles (carom.Joint, carom.Vehicle): include/carom/joint.h and vehicle.h."""

import ctypes

from . import _native
from ._convert import vec2
from ._native import lib
from .bodies import Body
from .errors import check, checked_call

JOINT_KINDS = {
    # kind: (the def's C name, the creator, the carom_joint_type code)
    "revolute": ("carom_revolute_joint_def", lib.carom_create_revolute_joint, 0),
    "prismatic": ("carom_prismatic_joint_def", lib.carom_create_prismatic_joint, 1),
    "distance": ("carom_distance_joint_def", lib.carom_create_distance_joint, 2),
    "weld": ("carom_weld_joint_def", lib.carom_create_weld_joint, 3),
    "wheel": ("carom_wheel_joint_def", lib.carom_create_wheel_joint, 4),
    "motor": ("carom_motor_joint_def", lib.carom_create_motor_joint, 5),
    "mouse": ("carom_mouse_joint_def", lib.carom_create_mouse_joint, 6),
}
JOINT_TYPE_NAMES = {code: kind for kind, (_, _, code) in JOINT_KINDS.items()}

class Joint:
    """A joint (include/carom/joint.h). Getters raise InvalidIdError once it is destroyed (by
    destroy(), with a body, or when it breaks)."""

    __slots__ = ("world", "_id")

    def __init__(self, world, joint_id):
        self.world = world
        self._id = joint_id

    @property
    def valid(self):
        return bool(lib.carom_joint_is_valid(self._id))

    @property
    def kind(self):
        return JOINT_TYPE_NAMES[checked_call(lib.carom_joint_get_type, self._id)]

    @property
    def bodies(self):
        """(body A or None for a mouse joint, body B)."""
        a = checked_call(lib.carom_joint_get_body_a, self._id)
        b = checked_call(lib.carom_joint_get_body_b, self._id)
        return (Body(self.world, a) if a.index1 != 0 else None, Body(self.world, b))

    @property
    def reaction_force(self):
        """Force on body B in the last awake step (N, world frame)."""
        f = checked_call(lib.carom_joint_get_reaction_force, self._id)
        return (f.x, f.y)

    @property
    def reaction_torque(self):
        """Torque on body B in the last awake step (N·m)."""
        return checked_call(lib.carom_joint_get_reaction_torque, self._id)

    @property
    def angle(self):
        """Revolute, weld, motor: B's angle relative to A from creation (rad)."""
        return checked_call(lib.carom_joint_get_angle, self._id)

    @property
    def translation(self):
        """Prismatic and wheel: along the axis (m); distance: between the anchors (m)."""
        return checked_call(lib.carom_joint_get_translation, self._id)

    def set_motor_speed(self, speed):
        """rad/s (revolute, wheel) or m/s (prismatic)."""
        check(lib.carom_joint_set_motor_speed(self._id, float(speed)))

    def set_target(self, target):
        """A mouse joint's target (m, world frame)."""
        check(lib.carom_mouse_joint_set_target(self._id, vec2(target, "target")))

    def destroy(self):
        check(lib.carom_destroy_joint(self._id))

    def __repr__(self):
        return f"<carom.Joint {self.kind if self.valid else '(destroyed)'}>"


class Vehicle:
    """A top-down car on a dynamic body (world.create_vehicle; docs/racing.md)."""

    __slots__ = ("world", "_id")

    def __init__(self, world, vehicle_id):
        self.world = world
        self._id = vehicle_id

    @property
    def valid(self):
        return bool(lib.carom_vehicle_is_valid(self._id))

    def set_input(self, throttle=0.0, brake=0.0, steer=0.0, handbrake=False):
        """The driver's controls until set again: throttle in [-1, 1], brake in [0, 1],
        steer in [-1, 1] of the current lock (positive turns left), handbrake a bool."""
        check(lib.carom_vehicle_set_input(self._id, float(throttle), float(brake),
                                          float(steer), int(bool(handbrake))))

    @property
    def state(self):
        """A dict: forward_speed, lateral_speed (m/s), yaw_rate (rad/s), steer_lock,
        steer_angle (rad), and wheels: a list of dicts (position, direction, slip_angle,
        surface_grip, longitudinal_force, lateral_force (N), sliding)."""
        s = _native.VehicleState()
        check(lib.carom_vehicle_get_state(self._id, ctypes.byref(s)))
        wheels = []
        for i in range(s.wheel_count):
            w = s.wheels[i]
            wheels.append({"position": (w.position.x, w.position.y),
                           "direction": (w.direction.x, w.direction.y),
                           "slip_angle": w.slip_angle, "surface_grip": w.surface_grip,
                           "longitudinal_force": w.longitudinal_force,
                           "lateral_force": w.lateral_force, "sliding": bool(w.sliding)})
        return {"forward_speed": s.forward_speed, "lateral_speed": s.lateral_speed,
                "yaw_rate": s.yaw_rate, "steer_lock": s.steer_lock,
                "steer_angle": s.steer_angle, "wheels": wheels}

    def destroy(self):
        check(lib.carom_destroy_vehicle(self._id))
