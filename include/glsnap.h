/*
 * glsnap.h: the C ABI of glsnap, a headless MapLibre/Mapbox GL style renderer (libglsnap.so).
 *
 *   pkg-config --cflags --libs glsnap     (after tools/install-c.sh PREFIX)
 *
 *   glsnap_options o; glsnap_options_init(&o); o.width = 512; o.height = 512;
 *   char err[512];
 *   glsnap_snapshotter *s = glsnap_snapshotter_new(&o, err, sizeof err);
 *   if (!s) { fprintf(stderr, "%s\n", err); return 1; }
 *   if (glsnap_set_style_file(s, "style.json") != GLSNAP_OK) { fprintf(stderr, "%s\n", glsnap_snapshotter_error(s)); ... }
 *   glsnap_camera c = { .longitude = -87.65, .latitude = 41.87, .zoom = 13,
 *                       .fields = GLSNAP_CAMERA_CENTER | GLSNAP_CAMERA_ZOOM };
 *   uint8_t *png; size_t n;
 *   if (glsnap_render_encoded(s, &c, 0, 0, 0, GLSNAP_FORMAT_PNG, 0, &png, &n) == GLSNAP_OK) { fwrite(png, 1, n, f); glsnap_free(png); }
 *   glsnap_snapshotter_free(s);
 *
 * Errors: every function that can fail returns a glsnap_status; on failure the handle keeps a
 * message for the calling thread (glsnap_snapshotter_error, glsnap_snapshot_error), naming what was
 * wrong (file, layer, source, tile, value). Bad input (NULL pointers, invalid UTF-8 or JSON, unknown
 * layers, out-of-range numbers, broken files) is an error code, never a crash or an abort. The
 * parts of a failure are kept beside its message: a style's problems with their JSON paths
 * (glsnap_error_problem_*), a broken source's name, tile and file (glsnap_error_source*).
 *
 * Memory: handles are freed with their _free function; every buffer or string a function hands
 * out through an out-parameter is malloc'ed and freed with glsnap_free. Pointers the library
 * returns directly (error messages, pixels, the version) belong to it: see each function.
 *
 * Threads: a snapshotter has `workers` GL contexts; glsnap_render and glsnap_render_encoded may be
 * called from many threads at once on one snapshotter (each call takes a free worker, waiting when
 * all are busy). The functions that change the style, images, size or the stored camera are
 * serialized against each other and may run while renders are in flight (a render in flight uses
 * the style it started with), except glsnap_set_size and glsnap_set_camera, which must not race a
 * render that uses the snapshotter's size or camera. A snapshot handle is immutable: any thread may
 * read it. glsnap_snapshotter_free must not race any other call on that handle.
 */
#ifndef GLSNAP_H
#define GLSNAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glsnap_snapshotter glsnap_snapshotter;  /* renders snapshots of one style */
typedef struct glsnap_snapshot glsnap_snapshot;        /* one rendered RGBA image */

typedef enum glsnap_status {
    GLSNAP_OK = 0,
    GLSNAP_ERR_INVALID_ARGUMENT = 1,  /* a NULL or out-of-range argument, bad UTF-8 or JSON text, bad camera */
    GLSNAP_ERR_STYLE = 2,             /* the style cannot be read or is invalid, or there is none; an edit the style
                                         spec does not allow (glsnap_error_problem_* list the problems) */
    GLSNAP_ERR_SOURCE = 3,            /* a source of the style cannot be set up, or (strict errors) a tile of it is broken */
    GLSNAP_ERR_RENDER = 4,            /* drawing failed otherwise (the snapshotter closed, no render thread) */
    GLSNAP_ERR_NOT_FOUND = 5,         /* an unknown layer or source id */
    GLSNAP_ERR_IMAGE = 6,             /* encoding an image failed */
    GLSNAP_ERR_TIMED_OUT = 7,         /* the snapshot passed its time limit (Limits.snapshotTimeLimit) and stopped */
    GLSNAP_ERR_GL = 8,                /* the GL context, a shader or a GL call failed (earlier versions: GLSNAP_ERR_RENDER) */
    GLSNAP_ERR_LIMIT = 9              /* a size past one of the library's Limits (image side or pixels; earlier
                                         versions: GLSNAP_ERR_INVALID_ARGUMENT) */
} glsnap_status;

typedef enum glsnap_backend {
    GLSNAP_BACKEND_OSMESA = 0,  /* Mesa OSMesa (llvmpipe): no display, no EGL (default) */
    GLSNAP_BACKEND_EGL = 1      /* EGL: the GPU's device platform when there is one, else Mesa surfaceless */
} glsnap_backend;

typedef enum glsnap_format {
    GLSNAP_FORMAT_PNG = 0,
    GLSNAP_FORMAT_JPEG = 1,
    GLSNAP_FORMAT_WEBP = 2
} glsnap_format;

/* How a snapshotter renders. Fill with glsnap_options_init, then change fields. */
typedef struct glsnap_options {
    double width, height;        /* size in points (CSS pixels); default 512 x 512 */
    double pixel_ratio;          /* image pixels per point, 0.1...32; default 1 */
    int workers;                 /* GL contexts, each a render thread: 1...64; default 1 */
    int backend;                 /* a glsnap_backend; default GLSNAP_BACKEND_OSMESA */
    int draw_on_calling_thread;  /* nonzero: draw on the thread that calls render instead of the
                                    worker's thread (faster when at most `workers` threads render) */
    int skip_source_errors;      /* nonzero: draw around broken sources and tiles (as MapLibre does)
                                    and list them in glsnap_snapshot_warnings; 0: fail the render */
} glsnap_options;

/* Which glsnap_camera fields are given; the others fall back to the style's center, zoom,
   bearing and pitch, then to 0. */
enum {
    GLSNAP_CAMERA_CENTER = 1,
    GLSNAP_CAMERA_ZOOM = 2,
    GLSNAP_CAMERA_BEARING = 4,
    GLSNAP_CAMERA_PITCH = 8,
    GLSNAP_CAMERA_ALL = 15
};

typedef struct glsnap_camera {
    double longitude, latitude;  /* degrees; latitude within -90...90 */
    double zoom;                 /* -2...24 (below 0 the world is smaller than 512 points) */
    double bearing;              /* degrees clockwise from north */
    double pitch;                /* degrees from straight down, 0...85 */
    unsigned int fields;         /* GLSNAP_CAMERA_* bits of the fields set */
} glsnap_camera;

/* "0.1.0": static, never freed. Thread-safe. */
const char *glsnap_version(void);

/* Fills `options` with the defaults above. Thread-safe. */
void glsnap_options_init(glsnap_options *options);

/* A snapshotter, or NULL when the options are invalid; then `error` (may be NULL) receives the
   reason, truncated to error_size bytes with a NUL. NULL options: the defaults. GL contexts start
   on the first render. Free with glsnap_snapshotter_free. Thread-safe. */
glsnap_snapshotter *glsnap_snapshotter_new(const glsnap_options *options, char *error, size_t error_size);

/* Waits for renders in flight, ends the workers and frees the handle (NULL: nothing). Snapshots
   made by it stay valid. Must not race other calls on this snapshotter. */
void glsnap_snapshotter_free(glsnap_snapshotter *snapshotter);

/* The message of the calling thread's last failed call on this snapshotter ("" after a success).
   Owned by the handle; valid until this thread's next call on it. NULL for a NULL handle. */
const char *glsnap_snapshotter_error(const glsnap_snapshotter *snapshotter);

/* The style problems of the calling thread's last failed call on this snapshotter, each with the
   JSON path of the value at fault ("layers[2].paint.fill-color" for a style refused,
   "layers.water.paint.fill-color" for an edit) and its message; the count is 0 after a success and
   for errors that are not GLSNAP_ERR_STYLE or GLSNAP_ERR_NOT_FOUND. A style that cannot be read at
   all (no such file, not JSON) has one problem with the path "". Texts are owned by the handle and
   valid as glsnap_snapshotter_error's; an index out of range gives NULL (line: 0). The line is the
   value's line in the style file, 0 when unknown. NULL handle: 0 / NULL. */
int glsnap_error_problem_count(const glsnap_snapshotter *snapshotter);
const char *glsnap_error_problem_path(const glsnap_snapshotter *snapshotter, int index);
const char *glsnap_error_problem_message(const glsnap_snapshotter *snapshotter, int index);
int glsnap_error_problem_line(const glsnap_snapshotter *snapshotter, int index);

/* For the calling thread's last failed call on this snapshotter when it was GLSNAP_ERR_SOURCE: the
   source's name; glsnap_error_source_tile gives 1 and the tile's z/x/y (each pointer may be NULL)
   when a tile was broken (0 for a source that could not be set up), glsnap_error_source_location
   the tile's file or URL when the source has one per tile. NULL / 0 otherwise, and for a NULL
   handle. Texts are owned by the handle and valid as glsnap_snapshotter_error's. */
const char *glsnap_error_source(const glsnap_snapshotter *snapshotter);
int glsnap_error_source_tile(const glsnap_snapshotter *snapshotter, int *z, int *x, int *y);
const char *glsnap_error_source_location(const glsnap_snapshotter *snapshotter);

/* Loads a style from JSON text. Relative URLs (mbtiles://x.mbtiles, ../glyphs/...) resolve against
   `base`: a folder, a file path (its folder is used) or a URL; NULL: the current directory. On
   failure the previous style stays. */
glsnap_status glsnap_set_style_json(glsnap_snapshotter *snapshotter, const char *json, const char *base);

/* Loads a style file (relative URLs resolve against its folder) or an http(s):// URL. A style
   fetched over HTTP cannot be changed with the style calls below. On failure the previous style stays. */
glsnap_status glsnap_set_style_file(glsnap_snapshotter *snapshotter, const char *path_or_url);

/* The current style as JSON text (with the changes made by the calls below); free with glsnap_free. */
glsnap_status glsnap_get_style(glsnap_snapshotter *snapshotter, char **json_out);

/* Stores the camera glsnap_render uses when given a NULL camera. Checked when rendering. */
glsnap_status glsnap_set_camera(glsnap_snapshotter *snapshotter, const glsnap_camera *camera);

/* Changes the snapshotter's size in points (the pixel ratio is fixed at creation). */
glsnap_status glsnap_set_size(glsnap_snapshotter *snapshotter, double width, double height);

/* The camera (center, zoom, bearing) that fits the box west, south, east, north (degrees) into the
   snapshotter's size with `padding` points free on each side, at `bearing`, as MapLibre's
   cameraForBounds; written to *camera_out. Thread-safe. */
glsnap_status glsnap_fit_bounds(glsnap_snapshotter *snapshotter, double west, double south, double east, double north,
                                double padding, double bearing, glsnap_camera *camera_out);

/* Renders `camera` (NULL: the stored camera) at width x height points and pixel_ratio (0, 0 and 0:
   the snapshotter's). *snapshot_out gets a new snapshot (free with glsnap_snapshot_free), or NULL on
   failure. Thread-safe: concurrent calls run on different workers. */
glsnap_status glsnap_render(glsnap_snapshotter *snapshotter, const glsnap_camera *camera, double width, double height,
                            double pixel_ratio, glsnap_snapshot **snapshot_out);

/* Renders as glsnap_render and encodes the image: PNG (quality = zlib level 1-9; 0: 6), JPEG or
   WebP (quality 1-100; 0: 90). *bytes_out (free with glsnap_free) and *length_out. Thread-safe. */
glsnap_status glsnap_render_encoded(glsnap_snapshotter *snapshotter, const glsnap_camera *camera, double width,
                                    double height, double pixel_ratio, int format, int quality,
                                    uint8_t **bytes_out, size_t *length_out);

/* Adds (or replaces) an image icons and patterns can name: width x height straight RGBA pixels
   (4 bytes each, copied), `ratio` image pixels per point, sdf nonzero for a signed-distance icon.
   Loads the style's resources again when a style is set. Sides up to 8192. */
glsnap_status glsnap_add_image(glsnap_snapshotter *snapshotter, const char *name, const uint8_t *rgba, int width,
                               int height, double ratio, int sdf);
glsnap_status glsnap_remove_image(glsnap_snapshotter *snapshotter, const char *name);

/* Runtime style changes, through the library's runtime styling: only the cached work a change
   affects is redone (a paint property or visibility decodes, tessellates and lays out nothing
   again; a filter or layout property lays out that layer again from the cached tiles). Each checks
   what it names first: an unknown layer or source is GLSNAP_ERR_NOT_FOUND, naming it, and the
   style is left as it was; so is a value the style spec does not allow (GLSNAP_ERR_STYLE, naming
   the property: "layers.water.paint.fill-color: color expected, number found"). Values are JSON
   text. Safe to call between renders from any thread; a render draws the style as it was when it
   started. */
glsnap_status glsnap_set_filter(glsnap_snapshotter *snapshotter, const char *layer, const char *filter_json /* NULL or "": none */);
glsnap_status glsnap_set_paint_property(glsnap_snapshotter *snapshotter, const char *layer, const char *name,
                                        const char *value_json /* "null" removes it */);
glsnap_status glsnap_set_layout_property(glsnap_snapshotter *snapshotter, const char *layer, const char *name,
                                         const char *value_json /* "null" removes it */);
glsnap_status glsnap_set_visibility(glsnap_snapshotter *snapshotter, const char *layer, int visible);
glsnap_status glsnap_add_source(glsnap_snapshotter *snapshotter, const char *id, const char *source_json);
/* Adds a layer below `before` (NULL: on top); the source it names must exist. */
glsnap_status glsnap_add_layer(glsnap_snapshotter *snapshotter, const char *layer_json, const char *before);
glsnap_status glsnap_remove_layer(glsnap_snapshotter *snapshotter, const char *id);
/* JSON arrays of ids (layers in drawing order, sources sorted); free with glsnap_free. */
glsnap_status glsnap_list_layers(glsnap_snapshotter *snapshotter, char **json_out);
glsnap_status glsnap_list_sources(glsnap_snapshotter *snapshotter, char **json_out);
/* One layer's JSON; free with glsnap_free. */
glsnap_status glsnap_get_layer(glsnap_snapshotter *snapshotter, const char *id, char **json_out);

/* Replaces a GeoJSON source's data: `data_json` a GeoJSON object (FeatureCollection, Feature or
   geometry) or a URL string, read as at load. Only that source's tiles are made again. An unknown
   source is GLSNAP_ERR_NOT_FOUND, a source of another type GLSNAP_ERR_INVALID_ARGUMENT; the data is
   checked as at load (GLSNAP_ERR_STYLE naming the problem) and on failure the old data stays.
   Serialized with the style calls above. */
glsnap_status glsnap_set_geojson_source_data(glsnap_snapshotter *snapshotter, const char *source, const char *data_json);

/* Feature state (read by paint expressions with ["feature-state", key]): belongs to the
   snapshotter, survives style changes, and is taken by each render when it starts. `source` must be
   a source of the style (else GLSNAP_ERR_NOT_FOUND); `source_layer` names the layer of a vector
   source (required there, GLSNAP_ERR_INVALID_ARGUMENT without) and is NULL or "" for GeoJSON.
   `feature_id` is the id as text ("1" names id 1 or "1"; a source's promoteId property counts as
   its id). Thread-safe: may run while renders are in flight (they keep the state they started with). */
/* Merges `state_json` (a JSON object) into the feature's state; keys not named keep their values. */
glsnap_status glsnap_set_feature_state(glsnap_snapshotter *snapshotter, const char *source, const char *source_layer,
                                       const char *feature_id, const char *state_json);
/* The feature's state as a JSON object ("{}" when none); free *json_out with glsnap_free. */
glsnap_status glsnap_get_feature_state(glsnap_snapshotter *snapshotter, const char *source, const char *source_layer,
                                       const char *feature_id, char **json_out);
/* Removes one key of a feature's state (`key`), all its state (`key` NULL), or the state of every
   feature of the source (layer) (`feature_id` NULL; then `key` must be NULL too). */
glsnap_status glsnap_remove_feature_state(glsnap_snapshotter *snapshotter, const char *source, const char *source_layer,
                                          const char *feature_id, const char *key);

/* Snapshots: immutable, so every function below is thread-safe (queries included). */
void glsnap_snapshot_free(glsnap_snapshot *snapshot);
/* As glsnap_snapshotter_error, for calls on this snapshot. */
const char *glsnap_snapshot_error(const glsnap_snapshot *snapshot);
/* Size in pixels: floor(points x pixel ratio). */
int glsnap_snapshot_width(const glsnap_snapshot *snapshot);
int glsnap_snapshot_height(const glsnap_snapshot *snapshot);
double glsnap_snapshot_pixel_ratio(const glsnap_snapshot *snapshot);
/* The straight-alpha RGBA pixels, rows top to bottom (width x height x 4 bytes, in *length_out).
   Owned by the snapshot: valid until glsnap_snapshot_free. */
const uint8_t *glsnap_snapshot_pixels(const glsnap_snapshot *snapshot, size_t *length_out);
/* Encodes the image (format and quality as glsnap_render_encoded); free *bytes_out with glsnap_free. */
glsnap_status glsnap_snapshot_encode(glsnap_snapshot *snapshot, int format, int quality, uint8_t **bytes_out,
                                     size_t *length_out);
/* Problems drawn around under skip_source_errors, as a JSON array of strings; free with glsnap_free. */
glsnap_status glsnap_snapshot_warnings(glsnap_snapshot *snapshot, char **json_out);
/* The point (in points from the top-left) where a coordinate is drawn, and back. */
glsnap_status glsnap_snapshot_point_for(glsnap_snapshot *snapshot, double longitude, double latitude, double *x, double *y);
glsnap_status glsnap_snapshot_coordinate_for(glsnap_snapshot *snapshot, double x, double y, double *longitude,
                                             double *latitude);

/* Feature queries (MapLibre's queryRenderedFeatures): the features this snapshot drew at a point or
   in the box between two corners, in points from the top-left (pixels / pixel ratio, as
   glsnap_snapshot_point_for gives them), topmost first. Lines count within half their width,
   circles within radius and stroke, symbols by the boxes of those placed (a label hidden by another
   is not found). `layers_json`: a JSON array of layer ids to look in (NULL or "": every layer; an
   unknown id is GLSNAP_ERR_NOT_FOUND); `filter_json`: a style-spec filter the features must also
   pass (NULL or "": none; not a filter: GLSNAP_ERR_INVALID_ARGUMENT). *geojson_out receives a
   GeoJSON FeatureCollection, as `glsnap query` prints it: each feature with "geometry" (longitude,
   latitude), "properties", "id" (when it has one), "layer", "source", "sourceLayer" (vector
   sources) and "state". Free it with glsnap_free. The query reads the tiles again through the
   snapshotter's tile cache (which the snapshot keeps: it may be queried after glsnap_snapshotter_free).
   Thread-safe. */
glsnap_status glsnap_snapshot_query_point(glsnap_snapshot *snapshot, double x, double y, const char *layers_json,
                                          const char *filter_json, char **geojson_out);
glsnap_status glsnap_snapshot_query_box(glsnap_snapshot *snapshot, double x1, double y1, double x2, double y2,
                                        const char *layers_json, const char *filter_json, char **geojson_out);
/* The features of `source` in the tiles this snapshot drew, drawn or not (querySourceFeatures);
   `source_layer` is required for vector sources, NULL or "" for GeoJSON. A feature that crosses
   tiles comes once per tile. Output as above (without "layer"). */
glsnap_status glsnap_snapshot_query_source_features(glsnap_snapshot *snapshot, const char *source, const char *source_layer,
                                                    const char *filter_json, char **geojson_out);

/* Decodes a PNG, JPEG or WebP image (e.g. for glsnap_add_image) into straight RGBA: *rgba_out
   (width x height x 4 bytes; free with glsnap_free), *width_out, *height_out. On failure `error`
   (may be NULL) receives the reason, truncated to error_size bytes. Sides up to 16384. Thread-safe. */
glsnap_status glsnap_decode_image(const uint8_t *bytes, size_t length, uint8_t **rgba_out, int *width_out, int *height_out,
                                  char *error, size_t error_size);

/* Raster tile pyramids as `glsnap tiles` renders them, for spreading one pyramid over processes or
   machines (python/glsnap/ray_tiles.py). `pyramid` is JSON text:
     {"bounds": [W, S, E, N] | "fitData": "SOURCE", "minzoom": A, "maxzoom": B, "tileSize": 256 | 512 (512),
      "ratio": R (1), "metatile": N (4), "format": "png" | "jpeg" | "webp" ("png"),
      "stylePath": "STYLE.json" (names the run in the metadata, as glsnap tiles --style), "shard": [I, N]}
   glsnap_tiles_plan writes (free with glsnap_free) {"tiles": count, "tilePixels": side, "bounds": [...],
   "metadata": {MBTiles rows}, "regions": [[z, x0, x1, y0, y1], ...] (the label placement regions),
   "metatiles": [[z, x0, x1, y0, y1, region], ...] (glsnap tiles' fixed order), "shard": [numbers of the
   metatiles of shard I/N, as glsnap tiles --shard I/N]}. */
glsnap_status glsnap_tiles_plan(glsnap_snapshotter *snapshotter, const char *pyramid, char **plan_out);

/* Renders the `count` metatiles numbered in `metatiles` (indices into the plan's "metatiles") into
   `archive` (.mbtiles, .pmtiles or a folder) with glsnap tiles' bytes: labels placed per region
   whatever metatiles a call is given, tiles already in the archive kept, each metatile written all
   or nothing, the metadata written before returning. The snapshotter keeps each zoom level's
   placement region between calls on the same pyramid (a new style or image drops it). *result_out
   (may be NULL; free with glsnap_free): {"rendered": tiles, "kept": tiles, "warnings": [...]}.
   Calls on one snapshotter run one at a time; renders may still run beside them. */
glsnap_status glsnap_tiles_render(glsnap_snapshotter *snapshotter, const char *pyramid, const uint32_t *metatiles,
                                  size_t count, const char *archive, char **result_out);

/* Frees a buffer or string handed out by this library (NULL: nothing). Thread-safe. */
void glsnap_free(void *pointer);

#ifdef __cplusplus
}
#endif
#endif
