"""Bad input raises the right exception, with glsnap's message, and changes nothing."""
import json

import pytest

import glsnap
from conftest import BOX_STYLE


def test_style_errors():
    with pytest.raises(glsnap.StyleError, match="/nonexistent/style.json"):
        glsnap.Map("/nonexistent/style.json")
    with pytest.raises(glsnap.StyleError):
        glsnap.Map('{"version": 8,')
    with pytest.raises(TypeError):
        glsnap.Map(42)


def test_unknown_layer_is_named_and_style_unchanged():
    m = glsnap.Map(BOX_STYLE, 32, 32)
    before = m.renderPNG()
    for call in (lambda: m.setPaintProperty("rivers", "fill-color", '"red"'),
                 lambda: m.setLayoutProperty("rivers", "visibility", '"none"'),
                 lambda: m.setFilter("rivers", '["==", "a", 1]'),
                 lambda: m.setVisibility("rivers", False),
                 lambda: m.removeLayer("rivers"),
                 lambda: m.getLayerJSON("rivers")):
        with pytest.raises(glsnap.NotFoundError, match='no layer "rivers"'):
            call()
    with pytest.raises(glsnap.NotFoundError, match='source "nope"'):
        m.addLayer({"id": "x", "type": "fill", "source": "nope"})
    assert m.listLayers() == ["bg", "fill"]
    assert m.renderPNG() == before


def test_invalid_values():
    m = glsnap.Map(BOX_STYLE, 32, 32)
    with pytest.raises(glsnap.InvalidArgumentError, match="not valid JSON"):
        m.setPaintProperty("fill", "fill-color", "#00ff00")  # pymgl takes JSON text: '"#00ff00"'
    with pytest.raises(glsnap.InvalidArgumentError, match="already has a source"):
        m.addSource("box", {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}})
    with pytest.raises(glsnap.InvalidArgumentError, match="already has a layer"):
        m.addLayer({"id": "fill", "type": "fill", "source": "box"})
    # The value is checked against the style spec, naming the property; the style stays as it was.
    with pytest.raises(glsnap.StyleError, match="layers.fill.paint.fill-color"):
        m.setPaintProperty("fill", "fill-color", '"not a color"')
    with pytest.raises(glsnap.StyleError, match='unknown property "fill-colour"'):
        m.setPaintProperty("fill", "fill-colour", '"red"')
    with pytest.raises(glsnap.StyleError, match="layers.fill.filter"):
        m.setFilter("fill", '["bogus-operator", 1]')
    assert json.loads(m.getLayerJSON("fill"))["paint"]["fill-color"] == "#0000ff"
    m.setPitch(100)
    with pytest.raises(glsnap.InvalidArgumentError, match="pitch 100"):
        m.renderPNG()
    m.setPitch(0)
    m.setZoom(30)
    with pytest.raises(glsnap.InvalidArgumentError, match="zoom 30"):
        m.renderPNG()
    m.setZoom(1)
    with pytest.raises(glsnap.InvalidArgumentError, match="format"):
        m.render("gif")
    with pytest.raises(glsnap.InvalidArgumentError, match="48 bytes"):
        m.addImage("x", b"\x00" * 48, 8, 8)
    with pytest.raises(glsnap.InvalidArgumentError, match="size"):
        m.setSize(0, 10)
    with pytest.raises(glsnap.InvalidArgumentError, match="workers 0"):
        glsnap.Renderer(BOX_STYLE, workers=0)
    with pytest.raises(glsnap.InvalidArgumentError, match="ratio"):
        glsnap.Map(BOX_STYLE, 32, 32, ratio=100)
    with pytest.raises(glsnap.InvalidArgumentError, match="tile 3/8/0"):
        glsnap.Renderer(BOX_STYLE, workers=1).render_tile(3, 8, 0)
    with pytest.raises(glsnap.ImageError, match="cannot decode"):
        glsnap.decode_image(b"not an image")
    assert m.renderPNG()[:4] == b"\x89PNG"  # the map still works


def test_not_implemented_and_closed():
    m = glsnap.Map(BOX_STYLE, 32, 32)
    with pytest.raises(NotImplementedError):
        glsnap.Map(BOX_STYLE, provider="mapbox")
    m.close()
    with pytest.raises(glsnap.GLSnapError, match="closed"):
        m.renderPNG()
    with glsnap.Map(BOX_STYLE, 32, 32) as m2:
        assert m2.renderPNG()[:4] == b"\x89PNG"


def test_style_error_lists_problems_with_paths():
    bad = json.dumps({"version": 8, "sources": {},
                      "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "nope"}},
                                 {"id": "x", "type": "sparkles"}]})
    with pytest.raises(glsnap.StyleError) as caught:
        glsnap.Map(bad, 16, 16)
    problems = caught.value.problems
    assert [p.path for p in problems] == ["layers[0].paint.background-color", "layers[1].type"], problems
    assert all(p.message for p in problems)
    assert isinstance(caught.value, glsnap.GLSnapError) and caught.value.status == 2
    with pytest.raises(glsnap.StyleError) as caught:
        glsnap.Map("/nonexistent/style.json")
    assert caught.value.problems == [glsnap.StyleProblem("", "no such file")]
    m = glsnap.Map(BOX_STYLE, 32, 32)
    with pytest.raises(glsnap.StyleError) as caught:
        m.setPaintProperty("fill", "fill-color", '"not a color"')
    assert [p.path for p in caught.value.problems] == ["layers.fill.paint.fill-color"]
    with pytest.raises(glsnap.NotFoundError) as caught:
        m.removeLayer("rivers")
    assert caught.value.problems == []
    assert issubclass(glsnap.GLError, glsnap.RenderError)


def test_limit_error_is_an_invalid_argument():
    m = glsnap.Map(BOX_STYLE, 32, 32)
    with pytest.raises(glsnap.LimitError, match="pixels per side") as caught:
        m.setSize(70000, 1)
    assert isinstance(caught.value, glsnap.InvalidArgumentError) and isinstance(caught.value, ValueError)


def test_source_error_names_source_tile_and_file(tmp_path):
    (tmp_path / "0-0-0.mvt").write_bytes(b"\xff\xff\xff\xff")
    style = {"version": 8, "sources": {"t": {"type": "vector", "tiles": ["{z}-{x}-{y}.mvt"], "maxzoom": 0}},
             "layers": [{"id": "l", "type": "line", "source": "t", "source-layer": "x"}]}
    m = glsnap.Map(json.dumps(style), 16, 16, 1, 0, 0, 0, base_path=str(tmp_path) + "/", skip_source_errors=False)
    with pytest.raises(glsnap.SourceError) as caught:
        m.renderPNG()
    e = caught.value
    assert (e.source, e.tile, e.location) == ("t", (0, 0, 0), str(tmp_path / "0-0-0.mvt")), str(e)
    assert 'source "t": tile 0/0/0' in str(e)
    missing = dict(style, sources={"m": {"type": "vector", "url": "mbtiles://missing.mbtiles"}},
                   layers=[{"id": "l", "type": "line", "source": "m", "source-layer": "x"}])
    with pytest.raises(glsnap.SourceError) as caught:
        glsnap.Map(json.dumps(missing), 16, 16, base_path=str(tmp_path) + "/", skip_source_errors=False)
    assert (caught.value.source, caught.value.tile, caught.value.location) == ("m", None, None)
