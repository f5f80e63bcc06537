"""glsnap.Map renders what `glsnap render` renders for the same camera."""
import json
import subprocess

import numpy as np
import pytest

import glsnap
from conftest import BOX_STYLE, EXAMPLE, cli, mismatch, read_png

# (longitude, latitude, zoom, bearing, pitch, width, height, ratio)
CAMERAS = [
    (-87.65, 41.87, 14, 0, 0, 256, 256, 1),
    (-87.63, 41.88, 15.5, 0, 0, 300, 200, 1),
    (-87.64, 41.875, 13, 45, 0, 256, 256, 1),
    (-87.62, 41.89, 14.5, -30, 50, 256, 192, 1),
    (-87.66, 41.86, 14, 10, 20, 160, 128, 2),
]


@pytest.mark.parametrize("camera", CAMERAS, ids=[f"z{c[2]}-b{c[3]}-p{c[4]}-{c[5]}x{c[6]}@{c[7]}" for c in CAMERAS])
def test_matches_cli(camera, tmp_path):
    lon, lat, zoom, bearing, pitch, w, h, ratio = camera
    out = tmp_path / "cli.png"
    subprocess.run([cli(), "render", "--style", EXAMPLE, "--center", f"{lon},{lat}", "--zoom", str(zoom),
                    "--bearing", str(bearing), "--pitch", str(pitch), "--size", f"{w}x{h}", "--ratio", str(ratio),
                    "-o", str(out)], check=True, capture_output=True)
    m = glsnap.Map(EXAMPLE, w, h, ratio, lon, lat, zoom)
    m.setBearing(bearing)
    m.setPitch(pitch)
    ours = read_png(m.renderPNG())
    theirs = read_png(out.read_bytes())
    assert ours.shape == (int(h * ratio), int(w * ratio), 4)
    assert mismatch(ours, theirs) <= 0.0001
    # The numpy view holds the same pixels as the PNG.
    assert np.array_equal(m.renderBuffer(), ours)


def test_formats_and_snapshot():
    m = glsnap.Map(json.dumps(BOX_STYLE), 128, 64, 2)
    assert m.render("png")[:4] == b"\x89PNG"
    assert m.render("jpeg")[:2] == b"\xff\xd8"
    assert m.render("webp")[8:12] == b"WEBP"
    s = m.snapshot()
    assert (s.width, s.height, s.pixel_ratio) == (256, 128, 2)
    a = s.array
    assert a.shape == (128, 256, 4) and not a.flags.writeable
    assert tuple(a[64, 128]) == (0, 0, 255, 255) and tuple(a[1, 1]) == (255, 0, 0, 255)
    assert s.pixels == a.tobytes()
    assert s.point_for(0, 0) == pytest.approx((64, 32))
    assert s.coordinate_for(64, 32) == pytest.approx((0, 0), abs=1e-9)
    del s  # the view keeps the pixels alive
    assert tuple(a[64, 128]) == (0, 0, 255, 255)


def test_style_changes_take_effect():
    m = glsnap.Map(BOX_STYLE, 64, 64)
    m.setPaintProperty("fill", "fill-color", '"#00ff00"')
    assert tuple(m.renderBuffer()[32, 32]) == (0, 255, 0, 255)
    m.setFilter("fill", '["==", "$type", "Point"]')
    assert tuple(m.renderBuffer()[32, 32]) == (255, 0, 0, 255)
    assert json.loads(m.getFilter("fill")) == ["==", "$type", "Point"]
    m.setFilter("fill", None)
    m.setVisibility("fill", False)
    assert not m.getVisibility("fill")
    assert tuple(m.renderBuffer()[32, 32]) == (255, 0, 0, 255)
    m.addSource("dot", json.dumps({"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}))
    m.addLayer(json.dumps({"id": "dot", "type": "circle", "source": "dot",
                           "paint": {"circle-color": "#ffffff", "circle-radius": 10}}))
    assert m.listLayers() == ["bg", "fill", "dot"]
    assert m.listSources() == ["box", "dot"]
    assert tuple(m.renderBuffer()[32, 32]) == (255, 255, 255, 255)
    m.removeLayer("dot")
    m.setLayoutProperty("fill", "visibility", '"visible"')
    assert tuple(m.renderBuffer()[32, 32]) == (0, 255, 0, 255)


def test_add_image_and_bounds():
    m = glsnap.Map(BOX_STYLE, 64, 64)
    m.addImage("white", b"\xff" * (8 * 8 * 4), 8, 8)
    m.addSource("p", {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}})
    m.addLayer({"id": "icon", "type": "symbol", "source": "p", "layout": {"icon-image": "white"}})
    assert tuple(m.renderBuffer()[32, 32]) == (255, 255, 255, 255)
    m.setBounds(-20, -20, 20, 20)
    assert m.center == pytest.approx((0, 0), abs=1e-9)
    assert 0 < m.zoom < 3


def test_render_tile_matches_render():
    r = glsnap.Renderer(BOX_STYLE, workers=1)
    tile = read_png(r.render_tile(1, 1, 1, size=256))
    assert tile.shape == (256, 256, 4)
    # Tile 1/1/1 has 0,0 at its top-left corner: the box's blue there, red at the far corner.
    assert tuple(tile[2, 2]) == (0, 0, 255, 255) and tuple(tile[250, 250]) == (255, 0, 0, 255)
    assert read_png(r.render_tile(0, 0, 0, size=512, ratio=0.5)).shape == (256, 256, 4)
    assert read_png(r.render_tile(0, 0, 0, size=256)).shape == (256, 256, 4)
    view = read_png(r.render(lon=0, lat=0, zoom=1, width=128, height=64, pixel_ratio=2))
    assert view.shape == (128, 256, 4)
