"""`glsnap tiles` over a Ray cluster: one pyramid rendered by actors on many machines.

    python -m glsnap.ray_tiles --style STYLE.json (--bounds W,S,E,N | --fit-data SOURCE) --minzoom A --maxzoom B
        [--tile-size 256|512] [--ratio R] [--format png|jpeg|webp] [--metatile N] [--shard I/N]
        [--address RAY_ADDRESS] [--actors N] [--block B] [--retries R] [--shared-dir DIR]
        [--glsnap PATH] [--backend osmesa|egl] [--strict] [--quiet] -o OUT

The options are `glsnap tiles`' and the tiles are its bytes: every actor renders through the same
library calls (`Renderer.tiles_render`, glsnap_tiles_render), where labels are placed per
placement region whatever metatiles one call is given, so no split of the work changes a tile.

- Actors: `--actors` (default: one per CPU of the cluster), each a process holding one warm
  snapshotter (style loaded, tile and symbol caches, each zoom level's placement region kept
  between blocks), spread over the nodes.
- Blocks: the pyramid's metatiles grouped into squares of B x B metatiles (`--block`, default 2)
  of one placement region, ordered depth first: a block, then the blocks of the next zoom level
  under it, and so on down, so the source tiles a block decoded are still in the actor's caches
  for the levels below. Each actor takes the blocks of its own run of that order, one after the
  other; an actor that runs out takes the back half of the longest run left.
- Retries: a block whose call fails is given again (to any actor) up to `--retries` times (default
  3); an actor that dies is replaced and its blocks in flight are given again (with its shard, the
  blocks it had finished when its shard is not in `--shared-dir`).
- Shards: each actor writes an MBTiles shard (`--shared-dir`, a folder every node and the driver
  see, e.g. NFS or a Kubernetes volume; else a temporary folder on the actor's node, which the
  driver then reads through Ray in 16 MiB pieces). At the end `glsnap tiles merge` (the CLI:
  `--glsnap`, default `glsnap` on PATH) merges them into OUT (.mbtiles, .pmtiles or a folder).

The style and what it reads (MBTiles, glyphs, sprites) must be at the same path on every node.
Ray is not a dependency of the glsnap package: `pip install ray` beside it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

READ_CHUNK = 16 << 20  # bytes of a shard passed through Ray at a time


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m glsnap.ray_tiles",
                                 description="glsnap tiles over a Ray cluster (see the module's documentation)")
    ap.add_argument("--style", required=True, help="style file (the same path on every node)")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--bounds", help="west,south,east,north of the tiles to render")
    where.add_argument("--fit-data", help="a source of the style whose data to cover")
    ap.add_argument("--minzoom", type=int, required=True)
    ap.add_argument("--maxzoom", type=int, required=True)
    ap.add_argument("--tile-size", type=int, default=512, choices=(256, 512))
    ap.add_argument("--ratio", type=float, default=1)
    ap.add_argument("--format", default="png", choices=("png", "jpeg", "jpg", "webp"))
    ap.add_argument("--metatile", type=int, default=4, help="tiles per side rendered in one frame (default 4)")
    ap.add_argument("--shard", help="I/N: only the I-th of N fixed shares of the metatiles, as glsnap tiles --shard")
    ap.add_argument("--backend", default="osmesa", choices=("osmesa", "egl"))
    ap.add_argument("--strict", action="store_true", help="fail on a source or tile that cannot be read")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("-o", "--output", required=True, help="NAME.mbtiles, NAME.pmtiles or a folder (must not exist)")
    ap.add_argument("--address", help="the Ray cluster (ray.init's address: HOST:PORT, ray://HOST:10001, auto); "
                                      "default: a Ray started for this run on this machine")
    ap.add_argument("--actors", type=int, help="actors (default: one per CPU of the cluster)")
    ap.add_argument("--block", type=int, default=2, help="metatiles per side of a block of work (default 2)")
    ap.add_argument("--retries", type=int, default=3, help="times a failed block is given again (default 3)")
    ap.add_argument("--shared-dir", help="a folder every node and the driver see, for the shards")
    ap.add_argument("--glsnap", default=os.environ.get("GLSNAP_CLI", "glsnap"), help="the glsnap CLI that merges")
    ap.add_argument("--test-kill-actor-after", type=int, metavar="N",
                    help="testing: the first actor exits (os._exit) after N blocks, to exercise the retries")
    # As glsnap's own options: a value may start with "-" (--bounds -87.7,41.8,...), which argparse
    # would read as an option; such values are attached with "=".
    args = list(sys.argv[1:] if argv is None else argv)
    for i in range(len(args) - 1, 0, -1):
        if args[i - 1] in ("--bounds", "--ratio") and args[i][:1] == "-" and args[i][1:2].isdigit():
            args[i - 1:i + 1] = [f"{args[i - 1]}={args[i]}"]
    a = ap.parse_args(args)
    if a.bounds is not None:
        try:
            a.bounds = [float(v) for v in a.bounds.split(",")]
        except ValueError:
            ap.error(f"--bounds must be four numbers west,south,east,north, got {a.bounds!r}")
        if len(a.bounds) != 4:
            ap.error(f"--bounds must be four numbers west,south,east,north, got {len(a.bounds)}")
    if a.shard is not None:
        parts = a.shard.split("/")
        if len(parts) != 2 or not all(p.isdigit() for p in parts) or not 1 <= int(parts[0]) <= int(parts[1]):
            ap.error(f"--shard expects I/N with 1 <= I <= N, got {a.shard!r}")
        a.shard = [int(parts[0]), int(parts[1])]
    for name in ("actors", "block"):
        if getattr(a, name) is not None and getattr(a, name) < 1:
            ap.error(f"--{name} must be at least 1")
    if a.retries < 0:
        ap.error("--retries must be at least 0")
    if os.path.exists(a.output):
        ap.error(f"{a.output} exists: remove it or choose another output")
    a.style = os.path.abspath(a.style)
    return a


def pyramid_of(a: argparse.Namespace) -> dict:
    """The pyramid as glsnap_tiles_plan reads it."""
    p = {"minzoom": a.minzoom, "maxzoom": a.maxzoom, "tileSize": a.tile_size, "ratio": a.ratio,
         "metatile": a.metatile, "format": "jpeg" if a.format == "jpg" else a.format, "stylePath": a.style}
    if a.bounds is not None:
        p["bounds"] = a.bounds
    else:
        p["fitData"] = a.fit_data
    if a.shard:
        p["shard"] = a.shard
    return p


# MARK: blocks and their order

def blocks(plan: dict, numbers: Sequence[int], metatile: int, block: int, minzoom: int) -> List[List[int]]:
    """The metatiles `numbers` (of plan["metatiles"]) grouped into blocks of `block` x `block`
    metatiles of one region, in depth-first order.

    A block is a cell of a grid of block·metatile tiles a side aligned to the tile grid, so a cell
    at zoom z covers the area of 2 x 2 cells at z + 1: the cell's ancestors are (cx >> d, cy >> d)
    d levels up. Sorting by the list of ancestors from `minzoom` down puts each block before the
    blocks under it and finishes a subtree before the next (a preorder walk)."""
    metatiles = plan["metatiles"]
    cells: Dict[Tuple[int, int, int, int], List[int]] = {}
    for n in numbers:
        z, x0, _, y0, _, region = metatiles[n]
        side = metatile * block
        cells.setdefault((z, x0 // side, y0 // side, region), []).append(n)

    def key(cell):
        z, cx, cy, region = cell
        return [(cx >> (z - k), cy >> (z - k)) for k in range(minzoom, z + 1)] + [(region, 0)]
    return [cells[c] for c in sorted(cells, key=key)]


class Runs:
    """Each actor's run of the block order, and stealing: an actor whose run is empty takes the
    back half of the longest run left (so it still works on one subtree)."""

    def __init__(self, count: int, actors: int):
        self.runs: List[List[int]] = []
        for i in range(actors):
            start, end = count * i // actors, count * (i + 1) // actors
            self.runs.append(list(range(start, end)))
        self.retry: List[int] = []  # blocks to give again, before any run's next

    def next(self, actor: int) -> Optional[int]:
        if self.retry:
            return self.retry.pop(0)
        while actor >= len(self.runs):
            self.runs.append([])
        if not self.runs[actor]:
            longest = max(range(len(self.runs)), key=lambda i: len(self.runs[i]))
            run = self.runs[longest]
            if not run:
                return None
            half = (len(run) + 1) // 2
            self.runs[actor], self.runs[longest] = run[len(run) - half:], run[:len(run) - half]
        return self.runs[actor].pop(0)

    def again(self, block: int) -> None:
        self.retry.append(block)


# MARK: the actor

def make_actor_class(ray):
    @ray.remote(num_cpus=1, max_restarts=0, max_concurrency=1)
    class TileActor:
        """A warm snapshotter rendering blocks into its MBTiles shard."""

        def __init__(self, style: str, pyramid: dict, backend: str, strict: bool, shard_dir: Optional[str], name: str,
                     kill_after: Optional[int]):
            # One actor per core: each rasterizes on its own thread (llvmpipe's threads would share the core).
            os.environ.setdefault("LP_NUM_THREADS", "0")
            import glsnap
            import socket
            self.pyramid = pyramid
            self.renderer = glsnap.Renderer(style, workers=1, width=pyramid["tileSize"], height=pyramid["tileSize"],
                                            ratio=pyramid["ratio"], backend=backend, draw_on_calling_thread=True,
                                            skip_source_errors=not strict)
            folder = shard_dir or tempfile.mkdtemp(prefix="glsnap-ray-")
            self.path = os.path.join(folder, f"{name}.mbtiles")
            self.node = socket.gethostname() + ":" + ray.get_runtime_context().get_node_id()[:8]
            self.done = 0
            self.kill_after = kill_after
            self.seconds = 0.0

        def render(self, numbers: List[int]) -> dict:
            t0 = time.monotonic()
            result = self.renderer.tiles_render(self.pyramid, numbers, self.path)
            self.seconds += time.monotonic() - t0
            self.done += 1
            if self.kill_after is not None and self.done >= self.kill_after:
                os._exit(3)  # testing: die as a crashed process would, without answering
            return result

        def shard(self) -> dict:
            return {"path": self.path, "node": self.node, "size": os.path.getsize(self.path) if os.path.exists(self.path) else 0,
                    "seconds": self.seconds, "blocks": self.done}

        def read(self, offset: int, length: int) -> bytes:
            with open(self.path, "rb") as f:
                f.seek(offset)
                return f.read(length)

    return TileActor


# MARK: the driver

class Driver:
    def __init__(self, a: argparse.Namespace, ray):
        self.a, self.ray = a, ray
        self.pyramid = pyramid_of(a)
        self.Actor = make_actor_class(ray)
        self.names = 0
        self.dead_shards: List[dict] = []

    def new_actor(self, kill_after: Optional[int] = None):
        self.names += 1
        name = f"shard-{self.names:04d}-{os.getpid()}"
        actor = self.Actor.options(scheduling_strategy="SPREAD").remote(
            self.a.style, self.pyramid, self.a.backend, self.a.strict, self.a.shared_dir, name, kill_after)
        return actor, name

    def run(self) -> int:
        ray, a = self.ray, self.a
        import glsnap
        started = time.monotonic()
        with glsnap.Renderer(a.style, workers=1, width=a.tile_size, height=a.tile_size, ratio=a.ratio,
                             skip_source_errors=not a.strict) as planner:
            plan = planner.tiles_plan(self.pyramid)
        order = blocks(plan, plan["shard"], a.metatile, a.block, a.minzoom)
        tiles_of = [sum((m[2] - m[1] + 1) * (m[4] - m[3] + 1) for m in (plan["metatiles"][n] for n in b)) for b in order]
        total = sum(tiles_of)
        count = a.actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = min(count, max(1, len(order)))
        actors = {}
        for i in range(count):
            actors[i] = self.new_actor(a.test_kill_actor_after if i == 0 else None)
        runs = Runs(len(order), count)
        tries = [0] * len(order)
        finished_by: Dict[int, List[int]] = {i: [] for i in actors}  # slot -> blocks finished in its current shard
        pending = {}  # ObjectRef -> (slot, block)
        done_tiles, retried, warnings = 0, 0, []
        last_line = 0.0
        if not a.quiet:
            print(f"glsnap.ray_tiles: {total} tiles in {len(order)} blocks of up to {a.block}x{a.block} metatiles, "
                  f"{count} actors", file=sys.stderr, flush=True)

        def give(slot: int, depth: int = 2):
            """Keeps `depth` blocks queued on the actor (it runs them one after the other)."""
            while sum(1 for s, _ in pending.values() if s == slot) < depth:
                b = runs.next(slot)
                if b is None:
                    return
                ref = actors[slot][0].render.remote(order[b])
                pending[ref] = (slot, b)

        for slot in actors:
            give(slot)
        shards: List[dict] = []
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            slot, b = pending.pop(ref)
            try:
                result = ray.get(ref)
            except ray.exceptions.RayActorError as e:
                # The actor is gone: its queued blocks (and, unless its shard is shared, its finished
                # ones) are given again, and a fresh actor takes its slot.
                lost = [bb for r, (s, bb) in list(pending.items()) if s == slot]
                for r in [r for r, (s, _) in pending.items() if s == slot]:
                    pending.pop(r)
                lost.append(b)
                if a.shared_dir:
                    self.dead_shards.append({"path": os.path.join(a.shared_dir, actors[slot][1] + ".mbtiles")})
                else:
                    lost += finished_by[slot]
                    done_tiles -= sum(tiles_of[x] for x in finished_by[slot])
                for bb in lost:
                    tries[bb] += 1
                    if tries[bb] > a.retries:
                        raise SystemExit(f"glsnap.ray_tiles: block {bb} failed {tries[bb]} times; last: {e}")
                    runs.again(bb)
                retried += len(lost)
                finished_by[slot] = []
                actors[slot] = self.new_actor()
                if not a.quiet:
                    print(f"glsnap.ray_tiles: an actor died ({type(e).__name__}); {len(lost)} blocks given again",
                          file=sys.stderr, flush=True)
            except ray.exceptions.RayTaskError as e:
                tries[b] += 1
                if tries[b] > a.retries:
                    raise SystemExit(f"glsnap.ray_tiles: block {b} failed {tries[b]} times; last: {e.cause if hasattr(e, 'cause') else e}")
                retried += 1
                runs.again(b)
            else:
                finished_by[slot].append(b)
                done_tiles += tiles_of[b]
                warnings += [w for w in result.get("warnings", []) if w not in warnings]
            give(slot)
            for s in actors:
                give(s)
            now = time.monotonic()
            if not a.quiet and (now - last_line >= 5 or not pending):
                last_line = now
                rate = done_tiles / max(1e-9, now - started)
                left = (total - done_tiles) / rate if rate > 0 else 0
                print(f"glsnap.ray_tiles: tiles {done_tiles}/{total}, {rate:.1f} tiles/s, {int(left) // 60}:{int(left) % 60:02d} left",
                      file=sys.stderr, flush=True)
        rendered_in = time.monotonic() - started
        for w in warnings:
            print(f"glsnap: warning: {w}", file=sys.stderr)

        # The shards: read in place from the shared folder, else fetched from each actor's node.
        work = tempfile.mkdtemp(prefix="glsnap-ray-merge-")
        try:
            paths, nodes = [], set()
            infos = ray.get([actor.shard.remote() for actor, _ in actors.values()])
            for info in infos:
                nodes.add(info["node"])
                if not info["size"]:
                    continue
                if a.shared_dir:
                    paths.append(info["path"])
                    continue
                local = os.path.join(work, os.path.basename(info["path"]))
                actor = next(act for act, name in actors.values() if info["path"].endswith(name + ".mbtiles"))
                with open(local, "wb") as f:
                    offset = 0
                    while offset < info["size"]:
                        piece = ray.get(actor.read.remote(offset, READ_CHUNK))
                        if not piece:
                            break
                        f.write(piece)
                        offset += len(piece)
                paths.append(local)
            paths += [d["path"] for d in self.dead_shards if os.path.exists(d["path"])]
            if not paths:
                raise SystemExit("glsnap.ray_tiles: no tiles were rendered")
            cli = shutil.which(a.glsnap) or a.glsnap
            merge = subprocess.run([cli, "tiles", "merge", *paths, "-o", a.output], capture_output=True, text=True)
            if merge.returncode != 0:
                raise SystemExit(f"glsnap.ray_tiles: {cli} tiles merge failed ({merge.returncode}): {merge.stderr.strip()}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        seconds = time.monotonic() - started
        print(f"wrote {a.output} ({done_tiles} tiles by {count} actors on {len(nodes)} nodes, "
              f"{rendered_in:.1f} s rendering + {seconds - rendered_in:.1f} s merging, {done_tiles / max(1e-9, rendered_in):.2f} tiles/s, "
              f"{retried} blocks given again)")
        return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = parse_args(argv)
    try:
        import ray
    except ImportError:
        print("glsnap.ray_tiles needs Ray: pip install ray", file=sys.stderr)
        return 2
    # The merge runs at the end: a missing CLI is said before anything is rendered.
    if not (shutil.which(a.glsnap) or os.access(a.glsnap, os.X_OK)):
        print(f"glsnap.ray_tiles: no glsnap CLI at {a.glsnap!r} to merge the shards (--glsnap PATH or GLSNAP_CLI)", file=sys.stderr)
        return 2
    import glsnap
    ray.init(address=a.address, logging_level="WARNING", log_to_driver=not a.quiet)
    try:
        return Driver(a, ray).run()
    except glsnap.GLSnapError as e:
        print(f"glsnap.ray_tiles: {e}", file=sys.stderr)
        return 1
    finally:
        ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())
