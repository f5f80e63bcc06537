"""Feature queries (as `glsnap query` answers them), feature state and GeoJSON data from Python."""
import copy
import json
import subprocess

import pytest

import glsnap
from conftest import BOX_STYLE, EXAMPLE, cli

# BOX_STYLE's box as feature 7 (kind a), its fill read from the feature state, and a dot (kind b)
# at 30°E drawn above it. In a 256x64-point view of 0,0 at zoom 1 the box spans x 71-185 (points)
# and the dot sits at x 213.
STATE_STYLE = copy.deepcopy(BOX_STYLE)
STATE_STYLE["sources"]["box"]["data"] = {"type": "Feature", "id": 7, "properties": {"kind": "a"},
                                         "geometry": BOX_STYLE["sources"]["box"]["data"]}
STATE_STYLE["sources"]["dot"] = {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "b"},
                                                             "geometry": {"type": "Point", "coordinates": [30, 0]}}}
STATE_STYLE["layers"][1]["paint"]["fill-color"] = ["case", ["boolean", ["feature-state", "hot"], False],
                                                   "#ff00ff", "#0000ff"]
STATE_STYLE["layers"].append({"id": "dot", "type": "circle", "source": "dot", "paint": {"circle-radius": 8}})


def layers_of(features):
    """The layers of the features, each once in order: the box crosses the four tiles around 0,0, and
    a feature comes once per tile it was drawn from (as MapLibre's queryRenderedFeatures gives it)."""
    return list(dict.fromkeys(f["layer"] for f in features))


def test_point_box_layers_filter():
    m = glsnap.Map(STATE_STYLE, 256, 64, 2, 0, 0, 1)
    at = m.queryRenderedFeatures((128, 32))
    assert layers_of(at) == ["fill"]
    f = at[0]
    assert f["type"] == "Feature" and f["id"] == 7 and f["source"] == "box" and f["properties"] == {"kind": "a"}
    assert f["geometry"]["type"] == "Polygon" and f["state"] == {}
    assert layers_of(m.queryRenderedFeatures((213, 32))) == ["dot"]
    assert m.queryRenderedFeatures((3, 3)) == []
    assert layers_of(m.queryRenderedFeatures(((60, 20), (220, 40)))) == ["dot", "fill"]  # topmost first
    assert layers_of(m.queryRenderedFeatures(((60, 20), (220, 40)), layers=["fill"])) == ["fill"]
    assert layers_of(m.queryRenderedFeatures(((60, 20), (220, 40)), filter=["==", ["get", "kind"], "b"])) == ["dot"]
    assert layers_of(m.queryRenderedFeatures(((60, 20), (220, 40)), filter='["==", "kind", "a"]')) == ["fill"]
    assert layers_of(m.queryRenderedFeatures()) == ["dot", "fill"]  # no geometry: the whole image
    # A snapshot answers many queries from one render; points are pixels / ratio.
    s = m.snapshot()
    x, y = s.point_for(30, 0)
    assert (x, y) == pytest.approx((213.33, 32), abs=0.01)
    assert layers_of(s.queryRenderedFeatures((x, y))) == ["dot"]
    dots = s.querySourceFeatures("dot")  # once per tile that holds it (it lies on tile edges)
    assert dots and all(f["properties"] == {"kind": "b"} and "layer" not in f for f in dots)


def test_matches_glsnap_query(tmp_path):
    args = ["--style", EXAMPLE, "--center", "-87.65,41.87", "--zoom", "15", "--size", "256x256"]
    for geometry, flag in (((128, 128), ["--point", "128,128"]), (((100, 100), (160, 140)), ["--box", "100,100,160,140"])):
        out = subprocess.run([cli(), "query", *args, *flag], check=True, capture_output=True, text=True).stdout
        expected = json.loads(out)["features"]
        m = glsnap.Map(EXAMPLE, 256, 256, 1, -87.65, 41.87, 15)
        ours = m.queryRenderedFeatures(geometry)
        assert ours, "the middle of Chicago has features"
        assert ours == expected


def test_feature_state_and_geojson_data():
    m = glsnap.Map(STATE_STYLE, 256, 64, 2, 0, 0, 1)
    assert tuple(m.renderBuffer()[64, 256]) == (0, 0, 255, 255)
    assert m.getFeatureState("box", None, 7) is None
    m.setFeatureState("box", None, 7, '{"hot": true}')
    assert json.loads(m.getFeatureState("box", "", "7")) == {"hot": True}
    assert tuple(m.renderBuffer()[64, 256]) == (255, 0, 255, 255)
    assert m.queryRenderedFeatures((128, 32), layers=["fill"])[0]["state"] == {"hot": True}
    m.setFeatureState("box", None, 7, {"size": 2})
    assert json.loads(m.getFeatureState("box", None, 7)) == {"hot": True, "size": 2}
    m.removeFeatureState("box", None, 7, "hot")
    assert json.loads(m.getFeatureState("box", None, 7)) == {"size": 2}
    assert tuple(m.renderBuffer()[64, 256]) == (0, 0, 255, 255)
    m.removeFeatureState("box")
    assert m.getFeatureState("box", None, 7) is None
    # New data for the box: it moves east, off the middle (background red there).
    m.setGeoJSON("box", json.dumps({"type": "Polygon", "coordinates": [[[10, -20], [40, -20], [40, 20], [10, 20], [10, -20]]]}))
    assert tuple(m.renderBuffer()[64, 256]) == (255, 0, 0, 255)
    assert layers_of(m.queryRenderedFeatures((200, 32), layers=["fill"])) == ["fill"]
    m.setGeoJSON("box", {"type": "FeatureCollection", "features": []})
    assert m.queryRenderedFeatures(layers=["fill"]) == []


def test_query_and_state_errors():
    m = glsnap.Map(STATE_STYLE, 256, 64, 1, 0, 0, 1)
    with pytest.raises(glsnap.NotFoundError, match="'rivers'"):
        m.queryRenderedFeatures((1, 1), layers=["rivers"])
    with pytest.raises(glsnap.InvalidArgumentError, match="not a valid filter"):
        m.queryRenderedFeatures((1, 1), filter=["bogus-operator", 1])
    with pytest.raises(glsnap.InvalidArgumentError, match="geometry"):
        m.queryRenderedFeatures((1, 2, 3))
    with pytest.raises(glsnap.InvalidArgumentError, match="not finite"):
        m.queryRenderedFeatures((float("nan"), 1))
    with pytest.raises(TypeError):
        m.queryRenderedFeatures((1, 1), layers="fill")
    with pytest.raises(glsnap.NotFoundError, match="'nope'"):
        m.snapshot().querySourceFeatures("nope")
    with pytest.raises(glsnap.NotFoundError, match='source "nope"'):
        m.setFeatureState("nope", None, 1, {"hot": True})
    with pytest.raises(glsnap.InvalidArgumentError, match="JSON object"):
        m.setFeatureState("box", None, 1, "[1]")
    with pytest.raises(glsnap.InvalidArgumentError, match="needs a feature_id"):
        m.removeFeatureState("box", None, None, "hot")
    with pytest.raises(TypeError):
        m.setFeatureState("box", None, 1.5, {})
    with pytest.raises(glsnap.NotFoundError, match='source "nope"'):
        m.setGeoJSON("nope", {"type": "FeatureCollection", "features": []})
    with pytest.raises(glsnap.InvalidArgumentError, match="not valid JSON"):
        m.setGeoJSON("box", '{"type":')
    assert m.listSources() == ["box", "dot"]
    assert m.renderPNG()[:4] == b"\x89PNG"  # the map still works
