"""glsnap.ray_tiles' blocks (depth-first order) and the actors' runs of them; no Ray needed."""
import glsnap
from conftest import EXAMPLE
from glsnap.ray_tiles import Runs, blocks, parse_args, pyramid_of


def plan_of(metatile=2, minzoom=12, maxzoom=15):
    a = parse_args(["--style", EXAMPLE, "--bounds", "-87.70,41.85,-87.60,41.92", "--minzoom", str(minzoom),
                    "--maxzoom", str(maxzoom), "--metatile", str(metatile), "-o", "/nonexistent/out.mbtiles"])
    with glsnap.Renderer(EXAMPLE, workers=1) as r:
        return a, r.tiles_plan(pyramid_of(a))


def test_blocks_go_depth_first_and_cover_the_plan_once():
    a, plan = plan_of()
    order = blocks(plan, plan["shard"], a.metatile, 1, a.minzoom)
    numbers = [n for b in order for n in b]
    assert sorted(numbers) == list(range(len(plan["metatiles"])))
    # A preorder walk: the block last seen one level up is always this block's parent (the cell
    # of 2 x 2 cells holding it).
    last = {}
    zooms = []
    for b in order:
        z, x0, _, y0, _, _ = plan["metatiles"][b[0]]
        cell = (x0 // a.metatile, y0 // a.metatile)
        if z > a.minzoom:
            assert last[z - 1] == (cell[0] >> 1, cell[1] >> 1), (z, cell, last)
        last[z] = cell
        zooms.append(z)
    # Depth first: the levels alternate, not all of z12 then all of z13.
    assert zooms != sorted(zooms)
    assert zooms[0] == a.minzoom


def test_runs_give_every_block_once_and_steal_the_back_half():
    runs = Runs(10, 3)
    assert runs.runs == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]
    got = [runs.next(0) for _ in range(3)]
    assert got == [0, 1, 2]
    assert runs.next(0) == 8, "an empty run takes the back half of the longest (6 7 | 8 9)"
    runs.again(1)
    assert runs.next(2) == 1, "blocks given again go first"
    rest = []
    for actor in (1, 2, 0, 1, 2, 0, 1, 2, 0):
        n = runs.next(actor)
        if n is not None:
            rest.append(n)
    assert sorted(rest) == [3, 4, 5, 6, 7, 9], "the rest, each once"
    assert runs.next(0) is None


def test_bounds_may_start_with_a_minus():
    a = parse_args(["--style", EXAMPLE, "--bounds", "-87.7,-41.85,-87.6,41.92", "--minzoom", "1", "--maxzoom", "2",
                    "-o", "/nonexistent/out.mbtiles"])
    assert a.bounds == [-87.7, -41.85, -87.6, 41.92]
