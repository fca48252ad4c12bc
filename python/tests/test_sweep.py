"""carom.sweep: the same results on a Dask LocalCluster as in one process, and as CSV."""

import csv

import pytest

import carom
from conftest import SCENES

distributed = pytest.importorskip("distributed")


def drop(world, height):
    """Drop the first ball from `height` (m); report where the second is after 2 s."""
    world.body("dead").set_transform((-2, height), 0)
    world.step(120)
    return {"final_y": world.body("dead").position[1], "half_y": world.body("half").position[1]}


PARAMS = carom.grid(height=[2.0, 3.0, 4.0, 5.0, 6.0, 7.0])


def test_a_local_cluster_of_two_workers_gives_the_serial_hashes(tmp_path):
    serial = carom.sweep(SCENES / "ball_drop.json", PARAMS, run=drop, client="serial")
    assert [row["height"] for row in serial] == [p["height"] for p in PARAMS]
    assert len({row["hash"] for row in serial}) == len(PARAMS)  # each height its own end
    path = tmp_path / "results.csv"
    parallel = carom.sweep(SCENES / "ball_drop.json", PARAMS, run=drop, workers=2, csv=path,
                           progress=False)
    assert parallel == serial
    with open(path) as file:
        rows = list(csv.DictReader(file))
    assert [row["hash"] for row in rows] == [row["hash"] for row in serial]
    assert [float(row["final_y"]) for row in rows] == [row["final_y"] for row in serial]


def test_without_run_it_takes_steps_and_the_hash_is_the_cli_one(carom_cli):
    rows = carom.sweep(SCENES / "ball_drop.json", [{}], steps=90, client="serial")
    _, stdout, _ = carom_cli("run", SCENES / "ball_drop.json", "--steps", 90, "--hash")
    assert stdout == f"hash: {rows[0]['hash']}\n" and rows[0]["steps"] == 90


def test_a_figure_named_like_a_parameter_is_refused():
    with pytest.raises(ValueError, match="'height'"):
        carom.sweep(SCENES / "ball_drop.json", [{"height": 1}],
                    run=lambda world, height: {"height": 2}, client="serial")


def test_a_run_that_raises_on_a_worker_raises_here():
    def fails_high(world, height):
        if height > 4:
            raise RuntimeError(f"too high: {height}")
        return {}

    with pytest.raises(RuntimeError, match="too high: 5"):
        carom.sweep(SCENES / "ball_drop.json", [{"height": 1.0}, {"height": 5.0}],
                    run=fails_high, workers=1, progress=False)
