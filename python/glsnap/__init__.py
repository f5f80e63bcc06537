"""glsnap: render MapLibre/Mapbox GL styles to images without a GPU or a display.

    import glsnap
    m = glsnap.Map(open("style.json").read(), 512, 512, 1, -87.65, 41.87, 14, base_path="style.json")
    png = m.renderPNG()

`Map` follows pymgl's `Map` (a pymgl script runs with `import glsnap as pymgl`); `Renderer` is a
pool of GL contexts whose renders release the GIL, with mapli's `render` and `render_tile` calls.
Errors raise `GLSnapError` subclasses carrying glsnap's message (which file, layer, source, value).
"""
from __future__ import annotations

import ctypes
import json
import math
import os
from ctypes import byref, c_double, c_size_t, c_void_p
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _abi
from ._abi import lib

__all__ = ["Map", "Renderer", "Snapshot", "GLSnapError", "InvalidArgumentError", "StyleError", "StyleProblem",
           "SourceError", "RenderError", "GLError", "LimitError", "NotFoundError", "ImageError", "TimedOutError", "version",
           "decode_image"]

try:  # numpy is optional: without it renderBuffer returns bytes and Snapshot.array is unavailable
    import numpy as _np
except ImportError:  # pragma: no cover - exercised only without numpy
    _np = None


class StyleProblem(NamedTuple):
    """One thing wrong with a style: the JSON path of the value at fault ("layers[2].paint.fill-color";
    "" for the style as a whole: no such file, not JSON), the message, the line (None: unknown)."""

    path: str
    message: str
    line: Optional[int] = None

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class GLSnapError(RuntimeError):
    """A glsnap call failed; the message is glsnap's, `status` its glsnap_status code, `problems`
    the style problems it came with (a list of StyleProblem; empty but for StyleError and NotFoundError)."""

    def __init__(self, message: str, status: int = _abi.RENDER, problems: Sequence[StyleProblem] = ()):
        super().__init__(message)
        self.status = status
        self.problems: List[StyleProblem] = list(problems)


class InvalidArgumentError(GLSnapError, ValueError):
    """An argument is out of range or not valid JSON (GLSNAP_ERR_INVALID_ARGUMENT)."""


class LimitError(InvalidArgumentError):
    """A size past one of the library's Limits, such as the image's side (GLSNAP_ERR_LIMIT)."""


class StyleError(GLSnapError):
    """The style cannot be read or is invalid, or an edit is not allowed (GLSNAP_ERR_STYLE);
    `problems` names each value at fault by its JSON path."""


class SourceError(GLSnapError):
    """A source of the style cannot be set up, or a tile of it is broken under strict errors (GLSNAP_ERR_SOURCE):
    `source` names it, `tile` is the broken tile's (z, x, y) (None: the source itself), `location` the
    tile's file or URL (None where the source has none per tile, as MBTiles)."""

    source: Optional[str] = None
    tile: Optional[Tuple[int, int, int]] = None
    location: Optional[str] = None


class RenderError(GLSnapError):
    """Drawing failed (GLSNAP_ERR_RENDER, and GLError's GLSNAP_ERR_GL)."""


class GLError(RenderError):
    """The GL context, a shader or a GL call failed (GLSNAP_ERR_GL)."""


class NotFoundError(GLSnapError, LookupError):
    """An unknown layer or source id (GLSNAP_ERR_NOT_FOUND)."""


class ImageError(GLSnapError):
    """Encoding an image failed (GLSNAP_ERR_IMAGE)."""


class TimedOutError(GLSnapError, TimeoutError):
    """The snapshot passed its time limit and stopped (GLSNAP_ERR_TIMED_OUT)."""


_ERRORS = {_abi.INVALID_ARGUMENT: InvalidArgumentError, _abi.STYLE: StyleError, _abi.SOURCE: SourceError,
           _abi.RENDER: RenderError, _abi.NOT_FOUND: NotFoundError, _abi.IMAGE: ImageError,
           _abi.TIMED_OUT: TimedOutError, _abi.GL: GLError, _abi.LIMIT: LimitError}


def version() -> str:
    """The version of the loaded libglsnap."""
    return lib.glsnap_version().decode()


def decode_image(data: bytes) -> Tuple[int, int, bytes]:
    """Decodes PNG, JPEG or WebP bytes to (width, height, straight RGBA bytes), e.g. for Map.addImage."""
    out, w, h = c_void_p(), ctypes.c_int(), ctypes.c_int()
    error = ctypes.create_string_buffer(512)
    data = bytes(data)
    status = lib.glsnap_decode_image(data, len(data), byref(out), byref(w), byref(h), error, len(error))
    if status != _abi.OK:
        raise _ERRORS.get(status, GLSnapError)(error.value.decode("utf-8", "replace"), status)
    return w.value, h.value, _abi.take_bytes(out, w.value * h.value * 4)


def _check(status: int, handle: Optional[int], error_of=lib.glsnap_snapshotter_error) -> None:
    if status == _abi.OK:
        return
    message = error_of(handle) if handle else None
    text = message.decode("utf-8", "replace") if message else f"glsnap error {status}"
    on_snapshotter = bool(handle) and error_of == lib.glsnap_snapshotter_error
    error = _ERRORS.get(status, GLSnapError)(text, status, _problems(handle) if on_snapshotter else [])
    if on_snapshotter and isinstance(error, SourceError):
        name, location = lib.glsnap_error_source(handle), lib.glsnap_error_source_location(handle)
        error.source = name.decode("utf-8", "replace") if name else None
        error.location = location.decode("utf-8", "replace") if location else None
        z, x, y = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        if lib.glsnap_error_source_tile(handle, byref(z), byref(x), byref(y)):
            error.tile = (z.value, x.value, y.value)
    raise error


def _problems(handle: int) -> List[StyleProblem]:
    """The style problems of this thread's last failed call on a snapshotter handle."""
    def text(p: Optional[bytes]) -> str:
        return p.decode("utf-8", "replace") if p else ""
    return [StyleProblem(text(lib.glsnap_error_problem_path(handle, i)), text(lib.glsnap_error_problem_message(handle, i)),
                         lib.glsnap_error_problem_line(handle, i) or None)
            for i in range(lib.glsnap_error_problem_count(handle))]


def _utf8(value: Optional[str], name: str) -> Optional[bytes]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value.encode("utf-8")


def _json_text(value: Any, name: str) -> bytes:
    """pymgl passes JSON-encoded text; lists, dicts, numbers and bools are encoded here."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    try:
        return json.dumps(value).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"{name} cannot be encoded as JSON: {e}", _abi.INVALID_ARGUMENT) from e


def _format(format: str) -> int:
    try:
        return _abi.FORMATS[format.lower()]
    except (KeyError, AttributeError):
        raise InvalidArgumentError(f"format {format!r} is not 'png', 'jpeg' or 'webp'", _abi.INVALID_ARGUMENT) from None


class Snapshot:
    """One rendered image: straight-alpha RGBA pixels, rows top to bottom."""

    def __init__(self, handle: int):
        self._handle = handle
        self.width: int = lib.glsnap_snapshot_width(handle)
        self.height: int = lib.glsnap_snapshot_height(handle)
        self.pixel_ratio: float = lib.glsnap_snapshot_pixel_ratio(handle)

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h:
            lib.glsnap_snapshot_free(h)

    def _pixels(self):
        n = c_size_t()
        address = lib.glsnap_snapshot_pixels(self._handle, byref(n))
        buffer = _abi.uint8_array(address, n.value)
        buffer._snapshot = self  # the view keeps the snapshot (and so the pixels) alive
        return buffer

    @property
    def pixels(self) -> bytes:
        """A copy of the pixels (width x height x 4 bytes)."""
        return bytes(self._pixels())

    @property
    def array(self):
        """A read-only numpy view of the pixels, shape (height, width, 4), dtype uint8; no copy."""
        if _np is None:
            raise ImportError("Snapshot.array needs numpy (pip install numpy)")
        a = _np.frombuffer(self._pixels(), dtype=_np.uint8).reshape(self.height, self.width, 4)
        a.flags.writeable = False
        return a

    def encode(self, format: str = "png", quality: int = 0) -> bytes:
        """The image as PNG (quality: zlib level 1-9, 0 = 6), JPEG or WebP (quality 1-100, 0 = 90)."""
        out, n = c_void_p(), c_size_t()
        _check(lib.glsnap_snapshot_encode(self._handle, _format(format), int(quality), byref(out), byref(n)),
               self._handle, lib.glsnap_snapshot_error)
        return _abi.take_bytes(out, n.value)

    @property
    def warnings(self) -> List[str]:
        """Problems drawn around under skip_source_errors."""
        out = c_void_p()
        _check(lib.glsnap_snapshot_warnings(self._handle, byref(out)), self._handle, lib.glsnap_snapshot_error)
        return json.loads(_abi.take_string(out))

    def point_for(self, longitude: float, latitude: float) -> Tuple[float, float]:
        """The point (in points from the top-left; x pixel_ratio for pixels) where a coordinate is drawn."""
        x, y = c_double(), c_double()
        _check(lib.glsnap_snapshot_point_for(self._handle, longitude, latitude, byref(x), byref(y)),
               self._handle, lib.glsnap_snapshot_error)
        return x.value, y.value

    def coordinate_for(self, x: float, y: float) -> Tuple[float, float]:
        """The (longitude, latitude) drawn at a point."""
        lon, lat = c_double(), c_double()
        _check(lib.glsnap_snapshot_coordinate_for(self._handle, x, y, byref(lon), byref(lat)),
               self._handle, lib.glsnap_snapshot_error)
        return lon.value, lat.value

    def _features(self, f, *args) -> List[dict]:
        out = c_void_p()
        _check(f(self._handle, *args, byref(out)), self._handle, lib.glsnap_snapshot_error)
        return json.loads(_abi.take_string(out))["features"]

    def queryRenderedFeatures(self, geometry: Optional[Sequence[Any]] = None, layers: Optional[Sequence[str]] = None,
                              filter: Any = None) -> List[dict]:
        """The features this snapshot drew at a point or in a box, topmost first, as MapLibre's
        queryRenderedFeatures: `geometry` is (x, y) or ((x1, y1), (x2, y2)) in points from the top-left
        (pixels / pixel_ratio, as point_for gives them); None: the whole image. `layers`: only these
        layer ids (an unknown one raises NotFoundError); `filter`: a style-spec filter (a list or its
        JSON text) the features must also pass. Each feature is a GeoJSON Feature dict with
        "geometry" (longitude, latitude), "properties", "id" (when it has one), "layer", "source",
        "sourceLayer" (vector sources) and "state": what `glsnap query` prints."""
        layer_text = None if layers is None else _json_text(_layer_list(layers), "layers")
        filter_text = None if filter is None or filter == "" else _json_text(filter, "filter")
        if geometry is None:
            geometry = ((0, 0), (self.width / self.pixel_ratio, self.height / self.pixel_ratio))
        points = _query_geometry(geometry)
        if len(points) == 1:
            return self._features(lib.glsnap_snapshot_query_point, *points[0], layer_text, filter_text)
        return self._features(lib.glsnap_snapshot_query_box, *points[0], *points[1], layer_text, filter_text)

    def querySourceFeatures(self, source: str, sourceLayer: Optional[str] = None, filter: Any = None) -> List[dict]:
        """The features of `source` in the tiles this snapshot drew, drawn or not (MapLibre's
        querySourceFeatures; `sourceLayer` is required for vector sources). A feature that crosses
        tiles comes once per tile. Dicts as queryRenderedFeatures's, without "layer"."""
        filter_text = None if filter is None or filter == "" else _json_text(filter, "filter")
        return self._features(lib.glsnap_snapshot_query_source_features, _utf8(source, "source"),
                              _utf8(sourceLayer, "sourceLayer"), filter_text)


def _layer_list(layers: Sequence[str]) -> List[str]:
    if isinstance(layers, str):
        raise TypeError("layers must be a list of layer ids, not a str")
    ids = list(layers)
    if not all(isinstance(i, str) for i in ids):
        raise TypeError("layers must be a list of layer ids (str)")
    return ids


def _query_geometry(geometry: Sequence[Any]) -> List[Tuple[float, float]]:
    """(x, y) -> [(x, y)]; ((x1, y1), (x2, y2)) -> both corners; else InvalidArgumentError."""
    def pair(p: Any) -> Tuple[float, float]:
        x, y = p
        return float(x), float(y)
    try:
        if len(geometry) == 2 and all(isinstance(v, (int, float)) for v in geometry):
            return [pair(geometry)]
        if len(geometry) == 2:
            return [pair(geometry[0]), pair(geometry[1])]
    except (TypeError, ValueError):
        pass
    raise InvalidArgumentError(f"geometry {geometry!r} is not (x, y) or ((x1, y1), (x2, y2))", _abi.INVALID_ARGUMENT)


class _Handle:
    """A glsnap_snapshotter with a style."""

    def __init__(self, style: Union[str, dict], width: float, height: float, ratio: float, workers: int,
                 backend: str, draw_on_calling_thread: bool, skip_source_errors: bool, base_path: Optional[str]):
        if backend not in _abi.BACKENDS:
            raise InvalidArgumentError(f"backend {backend!r} is not 'osmesa' or 'egl'", _abi.INVALID_ARGUMENT)
        o = _abi.Options()
        lib.glsnap_options_init(byref(o))
        o.width, o.height, o.pixel_ratio = float(width), float(height), float(ratio)
        o.workers, o.backend = int(workers), _abi.BACKENDS[backend]
        o.draw_on_calling_thread, o.skip_source_errors = int(bool(draw_on_calling_thread)), int(bool(skip_source_errors))
        error = ctypes.create_string_buffer(1024)
        handle = lib.glsnap_snapshotter_new(byref(o), error, len(error))
        if not handle:
            raise InvalidArgumentError(error.value.decode("utf-8", "replace"), _abi.INVALID_ARGUMENT)
        self._s = handle
        if isinstance(style, dict):
            style = json.dumps(style)
        if not isinstance(style, str):
            raise TypeError(f"style must be JSON text, a dict, a file path or a URL, not {type(style).__name__}")
        if style.lstrip().startswith("{"):
            base = os.path.abspath(base_path) if base_path else None
            self._call(lib.glsnap_set_style_json, _utf8(style, "style"), _utf8(base, "base_path"))
        else:
            self._call(lib.glsnap_set_style_file, _utf8(style, "style"))

    def _call(self, f, *args) -> None:
        if not self._s:
            raise GLSnapError("this map was closed", _abi.INVALID_ARGUMENT)
        _check(f(self._s, *args), self._s)

    def _string(self, f, *args) -> str:
        out = c_void_p()
        self._call(f, *args, byref(out))
        return _abi.take_string(out)

    def close(self) -> None:
        """Ends the GL contexts now (also done when the object is collected)."""
        s, self._s = getattr(self, "_s", None), None
        if s:
            lib.glsnap_snapshotter_free(s)

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # Data and feature state, as pymgl's calls (on Map and Renderer alike).
    def setGeoJSON(self, sourceID: str, geoJSON: Any) -> None:
        """Replaces a GeoJSON source's data: JSON text (as pymgl), a dict, or a URL; only that
        source's tiles are made again."""
        if isinstance(geoJSON, str) and not geoJSON.lstrip().startswith("{"):
            geoJSON = json.dumps(geoJSON)  # a URL, passed as a JSON string
        self._call(lib.glsnap_set_geojson_source_data, _utf8(sourceID, "sourceID"), _json_text(geoJSON, "geoJSON"))

    def setFeatureState(self, sourceID: str, layerID: Optional[str], featureID: Union[str, int], state: Any) -> None:
        """Merges `state` (JSON text, as pymgl, or a dict) into a feature's state, which paint
        expressions read with ["feature-state", key]. layerID is the source layer of a vector source
        (None or "" for GeoJSON); featureID the feature's id."""
        self._call(lib.glsnap_set_feature_state, _utf8(sourceID, "sourceID"), _utf8(layerID or None, "layerID"),
                   _utf8(_feature_id(featureID), "featureID"), _json_text(state, "state"))

    def getFeatureState(self, sourceID: str, layerID: Optional[str], featureID: Union[str, int]) -> Optional[str]:
        """A feature's state as JSON text, or None when it has none (as pymgl)."""
        text = self._string(lib.glsnap_get_feature_state, _utf8(sourceID, "sourceID"), _utf8(layerID or None, "layerID"),
                            _utf8(_feature_id(featureID), "featureID"))
        return None if text == "{}" else text

    def removeFeatureState(self, sourceID: str, layerID: Optional[str] = None, featureID: Union[str, int, None] = None,
                           stateKey: Optional[str] = None) -> None:
        """Removes one key of a feature's state (stateKey), all of it (stateKey None), or the state of
        every feature of the source (featureID None)."""
        self._call(lib.glsnap_remove_feature_state, _utf8(sourceID, "sourceID"), _utf8(layerID or None, "layerID"),
                   _utf8(None if featureID is None else _feature_id(featureID), "featureID"), _utf8(stateKey, "stateKey"))

    def _snapshot(self, camera: _abi.Camera, width: float = 0, height: float = 0, ratio: float = 0) -> Snapshot:
        out = c_void_p()
        self._call(lib.glsnap_render, byref(camera), float(width), float(height), float(ratio), byref(out))
        return Snapshot(out.value)

    def _encoded(self, camera: _abi.Camera, width: float, height: float, ratio: float, format: str, quality: int) -> bytes:
        out, n = c_void_p(), c_size_t()
        self._call(lib.glsnap_render_encoded, byref(camera), float(width), float(height), float(ratio), _format(format),
                   int(quality), byref(out), byref(n))
        return _abi.take_bytes(out, n.value)


class Map(_Handle):
    """A map of one style and camera, as pymgl's `Map`.

    style: style JSON text (or a dict), a style file path or an http(s) URL. Relative URLs in JSON
    text resolve against `base_path` (a folder or the style file's path; default: the current
    directory). The camera starts at longitude, latitude and zoom, bearing 0, pitch 0; the size is
    in points, the image floor(size x ratio) pixels. A broken source or tile is drawn around and
    listed in Snapshot.warnings, as MapLibre and `glsnap render` do; skip_source_errors=False makes
    it an error (`glsnap render --strict`). `token` and `provider` (pymgl's mapbox:// and
    maptiler:// resolution) are not supported and must be None.
    """

    def __init__(self, style: Union[str, dict], width: int = 256, height: int = 256, ratio: float = 1,
                 longitude: float = 0, latitude: float = 0, zoom: float = 0, token: Optional[str] = None,
                 provider: Optional[str] = None, *, base_path: Optional[str] = None, backend: str = "osmesa",
                 skip_source_errors: bool = True):
        if token is not None or provider is not None:
            raise NotImplementedError("glsnap.Map does not resolve provider styles (token/provider); pass the style JSON")
        self._width, self._height, self._ratio = int(width), int(height), float(ratio)
        self._camera = _abi.Camera(float(longitude), float(latitude), float(zoom), 0.0, 0.0, _abi.CAMERA_ALL)
        super().__init__(style, self._width, self._height, self._ratio, 1, backend, False, skip_source_errors, base_path)

    # Camera and size, as pymgl's properties and setters.
    @property
    def bearing(self) -> float:
        """Map bearing, in degrees."""
        return self._camera.bearing

    @property
    def center(self) -> Tuple[float, float]:
        """Map center (longitude, latitude)."""
        return self._camera.longitude, self._camera.latitude

    @property
    def pitch(self) -> float:
        """Map pitch, in degrees."""
        return self._camera.pitch

    @property
    def zoom(self) -> float:
        """Map zoom."""
        return self._camera.zoom

    @property
    def size(self) -> Tuple[int, int]:
        """Map size (width, height) in points."""
        return self._width, self._height

    def setBearing(self, bearing: float) -> None:
        """Sets the bearing in degrees clockwise from north."""
        self._camera.bearing = float(bearing)

    def setPitch(self, pitch: float) -> None:
        """Sets the pitch in degrees, 0...85 (checked when rendering)."""
        self._camera.pitch = float(pitch)

    def setZoom(self, zoom: float) -> None:
        """Sets the zoom, -2...24 (checked when rendering)."""
        self._camera.zoom = float(zoom)

    def setCenter(self, longitude: float, latitude: float) -> None:
        """Sets the center in degrees."""
        self._camera.longitude, self._camera.latitude = float(longitude), float(latitude)

    def setSize(self, width: int, height: int) -> None:
        """Sets the size in points."""
        self._call(lib.glsnap_set_size, float(width), float(height))
        self._width, self._height = int(width), int(height)

    def setBounds(self, xmin: float, ymin: float, xmax: float, ymax: float, padding: int = 0) -> None:
        """Fits the map to the bounds (degrees) with `padding` points free on each side, at the current bearing."""
        c = _abi.Camera()
        self._call(lib.glsnap_fit_bounds, float(xmin), float(ymin), float(xmax), float(ymax), float(padding),
                   self._camera.bearing, byref(c))
        self._camera.longitude, self._camera.latitude, self._camera.zoom = c.longitude, c.latitude, c.zoom

    # Style changes, through the library's runtime styling (see glsnap.h for what each redoes).
    def setFilter(self, layerID: str, filter: Any = None) -> None:
        """Sets a layer's filter (JSON text or a list); None or "" removes it."""
        value = None if filter is None or filter == "" else _json_text(filter, "filter")
        self._call(lib.glsnap_set_filter, _utf8(layerID, "layerID"), value)

    def setPaintProperty(self, layerID: str, property: str, value: Any) -> None:
        """Sets a paint property; value is JSON text (as pymgl) or a JSON-encodable value."""
        self._call(lib.glsnap_set_paint_property, _utf8(layerID, "layerID"), _utf8(property, "property"),
                   _json_text(value, "value"))

    def setLayoutProperty(self, layerID: str, property: str, value: Any) -> None:
        """Sets a layout property; value is JSON text (as pymgl) or a JSON-encodable value."""
        self._call(lib.glsnap_set_layout_property, _utf8(layerID, "layerID"), _utf8(property, "property"),
                   _json_text(value, "value"))

    def setVisibility(self, layerID: str, visible: bool) -> None:
        """Shows or hides a layer."""
        self._call(lib.glsnap_set_visibility, _utf8(layerID, "layerID"), int(bool(visible)))

    def addSource(self, id: str, options: Any) -> None:
        """Adds a source; options is its JSON text or a dict."""
        self._call(lib.glsnap_add_source, _utf8(id, "id"), _json_text(options, "options"))

    def addLayer(self, options: Any, before: Optional[str] = None) -> None:
        """Adds a layer (JSON text or a dict) on top, or below the layer `before`."""
        self._call(lib.glsnap_add_layer, _json_text(options, "options"), _utf8(before, "before"))

    def removeLayer(self, id: str) -> None:
        """Removes a layer."""
        self._call(lib.glsnap_remove_layer, _utf8(id, "id"))

    def listLayers(self) -> List[str]:
        """Layer ids in drawing order."""
        return json.loads(self._string(lib.glsnap_list_layers))

    def listSources(self) -> List[str]:
        """Source ids."""
        return json.loads(self._string(lib.glsnap_list_sources))

    def getLayerJSON(self, layerID: str) -> str:
        """The layer's JSON text."""
        return self._string(lib.glsnap_get_layer, _utf8(layerID, "layerID"))

    def getFilter(self, layerID: str) -> Optional[str]:
        """The layer's filter as JSON text, or None."""
        f = json.loads(self.getLayerJSON(layerID)).get("filter")
        return None if f is None else json.dumps(f)

    def getPaintProperty(self, layerID: str, property: str) -> Optional[str]:
        """A paint property as JSON text, or None when unset."""
        v = json.loads(self.getLayerJSON(layerID)).get("paint", {}).get(property)
        return None if v is None else json.dumps(v)

    def getVisibility(self, layerID: str) -> bool:
        """Whether the layer is visible."""
        return json.loads(self.getLayerJSON(layerID)).get("layout", {}).get("visibility", "visible") != "none"

    def addImage(self, name: str, image: bytes, width: int, height: int, ratio: float = 1, make_sdf: bool = False,
                 *, sdf: Optional[bool] = None) -> None:
        """Adds an image icons and patterns can name: raw straight RGBA pixels, width x height."""
        data = bytes(image)
        if len(data) != int(width) * int(height) * 4:
            raise InvalidArgumentError(f"image {name!r} has {len(data)} bytes; {width}x{height} RGBA needs "
                                       f"{int(width) * int(height) * 4}", _abi.INVALID_ARGUMENT)
        self._call(lib.glsnap_add_image, _utf8(name, "name"), data, int(width), int(height), float(ratio),
                   int(bool(make_sdf if sdf is None else sdf)))

    def queryRenderedFeatures(self, geometry: Optional[Sequence[Any]] = None, layers: Optional[Sequence[str]] = None,
                              filter: Any = None) -> List[dict]:
        """The features drawn at a point or in a box of the map as it is now, topmost first (see
        Snapshot.queryRenderedFeatures for the arguments and the dicts). Renders the map to answer:
        to query one image many times, take `snapshot()` and query it."""
        return self.snapshot().queryRenderedFeatures(geometry, layers, filter)

    # Rendering.
    def snapshot(self) -> Snapshot:
        """Renders the map; the snapshot has the pixels (and a numpy view) and the coordinate conversion."""
        return self._snapshot(self._camera)

    def render(self, format: str = "png", quality: int = 0) -> bytes:
        """Renders to PNG, JPEG or WebP bytes (quality as Snapshot.encode)."""
        return self._encoded(self._camera, 0, 0, 0, format, quality)

    def renderPNG(self) -> bytes:
        """Renders to PNG bytes."""
        return self.render("png")

    def renderBuffer(self):
        """Renders to a numpy array (height, width, 4) of uint8 RGBA, or bytes without numpy."""
        s = self.snapshot()
        return s.array if _np is not None else s.pixels



def _feature_id(featureID: Union[str, int]) -> str:
    if isinstance(featureID, bool) or not isinstance(featureID, (str, int)):
        raise TypeError(f"featureID must be a str or an int, not {type(featureID).__name__}")
    return str(featureID)


def _tile_center(z: int, x: int, y: int) -> Tuple[float, float]:
    n = 2.0 ** z
    lon = (x + 0.5) / n * 360.0 - 180.0
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return lon, lat


class Renderer(_Handle):
    """A pool of `workers` GL contexts over one style; `render` and `render_tile` may be called from
    many Python threads at once and release the GIL while rendering.

        r = glsnap.Renderer("style.json", workers=2)
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            pngs = list(ex.map(lambda c: r.render(lon=c[0], lat=c[1], zoom=12), centers))

    width, height, ratio: the default size of `render`. draw_on_calling_thread: draw on the calling
    thread (faster when at most `workers` threads render at once: a fixed pool of your own).
    skip_source_errors: as in Map.
    """

    def __init__(self, style: Union[str, dict], workers: int = 2, *, width: int = 512, height: int = 512,
                 ratio: float = 1, base_path: Optional[str] = None, backend: str = "osmesa",
                 draw_on_calling_thread: bool = False, skip_source_errors: bool = True):
        super().__init__(style, width, height, ratio, workers, backend, draw_on_calling_thread, skip_source_errors,
                         base_path)
        self.workers = int(workers)

    def render(self, lon: float = 0, lat: float = 0, zoom: float = 0, width: Optional[float] = None,
               height: Optional[float] = None, pixel_ratio: Optional[float] = None, bearing: float = 0,
               pitch: float = 0, format: str = "png", quality: int = 0) -> bytes:
        """Renders one view to PNG, JPEG or WebP bytes (mapli's `render` arguments)."""
        c = _abi.Camera(float(lon), float(lat), float(zoom), float(bearing), float(pitch), _abi.CAMERA_ALL)
        if (width is None) != (height is None):
            raise InvalidArgumentError("give both width and height, or neither", _abi.INVALID_ARGUMENT)
        return self._encoded(c, width or 0, height or 0, pixel_ratio or 0, format, quality)

    def snapshot(self, lon: float = 0, lat: float = 0, zoom: float = 0, width: Optional[float] = None,
                 height: Optional[float] = None, pixel_ratio: Optional[float] = None, bearing: float = 0,
                 pitch: float = 0) -> Snapshot:
        """Renders one view to a Snapshot (pixels, numpy view, coordinates)."""
        c = _abi.Camera(float(lon), float(lat), float(zoom), float(bearing), float(pitch), _abi.CAMERA_ALL)
        if (width is None) != (height is None):
            raise InvalidArgumentError("give both width and height, or neither", _abi.INVALID_ARGUMENT)
        return self._snapshot(c, width or 0, height or 0, pixel_ratio or 0)

    def tiles_plan(self, pyramid: dict) -> dict:
        """`glsnap tiles`' plan of a pyramid (a dict: bounds or fitData, minzoom, maxzoom, tileSize, ratio,
        metatile, format, stylePath, shard; see glsnap_tiles_plan in glsnap.h): its metatiles in their fixed
        order as [z, x0, x1, y0, y1, region], the placement regions, the shard's metatile numbers, the metadata."""
        return json.loads(self._string(lib.glsnap_tiles_plan, _json_text(pyramid, "pyramid")))

    def tiles_render(self, pyramid: dict, metatiles: Sequence[int], archive: str) -> dict:
        """Renders the metatiles numbered (in tiles_plan's order) into `archive` (.mbtiles, .pmtiles or a folder)
        as `glsnap tiles` does: the same bytes, tiles already there kept. Returns {"rendered", "kept",
        "warnings"}. Releases the GIL; calls on one Renderer run one at a time."""
        numbers = list(metatiles)
        array = (ctypes.c_uint32 * max(1, len(numbers)))(*numbers)
        return json.loads(self._string(lib.glsnap_tiles_render, _json_text(pyramid, "pyramid"), array, len(numbers),
                                       _utf8(archive, "archive")))

    def render_tile(self, z: int, x: int, y: int, size: int = 256, ratio: float = 1, format: str = "png",
                    quality: int = 0) -> bytes:
        """Renders the XYZ tile z/x/y as a size x size image (x ratio pixels), as mapli does: a 512 tile is
        drawn at zoom z, a 256 tile at zoom z - 1 (at z 0, a 512 view at half the ratio)."""
        z, x, y = int(z), int(x), int(y)
        if not 0 <= z <= 24 or not (0 <= x < 2 ** z and 0 <= y < 2 ** z):
            raise InvalidArgumentError(f"tile {z}/{x}/{y} does not exist (z 0...24, x and y within 0...2^z-1)",
                                       _abi.INVALID_ARGUMENT)
        if size not in (256, 512):
            raise InvalidArgumentError(f"tile size {size} is not 256 or 512", _abi.INVALID_ARGUMENT)
        lon, lat = _tile_center(z, x, y)
        if size == 512:
            points, zoom, r = 512, z, ratio
        elif z > 0:
            points, zoom, r = 256, z - 1, ratio
        else:
            points, zoom, r = 512, 0, ratio / 2
        c = _abi.Camera(lon, lat, float(zoom), 0.0, 0.0, _abi.CAMERA_ALL)
        return self._encoded(c, points, points, r, format, quality)
