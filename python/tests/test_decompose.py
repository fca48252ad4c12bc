"""Body.add_decomposed_polygon: a concave outline as convex pieces on one body (issue 16)."""

import pytest

import carom

U = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]


def test_a_u_becomes_three_pieces_with_the_outlines_mass():
    world = carom.World(gravity=(0, -10), dt=1 / 60)
    body = world.create_body(position=(0, 5))
    pieces = body.add_decomposed_polygon(U, density=2.0, friction=0.3)
    assert len(pieces) == 3
    assert all(piece.type == "polygon" and piece.friction == 0.3 for piece in pieces)
    assert body.mass == pytest.approx(2.0 * 7.0, rel=1e-12)  # the U's area is 9 - 2 = 7 m²
    clockwise = world.create_body(position=(5, 5)).add_decomposed_polygon(U[::-1])
    assert len(clockwise) == 3


def test_a_bow_tie_is_refused_naming_its_crossing_edges():
    world = carom.World()
    body = world.create_body()
    with pytest.raises(carom.InvalidPolygonError, match=r"edges 0 .* and 2 .* cross each other"):
        body.add_decomposed_polygon([(0, 0), (1, 1), (1, 0), (0, 1)])


def test_a_scene_with_decompose_loads_and_the_star_rests_on_the_heptagon():
    from conftest import SCENES
    world = carom.World.from_scene(SCENES / "star.json")
    world.step(150)
    star = next(body for body in world.bodies if body.name == "star")
    assert not star.awake
    assert star.position[1] == pytest.approx(4.321, abs=0.002)  # on two tips, 1.618 m below
