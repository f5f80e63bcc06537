"""A thousand renders in four threads through one Renderer keep the resident memory flat."""
import concurrent.futures as cf
import os

import glsnap
from conftest import EXAMPLE

CAMERAS = [(-87.65 + 0.01 * (i % 4), 41.87 + 0.01 * (i // 4), 13 + 0.5 * (i % 3)) for i in range(8)]


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_thousand_renders_in_four_threads_keep_rss_flat():
    r = glsnap.Renderer(EXAMPLE, workers=2, width=64, height=64)

    def run(n):
        for i in range(n):
            lon, lat, zoom = CAMERAS[i % len(CAMERAS)]
            if i % 2:
                assert r.render(lon=lon, lat=lat, zoom=zoom)[:4] == b"\x89PNG"
            else:
                assert r.snapshot(lon=lon, lat=lat, zoom=zoom).array.shape == (64, 64, 4)

    with cf.ThreadPoolExecutor(4) as ex:
        list(ex.map(run, [50] * 4))  # warm-up: contexts, caches, allocator arenas
        warm = rss()
        list(ex.map(run, [250] * 4))
    grown = rss() - warm
    r.close()
    assert grown < 8 << 20, f"RSS grew {grown >> 20} MiB over 1000 renders"
