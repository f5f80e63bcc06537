"""Shared fixtures: the repository, the bundled Chicago example, the glsnap CLI, and a PNG reader."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "chicago", "style.json")

# A style with no files: a red background and a blue box around 0,0.
BOX_STYLE = {
    "version": 8,
    "sources": {"box": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [
        [[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}}},
    "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
               {"id": "fill", "type": "fill", "source": "box", "paint": {"fill-color": "#0000ff"}}],
}


def cli() -> str:
    """The glsnap CLI to compare with: $GLSNAP_CLI, else a release or debug build here."""
    for path in (os.environ.get("GLSNAP_CLI"), os.path.join(ROOT, ".build/release/glsnap"),
                 os.path.join(ROOT, ".build/debug/glsnap")):
        if path and os.access(path, os.X_OK):
            return path
    pytest.skip("no glsnap CLI built (swift build), and GLSNAP_CLI is not set")


def read_png(data: bytes):
    """Decodes PNG bytes (through glsnap's decoder) into a numpy array (height, width, 4)."""
    import numpy as np
    import glsnap
    w, h, rgba = glsnap.decode_image(data)
    return np.frombuffer(rgba, dtype=np.uint8).reshape(h, w, 4)


def mismatch(a, b) -> float:
    """The fraction of pixels that differ at all between two RGBA arrays (1 when the sizes differ)."""
    if a.shape != b.shape:
        return 1.0
    return float((a != b).any(axis=2).mean())
