"""Scene vehicles from Python (issue 16): a loaded scene's vehicles are in world.vehicles, and
World.step and Batch.step follow their control scripts as `carom run` does, so the racing model
(scenes/racing_model.json) batch-runs with a parameter varied and no C written."""

import json

import carom

from conftest import SCENES

RACING_MODEL = SCENES / "racing_model.json"
BRAKE_START = 32.07170907540415  # m: both cars at step 240, when the script brakes


def racing_model(grass_grip):
    """The racing model with another surface grip on the grass (the track's third shape)."""
    scene = json.loads(RACING_MODEL.read_text())
    scene["bodies"][0]["shapes"][2]["surface_grip"] = grass_grip
    return scene


def test_the_script_runs_as_carom_run_runs_it_however_the_steps_are_taken(carom_cli):
    status, out, _ = carom_cli("run", RACING_MODEL, "--steps", "600", "--hash")
    assert status == 0
    whole = carom.World.from_scene(RACING_MODEL)
    whole.step(600)
    assert f"hash: {whole.hash():016x}\n" == out
    one_by_one = carom.World.from_scene(RACING_MODEL)
    for _ in range(600):
        one_by_one.step()
    assert one_by_one.hash() == whole.hash()
    with carom.Batch([RACING_MODEL, racing_model(0.6)], threads=2) as batch:
        batch.step(239)  # stretches ending just before, at and after the brake entry
        batch.step(2)
        batch.step(359)
        assert [int(h) for h in batch.hashes()] == [whole.hash(), whole.hash()]


def test_scene_vehicles_are_named_by_their_body_and_driven_by_the_script():
    world = carom.World.from_scene(RACING_MODEL)
    assert sorted(world.vehicles) == ["grass", "tarmac"]
    world.step(240)
    assert world.vehicles["grass"].state["forward_speed"] > 15.0
    world.step(60)
    state = world.vehicles["grass"].state
    assert [wheel["surface_grip"] for wheel in state["wheels"]] == [0.6] * 4
    assert state["forward_speed"] < 10.0  # braking


def test_a_batch_over_grass_grip_stops_in_about_v2_over_2_grip_g():
    grips = [0.3, 0.45, 0.6, 0.8, 1.0]
    with carom.Batch([racing_model(g) for g in grips], threads=2) as batch:
        batch.step(900)
        x = batch.state()["position"][:, :, 0]
    speed, g = 15.95322839918926, 9.81
    tarmac = x[0, 1] - BRAKE_START
    distances = [grass - BRAKE_START for grass in x[:, 2]]
    assert all(row[1] == x[0, 1] for row in x)  # the tarmac car is the same in every world
    assert distances == sorted(distances, reverse=True)  # less grip, longer
    assert abs(distances[-1] - tarmac) < 1e-9  # grip 1 on the grass is tarmac
    for grip, distance in zip(grips, distances):
        limit = speed ** 2 / (2 * grip * g)
        assert 0.9 * limit < distance < limit, (grip, distance, limit)


def test_rollback_into_the_loaded_scene_goes_on_with_the_script():
    world = carom.World.from_scene(RACING_MODEL)
    world.step(200)
    data = world.save()
    world.step(400)
    again = carom.World.from_scene(RACING_MODEL)
    again.rollback(data)
    assert again.step_count == 200
    again.step(400)
    assert again.hash() == world.hash()
