"""ctypes bindings of glsnap.h (keep in step with include/glsnap.h). ctypes.CDLL releases the GIL
for the length of each call, so renders from several Python threads run at once."""
import ctypes
import os
from ctypes import POINTER, c_char_p, c_double, c_int, c_size_t, c_uint, c_uint8, c_void_p

OK, INVALID_ARGUMENT, STYLE, SOURCE, RENDER, NOT_FOUND, IMAGE, TIMED_OUT, GL, LIMIT = range(10)
BACKENDS = {"osmesa": 0, "egl": 1}
FORMATS = {"png": 0, "jpeg": 1, "jpg": 1, "webp": 2}
CAMERA_CENTER, CAMERA_ZOOM, CAMERA_BEARING, CAMERA_PITCH = 1, 2, 4, 8
CAMERA_ALL = 15


class Options(ctypes.Structure):
    _fields_ = [("width", c_double), ("height", c_double), ("pixel_ratio", c_double), ("workers", c_int),
                ("backend", c_int), ("draw_on_calling_thread", c_int), ("skip_source_errors", c_int)]


class Camera(ctypes.Structure):
    _fields_ = [("longitude", c_double), ("latitude", c_double), ("zoom", c_double), ("bearing", c_double),
                ("pitch", c_double), ("fields", c_uint)]


def _load() -> ctypes.CDLL:
    path = os.environ.get("GLSNAP_LIBRARY") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "libglsnap.so")
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"glsnap: cannot load {path}: {e} (reinstall with pip install ./python, "
                          "or set GLSNAP_LIBRARY to a built libGLSnapC.so)") from e


lib = _load()
_P = c_void_p
_signatures = {
    "glsnap_version": (c_char_p, []),
    "glsnap_options_init": (None, [POINTER(Options)]),
    "glsnap_snapshotter_new": (_P, [POINTER(Options), ctypes.c_char_p, c_size_t]),
    "glsnap_snapshotter_free": (None, [_P]),
    "glsnap_snapshotter_error": (c_char_p, [_P]),
    "glsnap_error_problem_count": (c_int, [_P]),
    "glsnap_error_problem_path": (c_char_p, [_P, c_int]),
    "glsnap_error_problem_message": (c_char_p, [_P, c_int]),
    "glsnap_error_problem_line": (c_int, [_P, c_int]),
    "glsnap_error_source": (c_char_p, [_P]),
    "glsnap_error_source_tile": (c_int, [_P, POINTER(c_int), POINTER(c_int), POINTER(c_int)]),
    "glsnap_error_source_location": (c_char_p, [_P]),
    "glsnap_set_style_json": (c_int, [_P, c_char_p, c_char_p]),
    "glsnap_set_style_file": (c_int, [_P, c_char_p]),
    "glsnap_get_style": (c_int, [_P, POINTER(c_void_p)]),
    "glsnap_set_camera": (c_int, [_P, POINTER(Camera)]),
    "glsnap_set_size": (c_int, [_P, c_double, c_double]),
    "glsnap_fit_bounds": (c_int, [_P, c_double, c_double, c_double, c_double, c_double, c_double, POINTER(Camera)]),
    "glsnap_render": (c_int, [_P, POINTER(Camera), c_double, c_double, c_double, POINTER(c_void_p)]),
    "glsnap_render_encoded": (c_int, [_P, POINTER(Camera), c_double, c_double, c_double, c_int, c_int,
                                      POINTER(c_void_p), POINTER(c_size_t)]),
    "glsnap_add_image": (c_int, [_P, c_char_p, c_char_p, c_int, c_int, c_double, c_int]),
    "glsnap_remove_image": (c_int, [_P, c_char_p]),
    "glsnap_set_filter": (c_int, [_P, c_char_p, c_char_p]),
    "glsnap_set_paint_property": (c_int, [_P, c_char_p, c_char_p, c_char_p]),
    "glsnap_set_layout_property": (c_int, [_P, c_char_p, c_char_p, c_char_p]),
    "glsnap_set_visibility": (c_int, [_P, c_char_p, c_int]),
    "glsnap_add_source": (c_int, [_P, c_char_p, c_char_p]),
    "glsnap_add_layer": (c_int, [_P, c_char_p, c_char_p]),
    "glsnap_remove_layer": (c_int, [_P, c_char_p]),
    "glsnap_list_layers": (c_int, [_P, POINTER(c_void_p)]),
    "glsnap_list_sources": (c_int, [_P, POINTER(c_void_p)]),
    "glsnap_get_layer": (c_int, [_P, c_char_p, POINTER(c_void_p)]),
    "glsnap_set_geojson_source_data": (c_int, [_P, c_char_p, c_char_p]),
    "glsnap_set_feature_state": (c_int, [_P, c_char_p, c_char_p, c_char_p, c_char_p]),
    "glsnap_get_feature_state": (c_int, [_P, c_char_p, c_char_p, c_char_p, POINTER(c_void_p)]),
    "glsnap_remove_feature_state": (c_int, [_P, c_char_p, c_char_p, c_char_p, c_char_p]),
    "glsnap_snapshot_query_point": (c_int, [_P, c_double, c_double, c_char_p, c_char_p, POINTER(c_void_p)]),
    "glsnap_snapshot_query_box": (c_int, [_P, c_double, c_double, c_double, c_double, c_char_p, c_char_p,
                                          POINTER(c_void_p)]),
    "glsnap_snapshot_query_source_features": (c_int, [_P, c_char_p, c_char_p, c_char_p, POINTER(c_void_p)]),
    "glsnap_snapshot_free": (None, [_P]),
    "glsnap_snapshot_error": (c_char_p, [_P]),
    "glsnap_snapshot_width": (c_int, [_P]),
    "glsnap_snapshot_height": (c_int, [_P]),
    "glsnap_snapshot_pixel_ratio": (c_double, [_P]),
    "glsnap_snapshot_pixels": (c_void_p, [_P, POINTER(c_size_t)]),
    "glsnap_snapshot_encode": (c_int, [_P, c_int, c_int, POINTER(c_void_p), POINTER(c_size_t)]),
    "glsnap_snapshot_warnings": (c_int, [_P, POINTER(c_void_p)]),
    "glsnap_snapshot_point_for": (c_int, [_P, c_double, c_double, POINTER(c_double), POINTER(c_double)]),
    "glsnap_snapshot_coordinate_for": (c_int, [_P, c_double, c_double, POINTER(c_double), POINTER(c_double)]),
    "glsnap_decode_image": (c_int, [c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_int), POINTER(c_int), c_char_p,
                                    c_size_t]),
    "glsnap_free": (None, [c_void_p]),
    "glsnap_tiles_plan": (c_int, [_P, c_char_p, POINTER(c_void_p)]),
    "glsnap_tiles_render": (c_int, [_P, c_char_p, POINTER(ctypes.c_uint32), c_size_t, c_char_p, POINTER(c_void_p)]),
}
for _name, (_res, _args) in _signatures.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def take_bytes(pointer: c_void_p, length: int) -> bytes:
    """Copies a buffer the library handed out and frees it."""
    try:
        return ctypes.string_at(pointer.value, length) if length else b""
    finally:
        lib.glsnap_free(pointer)


def take_string(pointer: c_void_p) -> str:
    """Copies a NUL-terminated string the library handed out and frees it."""
    try:
        return ctypes.string_at(pointer.value).decode("utf-8")
    finally:
        lib.glsnap_free(pointer)


def uint8_array(address: int, length: int):
    return (c_uint8 * length).from_address(address)
