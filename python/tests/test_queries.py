"""World.cast_shape, World.explode and Shape.geometry (issue 16) against analytic answers and
the C engine's refusals."""

import ctypes
import math

import numpy as np
import pytest

import carom


def world_with_walls():
    """A static 2 x 2 box at (5, 0) and a segment floor at y = -3, stepped once so that
    queries see them."""
    world = carom.World(gravity=(0, 0))
    walls = world.create_body(type="static")
    box = walls.add_box((1, 1), center=(5, 0))
    floor = walls.add_segment((-10, -3), (10, -3))
    world.step()
    return world, box, floor


def test_a_circle_cast_stops_at_the_box_face():
    world, box, _ = world_with_walls()
    hit = world.cast_shape({"type": "circle", "radius": 0.5}, (10, 0))
    assert hit.dtype == carom.RAY_HIT_DTYPE and len(hit) == 1
    assert hit[0]["hit"] and hit[0]["shape"] == box.key
    assert hit[0]["fraction"] == pytest.approx(0.35, abs=1e-12)
    np.testing.assert_allclose(hit[0]["point"], (4, 0), atol=1e-12)
    np.testing.assert_allclose(hit[0]["normal"], (-1, 0), atol=1e-12)


def test_every_hit_in_order_and_a_miss():
    world, box, floor = world_with_walls()
    # a capsule falling diagonally: the box's top face first, then the floor
    capsule = {"type": "capsule", "center1": (-0.5, 0), "center2": (0.5, 0), "radius": 0.25}
    hits = world.cast_shape(capsule, (0, -10), position=(5, 3), all=True)
    assert list(hits["shape"]) == [box.key, floor.key]
    assert hits["fraction"] == pytest.approx([(3 - 0.25 - 1) / 10, (6 - 0.25) / 10])
    rounded_box = {"type": "box", "half_extents": (0.3, 0.3), "radius": 0.1}
    miss = world.cast_shape(rounded_box, (10, 0), position=(0, 2))
    assert not miss[0]["hit"] and miss[0]["body"] == -1 and miss[0]["fraction"] == 1.0
    assert len(world.cast_shape(rounded_box, (10, 0), position=(0, 2), all=True)) == 0


def test_a_bad_shape_or_translation_is_refused():
    world, _, _ = world_with_walls()
    with pytest.raises(carom.NotFiniteError, match="translation"):
        world.cast_shape({"type": "circle", "radius": 0.5}, (math.nan, 0))
    with pytest.raises(carom.InvalidPolygonError):
        world.cast_shape({"type": "polygon", "vertices": [(0, 0), (1, 0), (2, 0)]}, (1, 0))
    with pytest.raises(TypeError, match="half_extents"):
        world.cast_shape({"type": "box", "size": 1}, (1, 0))


def test_explode_pushes_away_and_falls_off():
    world = carom.World(gravity=(0, 0))
    near, far, outside = (world.create_body(position=(x, 0)) for x in (1.5, -3.0, 6.0))
    for body in (near, far, outside):
        body.add_circle(0.5)
    world.step()
    world.explode((0, 0), radius=1.5, falloff=2.0, impulse_per_length=2.0)
    vx_near, vy_near = near.linear_velocity
    assert vx_near > 0 and vy_near == 0
    assert near.mass * vx_near == pytest.approx(2.0 * 1.0)       # distance 1: full strength
    assert far.mass * -far.linear_velocity[0] == pytest.approx(2.0 * 0.5)  # 2.5: half
    assert outside.linear_velocity == (0.0, 0.0)
    with pytest.raises(carom.OutOfRangeError, match="radius"):
        world.explode((0, 0), radius=-1)


def test_shape_geometry_in_the_body_frame():
    world = carom.World.from_scene({"bodies": [{"position": [3, 1], "angle": 0.5, "shapes": [
        {"type": "circle", "radius": 0.5, "center": [0.25, 0]},
        {"type": "capsule", "center1": [-1, 0], "center2": [1, 0], "radius": 0.2},
        {"type": "box", "half_extents": [1, 0.5], "radius": 0.1}]}]})
    body = world.bodies[0]
    circle_shape = body.add_circle(0.3, center=(0, 1))
    assert circle_shape.geometry == {"type": "circle", "center": (0.0, 1.0), "radius": 0.3}
    ground = world.create_body(type="static")
    links = ground.add_chain([(0, 0), (1, 0), (2, 1)])
    first = links[0].geometry
    assert first["type"] == "chain_segment" and first["ghost1"] is None
    assert first["point1"] == (0.0, 0.0) and first["ghost2"] == (2.0, 1.0)
    segment = ground.add_segment((0, -1), (1, -1)).geometry
    assert segment == {"type": "segment", "point1": (0.0, -1.0), "point2": (1.0, -1.0)}
    shapes = [carom.Shape(world, sid) for sid in _shape_ids(body)]
    kinds = {shape.type: shape.geometry for shape in shapes}
    assert kinds["capsule"] == {"type": "capsule", "center1": (-1.0, 0.0), "center2": (1.0, 0.0),
                                "radius": 0.2}
    assert kinds["polygon"]["radius"] == 0.1 and len(kinds["polygon"]["vertices"]) == 4
    circle_shape.destroy()
    with pytest.raises(carom.InvalidIdError):
        circle_shape.geometry


def _shape_ids(body):
    """The body's shape ids through the C API (carom_body_get_shapes), which the package does
    not wrap: the scene-loaded capsule and rounded box have no Shape object otherwise."""
    get_shapes = carom._native._declare("carom_body_get_shapes", ctypes.c_int,
                                        carom._native.BodyId,
                                        ctypes.POINTER(carom._native.ShapeId), ctypes.c_int)
    ids = (carom._native.ShapeId * 8)()
    count = get_shapes(body._id, ids, 8)
    return [ids[i] for i in range(count)]


# ---- overlap queries, capsules, rounded polygons and a body's shapes ----------------------


def test_overlap_queries_find_what_the_geometry_says():
    world, box, floor = world_with_walls()
    # the box spans x 4..6, y -1..1; the floor is the segment y = -3
    assert world.overlap_point((5, 0.5)) == [box]
    assert world.overlap_point((5, -3)) == []                      # a segment has no inside
    assert world.overlap_point((3.9, 0)) == []
    assert world.overlap_aabb((3, -4), (3.5, 4)) == [floor]        # the floor's box only
    assert world.overlap_aabb((3, -4), (4.5, 4)) == [box, floor]   # in shape-id order
    ball = {"type": "circle", "radius": 0.5}
    # a ball 1 mm clear of the box's left face, then 1 mm into it
    assert world.overlap_shape(ball, position=(3.499, 0)) == []
    assert world.overlap_shape(ball, position=(3.501, 0)) == [box]
    capsule = {"type": "capsule", "center1": (0, 0), "center2": (0, 2), "radius": 0.25}
    assert world.overlap_shape(capsule, position=(5, -5.3)) == []  # its top end 0.05 m short
    assert world.overlap_shape(capsule, position=(5, -5.2)) == [floor]
    turned = {"type": "box", "half_extents": (2, 0.1)}
    assert world.overlap_shape(turned, position=(2.5, 0), angle=0.0) == [box]
    assert world.overlap_shape(turned, position=(2.5, 0), angle=math.pi / 2) == []


def test_overlap_queries_take_filters_and_report_sensors():
    world = carom.World(gravity=(0, 0))
    body = world.create_body(type="static")
    solid = body.add_circle(1.0, filter={"category": 2})
    sensor = body.add_circle(1.0, center=(0.5, 0), sensor=True)
    world.step()
    assert world.overlap_point((0.2, 0)) == [solid, sensor]
    assert world.overlap_point((0.2, 0), filter={"mask": 2}) == [solid]
    many = world.create_body(type="static")
    circles = [many.add_circle(0.1, center=(10 + 0.01 * i, 0)) for i in range(40)]
    world.step()
    assert world.overlap_point((10.205, 0)) == circles[11:31]     # more than the first room


def test_a_bad_overlap_query_is_refused():
    world, _, _ = world_with_walls()
    with pytest.raises(carom.NotFiniteError):
        world.overlap_point((math.inf, 0))
    with pytest.raises(carom.InvalidPolygonError):
        world.overlap_shape({"type": "polygon", "vertices": [(0, 0), (1, 0), (2, 0)]})
    with pytest.raises(TypeError, match="overlap_shape"):
        world.overlap_shape({"type": "star"})


def test_capsules_and_rounded_polygons_have_the_mass_of_their_outline():
    world = carom.World()
    body = world.create_body()
    capsule = body.add_capsule((-1, 0), (1, 0), 0.5, density=2.0)
    # a 2 x 1 rectangle and a disc of radius 0.5, at 2 kg/m^2
    assert body.mass == pytest.approx(2.0 * (2.0 + math.pi * 0.25), rel=1e-12)
    assert capsule.type == "capsule"
    assert capsule.geometry == {"type": "capsule", "center1": (-1.0, 0.0), "center2": (1.0, 0.0),
                                "radius": 0.5}
    other = world.create_body(position=(5, 0))
    square = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    rounded = other.add_polygon(square, radius=0.25)
    # the square grown by 0.25: 2.5 x 2 twice, the corners a disc of radius 0.25
    assert other.mass == pytest.approx(4 + 4 * 2 * 0.25 + math.pi * 0.0625, rel=1e-12)
    assert rounded.geometry["radius"] == 0.25
    assert other.add_polygon(square).geometry["radius"] == 0.0
    with pytest.raises(carom.OutOfRangeError):
        other.add_capsule((0, 0), (1, 0), -0.5)
    with pytest.raises(carom.InvalidPolygonError):
        other.add_capsule((0, 0), (0, 0), 0.5)


def test_a_body_lists_its_shapes_in_id_order():
    world = carom.World()
    body = world.create_body()
    made = [body.add_circle(0.5), body.add_box((1, 1), center=(3, 0)),
            body.add_capsule((0, 2), (1, 2), 0.2)]
    assert body.shapes == made
    made[1].destroy()
    assert body.shapes == [made[0], made[2]]
    body.destroy()
    with pytest.raises(carom.InvalidIdError):
        body.shapes
