"""carom.World: keyword creation, bulk state against the C getters, errors, scenes, hashes,
snapshots, joints, events, ray casts and vehicles."""

import json
import math

import numpy as np
import pytest

import carom
from conftest import SCENES

G = 10.0
DT = 1.0 / 60.0


def ground_and_ball(y=5.0, **ball_material):
    world = carom.World(gravity=(0, -G), dt=DT)
    ground = world.create_body(type="static", name="ground")
    ground.add_box((10, 0.5), center=(0, -0.5))
    ball = world.create_body(position=(0, y), name="ball")
    ball.add_circle(0.5, **ball_material)
    return world, ground, ball


def test_bulk_state_equals_the_c_getters_body_by_body(ball_drop):
    world = carom.World.from_scene(ball_drop)
    world.step(75)
    state = world.state()
    bodies = world.bodies
    assert len(bodies) == 4 and state["position"].shape == (4, 2)
    for row, body in enumerate(bodies):
        assert tuple(state["position"][row]) == body.position
        assert tuple(state["rotation"][row]) == body.rotation
        assert state["angle"][row] == body.angle
        assert tuple(state["linear_velocity"][row]) == body.linear_velocity
        assert state["angular_velocity"][row] == body.angular_velocity
    np.testing.assert_array_equal(world.positions, state["position"])
    np.testing.assert_array_equal(world.linear_velocities, state["linear_velocity"])


def test_state_arrays_are_copies_and_out_fills_in_place(ball_drop):
    world = carom.World.from_scene(ball_drop)
    before = world.positions
    kept = before.copy()
    state = world.state()
    position_buffer = state["position"]
    world.step(30)
    np.testing.assert_array_equal(before, kept)  # a copy does not follow the world
    refreshed = world.state(out=state)
    assert refreshed["position"] is position_buffer
    assert position_buffer[1, 1] < kept[1, 1]  # the balls fell
    with pytest.raises(ValueError, match="C-contiguous float64"):
        world.state(out={"position": np.zeros((2, 2))})


def test_a_dropped_ball_falls_as_symplectic_euler_says_then_rests_on_the_ground():
    world, _, ball = ground_and_ball(y=5.0)
    world.step(30)
    # Semi-implicit Euler over n substeps of h (4 per step): v = -g h n,
    # y = y_0 - g h^2 n (n + 1) / 2.
    n, h = 30 * 4, DT / 4
    assert ball.position[1] == pytest.approx(5.0 - G * h * h * n * (n + 1) / 2, abs=1e-9)
    assert ball.linear_velocity[1] == pytest.approx(-G * h * n, abs=1e-9)
    world.step(150)
    assert ball.position[1] == pytest.approx(0.5, abs=0.01)
    assert abs(ball.linear_velocity[1]) < 0.05


def test_world_keywords_reach_the_c_world():
    world = carom.World(gravity=(1.5, -3), substeps=8, dt=0.01)
    assert world.gravity == (1.5, -3.0) and world.substeps == 8 and world.dt == 0.01
    world.substeps = 2
    assert world.substeps == 2
    with pytest.raises(TypeError, match="unknown keyword 'gravty'.*gravity"):
        carom.World(gravty=(0, -10))


def test_nan_is_refused_with_the_c_message():
    world, _, ball = ground_and_ball()
    with pytest.raises(carom.NotFiniteError, match="position") as caught:
        world.create_body(position=(math.nan, 0))
    assert isinstance(caught.value, ValueError) and caught.value.status == 3
    with pytest.raises(carom.NotFiniteError, match="velocity"):
        ball.linear_velocity = (0, math.inf)
    with pytest.raises(carom.NotFiniteError):
        ball.add_circle(math.nan)
    with pytest.raises(carom.NotFiniteError):
        world.cast_ray((math.nan, 0), (1, 0))
    with pytest.raises(carom.NotFiniteError, match="dt"):
        carom.World(dt=math.nan)


def test_out_of_range_and_bad_polygons_are_refused():
    world, ground, ball = ground_and_ball()
    with pytest.raises(carom.OutOfRangeError, match="substeps"):
        world.substeps = 100
    with pytest.raises(carom.OutOfRangeError, match="static"):
        ground.linear_velocity = (1, 0)
    with pytest.raises(carom.InvalidPolygonError, match="collinear"):
        ball.add_polygon([(0, 0), (1, 0), (2, 0)])


def test_a_stale_body_or_shape_raises_invalid_id():
    world, _, ball = ground_and_ball()
    shape = ball.add_box((0.2, 0.2))
    ball.destroy()
    for read in (lambda: ball.position, lambda: ball.mass, lambda: shape.friction):
        with pytest.raises(carom.InvalidIdError, match="destroyed") as caught:
            read()
        assert isinstance(caught.value, LookupError)
    with pytest.raises(carom.InvalidIdError):
        ball.apply_force((1, 0))
    assert len(world) == 1 and world.names == ["ground"]
    world.close()
    with pytest.raises(carom.InvalidIdError, match="world"):
        world.step()


BAD_SCENE = {
    "world": {"dt": 0},
    "bodies": [
        {"name": "ball", "shapes": [{"type": "circle", "radius": -0.5}]},
        {"name": "ball", "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], [2, 0]]}]},
    ],
}


def test_a_bad_scene_raises_every_problem_the_cli_reports(tmp_path, carom_cli):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_SCENE))
    with pytest.raises(carom.SceneError) as caught:
        carom.World.from_scene(path)
    status, stdout, stderr = carom_cli("run", path)
    assert status == 2 and stdout == ""
    assert caught.value.lines == stderr.splitlines()
    assert len(caught.value.lines) == 4
    assert "world.dt: must be > 0, got 0" in str(caught.value)
    with pytest.raises(carom.SceneError, match="<dict>: bodies\\[0\\].shapes\\[0\\].radius"):
        carom.World.from_scene(BAD_SCENE)
    with pytest.raises(carom.SceneError, match="cannot read the file"):
        carom.World.from_scene(tmp_path / "missing.json")


def test_a_refused_scene_leaves_the_world_as_it_was(ball_drop):
    world = carom.World.from_scene(ball_drop)
    world.step(10)
    before = world.hash()
    with pytest.raises(carom.SceneError):
        world.load_scene(BAD_SCENE)
    assert world.hash() == before and len(world) == 4


def test_unknown_scene_keys_are_warnings(ball_drop):
    scene = json.loads(ball_drop.read_text())
    scene["bodies"][1]["colour"] = "red"
    with pytest.warns(UserWarning, match="colour: warning: unknown key"):
        carom.World.from_scene(scene)


@pytest.mark.parametrize("scene", sorted(p.name for p in SCENES.glob("*.json")))
def test_the_hash_equals_carom_run_on_every_example_scene(scene, carom_cli):
    world = carom.World.from_scene(SCENES / scene)
    world.step(60)
    status, stdout, _ = carom_cli("run", SCENES / scene, "--steps", 60, "--hash")
    assert status == 0
    assert stdout == f"hash: {world.hash():016x}\n"
    assert world.hash_hex() == stdout.split()[1]


def test_a_snapshot_continues_bit_for_bit(carom_cli):
    world = carom.World.from_scene(SCENES / "billiards.json")
    world.step(300)
    data = world.save()
    world.step(300)
    restored = carom.World.restore(data)
    assert restored.dt == world.dt and restored.names == world.names
    assert restored.step_count == 300
    restored.step(300)
    assert restored.hash() == world.hash()
    np.testing.assert_array_equal(restored.positions, world.positions)
    _, stdout, _ = carom_cli("run", SCENES / "billiards.json", "--steps", 600, "--hash")
    assert stdout == f"hash: {restored.hash_hex()}\n"


def test_rollback_returns_to_the_saved_state_with_bodies_made_since_gone():
    world, _, ball = ground_and_ball()
    world.step(20)
    data = world.save()
    saved = world.hash()
    extra = world.create_body(position=(3, 3))
    extra.add_circle(0.25)
    world.step(20)
    world.rollback(data)
    assert world.hash() == saved and len(world) == 2 and not extra.valid
    assert ball.position[1] < 5.0  # the old ids still work


def test_corrupt_snapshots_raise_snapshot_error():
    world, _, _ = ground_and_ball()
    data = bytearray(world.save())
    data[-5] ^= 0xFF
    with pytest.raises(carom.SnapshotError, match="checksum"):
        carom.World.restore(bytes(data))
    with pytest.raises(carom.SnapshotError, match="CAROMPY"):
        carom.World.restore(b"not a snapshot")
    with pytest.raises(carom.SnapshotError, match="truncated"):
        carom.World.restore(bytes(data[:-3]))


def test_a_hinge_holds_a_swinging_box_at_its_anchor():
    world = carom.World(gravity=(0, -G))
    pin = world.create_body(type="static")
    pin.add_circle(0.05)
    box = world.create_body(position=(1.0, 0.0))
    box.add_box((0.5, 0.1))
    hinge = world.create_joint("revolute", pin, box, anchor=(0, 0))
    assert hinge.kind == "revolute" and hinge.bodies[1] == box
    lowest = 0.0
    for _ in range(60):
        world.step()
        # The box swings about the pin: its center stays 1 m away (a soft joint: 1 mm).
        x, y = box.position
        assert math.hypot(x, y) == pytest.approx(1.0, abs=1e-3)
        lowest = min(lowest, y)
    assert lowest == pytest.approx(-1.0, abs=1e-3)  # it passed the bottom, under the pin
    assert hinge.angle != 0.0
    with pytest.raises(TypeError, match="unknown keyword 'anchr'.*anchor"):
        world.create_joint("revolute", pin, box, anchr=(0, 0))
    with pytest.raises(carom.OutOfRangeError, match="the same body"):
        world.create_joint("weld", box, box)


def test_scene_joints_are_named():
    world = carom.World.from_scene(SCENES / "joints.json")
    assert world.joints and all(joint.valid for joint in world.joints.values())


def test_hit_and_begin_events_as_records():
    world, _, ball = ground_and_ball(y=2.0, enable_hit_events=True)
    speeds = []
    begins = 0
    for _ in range(60):
        world.step()
        events = world.contact_events()
        begins += len(events["begin"])
        if len(events["hit"]):
            hit = events["hit"][0]
            speeds.append(hit["approach_speed"])
            assert {hit["body_a"], hit["body_b"]} == {0, ball.row}
            assert abs(hit["normal"][1]) == pytest.approx(1.0)
    # Falling 1.5 m to touch: about sqrt(2 g h) = 5.48 m/s (one step's worth of slack).
    assert len(speeds) == 1 and speeds[0] == pytest.approx(math.sqrt(2 * G * 1.5), abs=0.2)
    assert begins == 1


def test_shapes_without_contact_events_land_unreported():
    world = carom.World(gravity=(0, -G), dt=DT)
    ground = world.create_body(type="static", name="ground")
    ground.add_box((10, 0.5), center=(0, -0.5), enable_contact_events=False)
    quiet = world.create_body(position=(-2, 1.0), name="quiet")
    quiet.add_circle(0.5, enable_contact_events=False)
    heard = world.create_body(position=(2, 1.0), name="heard")
    heard.add_circle(0.5)
    begins = []
    for _ in range(60):
        world.step()
        begins += [{event["body_a"], event["body_b"]} for event in world.contact_events()["begin"]]
    assert begins == [{ground.row, heard.row}]


def test_ray_casts_hit_the_top_of_a_box():
    world, ground, _ = ground_and_ball(y=5.0)
    world.step()  # the broad phase's grid is sized at the first step (cell_size 0)
    hits = world.cast_rays([(3, 2), (30, 2)], [(0, -4), (0, -4)])
    assert hits.dtype == carom.RAY_HIT_DTYPE and len(hits) == 2
    assert hits[0]["hit"] and hits[0]["body"] == ground.row
    np.testing.assert_allclose(hits[0]["point"], (3, 0), atol=1e-12)
    np.testing.assert_allclose(hits[0]["normal"], (0, 1), atol=1e-12)
    assert hits[0]["fraction"] == pytest.approx(0.5)
    assert not hits[1]["hit"] and hits[1]["body"] == -1
    every = world.cast_ray((0, 10), (0, -20), all=True)
    assert list(every["body"]) == [1, 0]  # the ball first, then the ground
    assert np.all(np.diff(every["fraction"]) > 0)


def test_a_car_brakes_from_30_m_s_in_the_distance_docs_racing_gives():
    world = carom.World(gravity=(0, 0))
    chassis = world.create_body()
    chassis.add_box((2.2, 0.9), density=1200 / (4.4 * 1.8))
    car = world.create_vehicle(chassis)
    chassis.linear_velocity = (30, 0)
    car.set_input(brake=1.0)
    while chassis.linear_velocity[0] > 0.01:
        world.step()
    # docs/racing.md: 45.03 m measured; v^2 / (2 grip g) = 45.87 m.
    assert chassis.position[0] == pytest.approx(45.03, abs=0.1)
    with pytest.raises(carom.OutOfRangeError, match="brake"):
        car.set_input(brake=2.0)


def test_sensor_events_name_the_sensor_and_the_visitor_by_row():
    world, ground, ball = ground_and_ball(y=4.0)
    gate = world.create_body(type="static", position=(0, 2.5))
    gate.add_box((2, 0.25), sensor=True)
    begins, ends = [], []
    for _ in range(60):
        world.step()
        events = world.sensor_events()
        begins += list(events["begin"][["sensor_body", "visitor_body"]])
        ends += list(events["end"][["sensor_body", "visitor_body"]])
    assert [tuple(e) for e in begins] == [(gate.row, ball.row)]
    assert [tuple(e) for e in ends] == [(gate.row, ball.row)]


def test_an_end_event_of_a_destroyed_body_has_row_minus_one():
    world, ground, ball = ground_and_ball(y=0.6)
    world.step(30)
    assert len(world.contact_events()["end"]) == 0
    ball.destroy()
    ends = world.contact_events()["end"]
    assert len(ends) == 1 and set(ends[0][["body_a", "body_b"]]) == {ground.row, -1}


def test_a_ring_of_rays_from_inside_a_box_sees_its_walls():
    world = carom.World(gravity=(0, 0))
    walls = world.create_body(type="static")
    walls.add_chain([(-2, -1), (2, -1), (2, 1), (-2, 1)], loop=True)
    world.step()
    angles = np.linspace(0, 2 * np.pi, 360, endpoint=False)
    directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    hits = world.cast_rays(np.zeros((360, 2)), 10.0 * directions)
    assert hits["hit"].all() and (hits["body"] == 0).all()
    distances = 10.0 * hits["fraction"]
    # The distance to the wall of a 4 m x 2 m box from its centre along each direction.
    expected = np.minimum(2 / np.maximum(np.abs(directions[:, 0]), 1e-300),
                          1 / np.maximum(np.abs(directions[:, 1]), 1e-300))
    np.testing.assert_allclose(distances, expected, rtol=1e-12)


def test_set_velocities_sets_every_body_in_one_call_and_checks_first(ball_drop):
    world = carom.World.from_scene(ball_drop)
    velocities = np.array([[0, 0], [1, 2], [-3, 0.5], [0.25, 0]])
    spins = np.array([0, 1, 2, 3.0])
    world.set_velocities(velocities, spins)
    np.testing.assert_array_equal(world.linear_velocities, velocities)
    np.testing.assert_array_equal(world.angular_velocities, spins)
    before = world.state()
    bad = velocities.astype(float)
    bad[2, 1] = np.nan
    with pytest.raises(carom.NotFiniteError, match="body row 2"):
        world.set_velocities(bad)
    with pytest.raises(carom.OutOfRangeError, match="body row 0: a static body"):
        world.set_velocities(np.ones((4, 2)))
    with pytest.raises(ValueError, match="shape"):
        world.set_velocities(np.ones((3, 2)))
    after = world.state()
    for key in before:
        np.testing.assert_array_equal(after[key], before[key])  # refusals changed nothing


def test_the_129th_world_is_refused_with_too_many_worlds():
    worlds = []
    try:
        with pytest.raises(carom.TooManyWorldsError, match="128"):
            for _ in range(129):
                worlds.append(carom.World())
        assert len(worlds) <= 128
    finally:
        for world in worlds:
            world.close()
    carom.World().close()  # closing them made room again
