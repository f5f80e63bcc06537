"""python -m glsnap.ray_tiles on a local Ray cluster (a head and a second node process, on loopback)
renders the tiles `glsnap tiles` renders on one machine, byte for byte, with an actor killed on the way.

Needs Ray (tools/test-ray.sh installs it in a venv of its own); skipped without it."""
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import EXAMPLE, ROOT, cli

ray = pytest.importorskip("ray")

# The nodes, the probes and the driver below inherit this: a loopback cluster of this test needs no
# token (Ray 2.60 turns token authentication on once a local ray.init() has written
# ~/.ray/auth_token, and then this cluster's nodes and clients disagree and cannot connect).
os.environ["RAY_AUTH_MODE"] = "disabled"
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"

# A small pyramid over the example: 49 tiles of 512 points, 15 metatiles of 2 x 2, in 3 regions (one a level).
PYRAMID = ["--bounds", "-87.70,41.85,-87.60,41.92", "--minzoom", "12", "--maxzoom", "14", "--metatile", "2"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_start(args, log):
    """`ray start --block` in a process group of its own (stopped by its id, never `ray stop`,
    which ends every Ray process of the machine)."""
    ray_cli = os.path.join(os.path.dirname(sys.executable), "ray")
    return subprocess.Popen([ray_cli, "start", "--block", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                             "--object-store-memory=100000000", "--disable-usage-stats",
                             f"--dashboard-agent-listen-port={free_port()}", *args],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def cpus(address: str) -> float:
    probe = subprocess.run([sys.executable, "-c", "import ray; ray.init(address=%r, logging_level='ERROR'); "
                            "print(ray.cluster_resources().get('CPU', 0))" % address],
                           capture_output=True, text=True, timeout=60)
    return float(probe.stdout.strip() or 0) if probe.returncode == 0 else 0


@pytest.fixture(scope="module")
def cluster():
    # A short temporary folder: Ray's socket paths must stay under the 107 bytes of sun_path.
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    port = free_port()
    address = f"127.0.0.1:{port}"
    log = open(os.path.join(temp, "nodes.log"), "wb")
    nodes = [ray_start(["--head", f"--port={port}", "--include-dashboard=false", f"--temp-dir={temp}"], log)]
    try:
        started = time.monotonic()
        while cpus(address) < 1:
            assert time.monotonic() - started < 90, "the Ray head did not start"
            time.sleep(1)
        nodes.append(ray_start([f"--address={address}"], log))
        while cpus(address) < 2:
            assert time.monotonic() - started < 120, "the second Ray node did not join"
            time.sleep(1)
        yield address
    finally:
        for p in reversed(nodes):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in reversed(nodes):
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        # Ray's daemons outlive `ray start` by a few seconds; they are in its process group.
        for p in nodes:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def archive(path: str):
    c = sqlite3.connect(path)
    try:
        tiles = {(z, x, y): bytes(d) for z, x, y, d in c.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
        metadata = dict(c.execute("SELECT name, value FROM metadata"))
    finally:
        c.close()
    return tiles, metadata


def test_ray_cluster_renders_glsnap_tiles_bytes(cluster, tmp_path):
    single = tmp_path / "single.mbtiles"
    t0 = time.monotonic()
    subprocess.run([cli(), "tiles", "--style", EXAMPLE, *PYRAMID, "--quiet", "-o", str(single)], check=True,
                   capture_output=True, cwd=ROOT)
    single_seconds = time.monotonic() - t0
    out = tmp_path / "ray.mbtiles"
    t0 = time.monotonic()
    # Blocks of one metatile, and the first actor dies after its second block: its blocks are given again.
    run = subprocess.run([sys.executable, "-m", "glsnap.ray_tiles", "--style", EXAMPLE, *PYRAMID, "--address", cluster,
                          "--block", "1", "--glsnap", cli(), "--test-kill-actor-after", "2", "--quiet", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    ray_seconds = time.monotonic() - t0
    assert run.returncode == 0, run.stderr[-3000:]
    print(f"glsnap tiles: {single_seconds:.1f} s; ray_tiles on 2 nodes: {ray_seconds:.1f} s; {run.stdout.strip()}")
    assert "by 2 actors on 2 nodes" in run.stdout, run.stdout
    assert " 0 blocks given again" not in run.stdout, "the killed actor's blocks were not given again"
    ours, our_metadata = archive(str(out))
    theirs, their_metadata = archive(str(single))
    assert len(theirs) == 49
    assert sorted(ours) == sorted(theirs)
    differing = [k for k in theirs if ours[k] != theirs[k]]
    assert not differing, f"{len(differing)} tiles differ, e.g. {differing[:3]}"
    assert our_metadata == their_metadata
