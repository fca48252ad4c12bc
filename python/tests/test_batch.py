"""carom.Batch: many worlds in one C call, on threads, with stacked state."""

import json
import os

import numpy as np
import pytest

import carom
from conftest import SCENES


def variations(count):
    scene = json.loads((SCENES / "ball_drop.json").read_text())
    scenes = []
    for i in range(count):
        varied = json.loads(json.dumps(scene))
        varied["bodies"][1]["position"] = [-2, 5 + 0.25 * i]
        varied["bodies"][3]["linear_velocity"] = [0.1 * i, 0]
        scenes.append(varied)
    return scenes


def test_one_or_two_threads_give_each_world_its_lone_bits():
    scenes = variations(6)
    alone = []
    for scene in scenes:
        with carom.World.from_scene(scene) as world:
            world.step(120)
            alone.append(world.hash())
    for threads in (1, 2, 3):
        with carom.Batch(scenes, threads=threads) as batch:
            assert batch.threads == threads
            batch.step(100)
            batch.step(20)
            assert list(batch.hashes()) == alone
            state = batch.state()
            assert state["position"].shape == (6, 4, 2)
            assert state["angular_velocity"].shape == (6, 4)
            np.testing.assert_array_equal(state["position"][2], batch.worlds[2].positions)


def test_threads_none_is_one_per_core():
    with carom.Batch([], threads=None) as batch:
        assert batch.threads == (os.cpu_count() or 1)
    with pytest.raises(ValueError, match="at least 1"):
        carom.Batch([], threads=0)


def test_stacked_state_needs_equal_body_counts():
    world = carom.World()
    world.create_body(type="static").add_box((1, 1))
    with carom.Batch([SCENES / "ball_drop.json", world]) as batch:
        batch.step(2)
        with pytest.raises(ValueError, match="world 0: 4, world 1: 1"):
            batch.positions


def test_a_refused_step_names_its_world_and_the_others_go_on():
    good = carom.World()
    good.create_body().add_circle(0.5)
    massless = carom.World()
    massless.create_body().add_segment((0, 0), (1, 0))  # dynamic, without mass
    with carom.Batch([good, massless], threads=2) as batch:
        with pytest.raises(carom.NoMassError, match="world 1, step 1 of 10: .*mass"):
            batch.step(10)
        assert good.step_count == 10 and massless.step_count == 0


def test_batch_set_velocities_gives_each_world_its_own():
    with carom.Batch(variations(3)) as batch:
        linear = np.zeros((3, 4, 2))
        linear[:, 1:, 0] = np.arange(3)[:, None] + 1.0
        batch.set_velocities(linear)
        np.testing.assert_array_equal(batch.linear_velocities, linear)
        with pytest.raises(carom.NotFiniteError, match="world 2, body row 3"):
            bad = linear.copy()
            bad[2, 3, 1] = np.inf
            batch.set_velocities(bad)
        with pytest.raises(ValueError, match="shape"):
            batch.set_velocities(np.zeros((3, 4)))
