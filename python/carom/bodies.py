"""Bodies and their shapes (carom.Body, carom.Shape). Units: m, kg, s, rad, N, N·m, kg/m²."""

import ctypes

import numpy as np

from . import _native
from ._convert import make_def, shape_key, vec2
from ._native import lib
from .errors import check, checked_call, error_for

BODY_TYPES = {"static": 0, "kinematic": 1, "dynamic": 2}
BODY_TYPE_NAMES = {value: name for name, value in BODY_TYPES.items()}
SHAPE_TYPE_NAMES = {0: "circle", 1: "polygon", 2: "segment", 3: "chain_segment",
                    4: "capsule"}

class Body:
    """A body of a World. Made by world.create_body() or a scene; compares equal by id.
    Every getter raises InvalidIdError once the body is destroyed."""

    __slots__ = ("world", "_id")

    def __init__(self, world, body_id):
        self.world = world
        self._id = body_id

    def __eq__(self, other):
        return isinstance(other, Body) and self.key == other.key and self.world is other.world

    def __hash__(self):
        return hash(self.key)

    @property
    def key(self):
        """(index, generation): unique among this world's bodies."""
        return self._id.key()

    @property
    def valid(self):
        return bool(lib.carom_body_is_valid(self._id))

    @property
    def name(self):
        return self.world._names.get(self.key)

    @property
    def row(self):
        """This body's row in the world's state arrays."""
        return self.world.row_of(self)

    @property
    def type(self):
        """"static", "kinematic" or "dynamic"."""
        return BODY_TYPE_NAMES[checked_call(lib.carom_body_get_type, self._id)]

    @property
    def position(self):
        """World position of the body origin (m), as a tuple."""
        p = checked_call(lib.carom_body_get_position, self._id)
        return (p.x, p.y)

    @property
    def angle(self):
        """Rotation (rad, in [-pi, pi])."""
        return checked_call(lib.carom_body_get_angle, self._id)

    @property
    def rotation(self):
        """Rotation as (cos, sin), exactly as the engine keeps it."""
        q = checked_call(lib.carom_body_get_rotation, self._id)
        return (q.c, q.s)

    @property
    def world_center(self):
        """Center of mass, world frame (m)."""
        c = checked_call(lib.carom_body_get_world_center, self._id)
        return (c.x, c.y)

    @property
    def linear_velocity(self):
        """Velocity of the center of mass (m/s); settable (not on a static body)."""
        v = checked_call(lib.carom_body_get_linear_velocity, self._id)
        return (v.x, v.y)

    @linear_velocity.setter
    def linear_velocity(self, value):
        check(lib.carom_body_set_linear_velocity(self._id, vec2(value, "linear_velocity")))

    @property
    def angular_velocity(self):
        """Angular velocity (rad/s, counter-clockwise); settable."""
        return checked_call(lib.carom_body_get_angular_velocity, self._id)

    @angular_velocity.setter
    def angular_velocity(self, value):
        check(lib.carom_body_set_angular_velocity(self._id, float(value)))

    @property
    def mass(self):
        """kg (0 for static and kinematic bodies)."""
        return checked_call(lib.carom_body_get_mass, self._id)

    @property
    def rotational_inertia(self):
        """About the center of mass (kg·m²)."""
        return checked_call(lib.carom_body_get_rotational_inertia, self._id)

    @property
    def kinetic_energy(self):
        """Linear plus rotational (J)."""
        return checked_call(lib.carom_body_get_kinetic_energy, self._id)

    @property
    def awake(self):
        return bool(checked_call(lib.carom_body_is_awake, self._id))

    def wake(self):
        check(lib.carom_body_wake(self._id))

    def set_transform(self, position, angle):
        """Teleport: the origin to position (m), turned by angle (rad)."""
        check(lib.carom_body_set_transform(self._id, vec2(position, "position"), float(angle)))

    def apply_force(self, force, point=None):
        """A force (N) for the next step, at a world point (m) or, without one, at the center
        of mass."""
        if point is None:
            check(lib.carom_body_apply_force_to_center(self._id, vec2(force, "force")))
        else:
            check(lib.carom_body_apply_force(self._id, vec2(force, "force"),
                                             vec2(point, "point")))

    def apply_torque(self, torque):
        """A torque (N·m) for the next step."""
        check(lib.carom_body_apply_torque(self._id, float(torque)))

    def apply_impulse(self, impulse, point=None):
        """A linear impulse (N·s) at a world point (m; default the center of mass): changes
        the velocity at once."""
        point = self.world_center if point is None else point
        check(lib.carom_body_apply_linear_impulse(self._id, vec2(impulse, "impulse"),
                                                  vec2(point, "point")))

    def apply_angular_impulse(self, impulse):
        """An angular impulse (N·m·s)."""
        check(lib.carom_body_apply_angular_impulse(self._id, float(impulse)))

    def destroy(self):
        """Destroy the body, its shapes, joints and contacts."""
        check(lib.carom_destroy_body(self._id))
        self.world._body_changed()

    # ---- shapes ----------------------------------------------------------------------------

    def _shape_def(self, fields, what):
        fields = dict(fields)
        if "sensor" in fields:  # the scene format's word for is_sensor
            fields["is_sensor"] = bool(fields.pop("sensor"))
        return make_def("carom_shape_def", fields, what)

    def _made(self, shape_id, what):
        if shape_id.index1 == 0:
            raise error_for(lib.carom_last_status(), context=what)
        return Shape(self.world, shape_id)

    _SHAPE_KEYWORDS = """Material keywords (carom_shape_def): density (kg/m², default 1),
        friction (>= 0, 0.6), restitution (0..1, 0), sensor (False), filter (a dict of
        category, mask, group), enable_hit_events (False), hit_speed_threshold (m/s, 1),
        enable_contact_events (True: begin and end events), surface_grip (sensors: the grip a
        vehicle's wheels read, 1), one_sided (chains)."""

    def add_circle(self, radius, center=(0.0, 0.0), **material):
        """A circle of radius (m) centred at center (m, body frame)."""
        circle = _native.Circle(vec2(center, "center"), float(radius))
        definition = self._shape_def(material, "add_circle")
        return self._made(lib.carom_create_circle_shape(self._id, definition,
                                                        ctypes.byref(circle)), "add_circle")

    def add_box(self, half_extents, center=(0.0, 0.0), angle=0.0, **material):
        """A box of half extents (hx, hy) (m), centred at center (m, body frame), turned by
        angle (rad) relative to the body."""
        hx, hy = half_extents
        definition = self._shape_def(material, "add_box")
        return self._made(lib.carom_create_box_shape(self._id, definition,
                                                     float(hx), float(hy),
                                                     vec2(center, "center"), float(angle)),
                          "add_box")

    def add_polygon(self, vertices, radius=0.0, **material):
        """A convex polygon of 3 to 8 vertices (m, body frame, any winding), its corners rounded
        by radius (m; 0: sharp; carom_make_rounded_polygon)."""
        points = np.asarray(vertices, dtype=np.float64).reshape(-1, 2)
        array = (_native.Vec2 * max(len(points), 1))(*[_native.Vec2(x, y) for x, y in points])
        polygon = ctypes.create_string_buffer(_native.sizeof("carom_polygon"))
        if radius == 0.0:
            made = lib.carom_make_polygon(array, len(points), polygon)
        else:
            made = lib.carom_make_rounded_polygon(array, len(points), float(radius), polygon)
        check(made, context="add_polygon")
        definition = self._shape_def(material, "add_polygon")
        return self._made(lib.carom_create_polygon_shape(self._id, definition, polygon), "add_polygon")

    def add_decomposed_polygon(self, vertices, **material):
        """Any simple polygon of up to 128 vertices (m, body frame, either winding, concave or
        not), split into convex pieces of at most 8 vertices, one polygon shape each, all with
        the same material (carom_create_decomposed_polygon_shapes). The body's mass is the
        outline's. Returns the list of the pieces' shapes. A self-intersecting outline raises
        InvalidPolygonError naming the two edges that cross."""
        points = np.asarray(vertices, dtype=np.float64).reshape(-1, 2)
        array = (_native.Vec2 * max(len(points), 1))(*[_native.Vec2(x, y) for x, y in points])
        capacity = max(len(points), 1)  # a split never has more pieces than points - 2
        shapes = (_native.ShapeId * capacity)()
        count = ctypes.c_int(0)
        definition = self._shape_def(material, "add_decomposed_polygon")
        check(lib.carom_create_decomposed_polygon_shapes(self._id, definition, array, len(points),
                                                         shapes, capacity, ctypes.byref(count)),
              context="add_decomposed_polygon")
        return [Shape(self.world, shapes[i]) for i in range(count.value)]

    def add_capsule(self, center1, center2, radius, **material):
        """A capsule: the points within radius (m) of the segment from center1 to center2 (m,
        body frame; carom_create_capsule_shape)."""
        capsule = _native.Capsule(vec2(center1, "center1"), vec2(center2, "center2"),
                                  float(radius))
        definition = self._shape_def(material, "add_capsule")
        return self._made(lib.carom_create_capsule_shape(self._id, definition,
                                                         ctypes.byref(capsule)), "add_capsule")

    @property
    def shapes(self):
        """The body's shapes, in ascending shape id order (carom_body_get_shapes)."""
        count = lib.carom_body_get_shape_count(self._id)
        if count == 0 and not self.valid:
            raise error_for(lib.carom_last_status(), context="shapes")
        ids = (_native.ShapeId * max(count, 1))()
        written = lib.carom_body_get_shapes(self._id, ids, count)
        return [Shape(self.world, ids[i]) for i in range(written)]

    def add_segment(self, point1, point2, **material):
        """A segment between two points (m, body frame): no area, for static walls."""
        segment = _native.Segment(vec2(point1, "point1"), vec2(point2, "point2"))
        definition = self._shape_def(material, "add_segment")
        return self._made(lib.carom_create_segment_shape(self._id, definition,
                                                         ctypes.byref(segment)), "add_segment")

    def add_chain(self, points, loop=False, **material):
        """A chain of segments through points (m, body frame), closed when loop is True.
        Returns the list of its segment shapes."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        array = (_native.Vec2 * len(points))(*[_native.Vec2(x, y) for x, y in points])
        count = len(points) if loop else max(len(points) - 1, 0)
        segments = (_native.ShapeId * max(count, 1))()
        definition = self._shape_def(material, "add_chain")
        check(lib.carom_create_chain(self._id, definition, array, len(points),
                                     int(bool(loop)), segments), context="add_chain")
        return [Shape(self.world, segments[i]) for i in range(count)]

    def __repr__(self):
        if not self.valid:
            return f"<carom.Body {self.key} (destroyed)>"
        label = f" {self.name!r}" if self.name else ""
        return f"<carom.Body{label} {self.type} at {self.position}>"


for _method in (Body.add_circle, Body.add_box, Body.add_polygon, Body.add_decomposed_polygon,
                Body.add_segment, Body.add_chain):
    _method.__doc__ += "\n\n        " + Body._SHAPE_KEYWORDS


# Room for a shape's points in Shape.geometry: well above CAROM_MAX_POLYGON_VERTICES (8).
_GEOMETRY_POINTS = 64


class Shape:
    """A shape of a body. Getters raise InvalidIdError once it is destroyed."""

    __slots__ = ("world", "_id")

    def __init__(self, world, shape_id):
        self.world = world
        self._id = shape_id

    def __eq__(self, other):
        return isinstance(other, Shape) and self.key == other.key and self.world is other.world

    def __hash__(self):
        return hash(self.key)

    @property
    def key(self):
        """The int events and ray casts name this shape by."""
        return shape_key(self._id)

    @property
    def valid(self):
        return bool(lib.carom_shape_is_valid(self._id))

    @property
    def type(self):
        """"circle", "polygon" (boxes too), "segment", "chain_segment" or "capsule"."""
        code = checked_call(lib.carom_shape_get_type, self._id)
        return SHAPE_TYPE_NAMES.get(code, f"type {code}")  # a kind newer than this package

    @property
    def body(self):
        return Body(self.world, checked_call(lib.carom_shape_get_body, self._id))

    @property
    def friction(self):
        return checked_call(lib.carom_shape_get_friction, self._id)

    @friction.setter
    def friction(self, value):
        check(lib.carom_shape_set_friction(self._id, float(value)))

    @property
    def restitution(self):
        return checked_call(lib.carom_shape_get_restitution, self._id)

    @restitution.setter
    def restitution(self, value):
        check(lib.carom_shape_set_restitution(self._id, float(value)))

    @property
    def density(self):
        """kg/m²; setting it recomputes the body's mass."""
        return checked_call(lib.carom_shape_get_density, self._id)

    @density.setter
    def density(self, value):
        check(lib.carom_shape_set_density(self._id, float(value)))

    @property
    def sensor(self):
        return bool(checked_call(lib.carom_shape_is_sensor, self._id))

    @property
    def aabb(self):
        """((lower x, lower y), (upper x, upper y)) (m) as of the last step."""
        box = checked_call(lib.carom_shape_get_aabb, self._id)
        return ((box.lower.x, box.lower.y), (box.upper.x, box.upper.y))

    @property
    def geometry(self):
        """The shape's geometry in its body's frame (m), as a dict in the scene file's form:
        {"type": "circle", "center", "radius"}, {"type": "polygon", "vertices", "radius"}
        (boxes are polygons; radius 0: sharp corners), {"type": "capsule", "center1",
        "center2", "radius"}, {"type": "segment", "point1", "point2"} or {"type":
        "chain_segment", "point1", "point2", "ghost1", "ghost2" (None at an open chain's end),
        "one_sided"}. Points are (x, y) tuples."""
        points = (ctypes.c_double * (2 * _GEOMETRY_POINTS))()
        count, radius, flags = ctypes.c_int(), ctypes.c_double(), ctypes.c_int()
        check(lib.carompy_shape_geometry(self._id, points, ctypes.byref(count),
                                         ctypes.byref(radius), ctypes.byref(flags)))
        p = [(points[2 * i], points[2 * i + 1]) for i in range(count.value)]
        kind = self.type
        if kind == "circle":
            return {"type": kind, "center": p[0], "radius": radius.value}
        if kind == "polygon":
            return {"type": kind, "vertices": p, "radius": radius.value}
        if kind == "capsule":
            return {"type": kind, "center1": p[0], "center2": p[1], "radius": radius.value}
        if kind == "segment":
            return {"type": kind, "point1": p[0], "point2": p[1]}
        return {"type": kind, "point1": p[1], "point2": p[2],
                "ghost1": p[0] if flags.value & 1 else None,
                "ghost2": p[3] if flags.value & 2 else None,
                "one_sided": bool(flags.value & 4)}

    def destroy(self):
        check(lib.carom_destroy_shape(self._id))

    def __repr__(self):
        return f"<carom.Shape {self.key:#x} {self.type if self.valid else '(destroyed)'}>"
