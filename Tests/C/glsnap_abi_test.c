/* The C ABI from C: built against an installed glsnap (pkg-config --cflags --libs glsnap) and run by
 * python/tests/test_c_abi.py. Prints one line per failed check and exits 1 if any failed.
 * usage: glsnap_abi_test [STYLE.json LON LAT ZOOM OUT.png]   (the optional map: rendered to OUT.png) */
#include <glsnap.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static const char *style =
    "{\"version\":8,\"sources\":{\"box\":{\"type\":\"geojson\",\"data\":{\"type\":\"Polygon\","
    "\"coordinates\":[[[-20,-20],[20,-20],[20,20],[-20,20],[-20,-20]]]}}},"
    "\"layers\":[{\"id\":\"bg\",\"type\":\"background\",\"paint\":{\"background-color\":\"#ff0000\"}},"
    "{\"id\":\"fill\",\"type\":\"fill\",\"source\":\"box\",\"paint\":{\"fill-color\":\"#0000ff\"}}]}";

/* The RGBA pixel at (x, y) of a snapshot. */
static const uint8_t *pixel(glsnap_snapshot *snap, int x, int y) {
    size_t n = 0;
    const uint8_t *p = glsnap_snapshot_pixels(snap, &n);
    return p + ((size_t)y * glsnap_snapshot_width(snap) + x) * 4;
}

static int render_map(const char *path, double lon, double lat, double zoom, const char *out) {
    glsnap_options o;
    glsnap_options_init(&o);
    char err[512];
    glsnap_snapshotter *s = glsnap_snapshotter_new(&o, err, sizeof err);
    if (!s) { fprintf(stderr, "%s\n", err); return 1; }
    if (glsnap_set_style_file(s, path) != GLSNAP_OK) { fprintf(stderr, "%s\n", glsnap_snapshotter_error(s)); return 1; }
    glsnap_camera c = { .longitude = lon, .latitude = lat, .zoom = zoom, .fields = GLSNAP_CAMERA_CENTER | GLSNAP_CAMERA_ZOOM };
    uint8_t *png = NULL;
    size_t n = 0;
    if (glsnap_render_encoded(s, &c, 0, 0, 0, GLSNAP_FORMAT_PNG, 0, &png, &n) != GLSNAP_OK) {
        fprintf(stderr, "%s\n", glsnap_snapshotter_error(s));
        return 1;
    }
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(png, 1, n, f) != n) { perror(out); return 1; }
    fclose(f);
    glsnap_free(png);
    glsnap_snapshotter_free(s);
    printf("rendered %s: %zu bytes of PNG\n", out, n);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 6) return render_map(argv[1], atof(argv[2]), atof(argv[3]), atof(argv[4]), argv[5]);

    /* Invalid options: NULL and a message, no handle. */
    glsnap_options o;
    glsnap_options_init(&o);
    o.workers = 0;
    char err[256] = "";
    CHECK(glsnap_snapshotter_new(&o, err, sizeof err) == NULL, "workers 0 made a snapshotter");
    CHECK(strstr(err, "workers 0") != NULL, "message for workers 0: '%s'", err);
    glsnap_options_init(&o);
    o.width = 128; o.height = 64; o.pixel_ratio = 2;
    glsnap_snapshotter *s = glsnap_snapshotter_new(&o, err, sizeof err);
    CHECK(s != NULL, "snapshotter: %s", err);
    if (!s) return 1;

    /* No style yet, bad JSON, NULL text. */
    glsnap_snapshot *snap = NULL;
    CHECK(glsnap_render(s, NULL, 0, 0, 0, &snap) == GLSNAP_ERR_STYLE && snap == NULL, "render without a style");
    CHECK(strstr(glsnap_snapshotter_error(s), "no style set") != NULL, "message: '%s'", glsnap_snapshotter_error(s));
    CHECK(glsnap_set_style_json(s, "{\"version\":8,", NULL) == GLSNAP_ERR_STYLE, "truncated JSON accepted");
    CHECK(strlen(glsnap_snapshotter_error(s)) > 0, "no message for truncated JSON");
    CHECK(glsnap_set_style_json(s, NULL, NULL) == GLSNAP_ERR_INVALID_ARGUMENT, "NULL JSON accepted");
    /* An invalid style lists its problems, each with the JSON path of the value at fault. */
    CHECK(glsnap_set_style_json(s, "{\"version\":8,\"sources\":{},\"layers\":[{\"id\":\"x\",\"type\":\"sparkles\"}]}", NULL)
              == GLSNAP_ERR_STYLE, "unknown layer type accepted");
    CHECK(glsnap_error_problem_count(s) == 1, "problems: %d", glsnap_error_problem_count(s));
    CHECK(glsnap_error_problem_path(s, 0) && strcmp(glsnap_error_problem_path(s, 0), "layers[0].type") == 0, "path: '%s'",
          glsnap_error_problem_path(s, 0) ? glsnap_error_problem_path(s, 0) : "(null)");
    CHECK(glsnap_error_problem_message(s, 0) && strlen(glsnap_error_problem_message(s, 0)) > 0, "no problem message");
    CHECK(glsnap_error_problem_path(s, 1) == NULL, "problem past the count");
    CHECK(glsnap_set_style_file(s, "/nonexistent/style.json") == GLSNAP_ERR_STYLE, "missing file accepted");
    CHECK(strstr(glsnap_snapshotter_error(s), "/nonexistent/style.json") != NULL, "message names the file: '%s'",
          glsnap_snapshotter_error(s));
    CHECK(glsnap_set_style_json(s, style, NULL) == GLSNAP_OK, "style: %s", glsnap_snapshotter_error(s));
    CHECK(strcmp(glsnap_snapshotter_error(s), "") == 0, "message after a success: '%s'", glsnap_snapshotter_error(s));

    /* A render: blue box in the middle, red around it; 256 x 128 pixels at ratio 2. */
    glsnap_camera c = { .longitude = 0, .latitude = 0, .zoom = 1, .fields = GLSNAP_CAMERA_ALL };
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    if (!snap) return 1;
    CHECK(glsnap_snapshot_width(snap) == 256 && glsnap_snapshot_height(snap) == 128, "size %dx%d",
          glsnap_snapshot_width(snap), glsnap_snapshot_height(snap));
    const uint8_t *mid = pixel(snap, 128, 64), *corner = pixel(snap, 2, 2);
    CHECK(mid[0] == 0 && mid[2] == 255 && mid[3] == 255, "middle is %d,%d,%d,%d", mid[0], mid[1], mid[2], mid[3]);
    CHECK(corner[0] == 255 && corner[2] == 0, "corner is %d,%d,%d", corner[0], corner[1], corner[2]);
    double x = 0, y = 0, lon = 1, lat = 1;
    CHECK(glsnap_snapshot_point_for(snap, 0, 0, &x, &y) == GLSNAP_OK && fabs(x - 64) < 1e-6 && fabs(y - 32) < 1e-6,
          "point for 0,0: %f,%f", x, y);
    CHECK(glsnap_snapshot_coordinate_for(snap, 64, 32, &lon, &lat) == GLSNAP_OK && fabs(lon) < 1e-6 && fabs(lat) < 1e-6,
          "coordinate for the middle: %f,%f", lon, lat);
    CHECK(glsnap_snapshot_point_for(snap, NAN, 0, &x, &y) == GLSNAP_ERR_INVALID_ARGUMENT, "NaN longitude accepted");
    uint8_t *bytes = NULL;
    size_t n = 0;
    CHECK(glsnap_snapshot_encode(snap, GLSNAP_FORMAT_PNG, 0, &bytes, &n) == GLSNAP_OK && n > 8 && memcmp(bytes, "\x89PNG", 4) == 0,
          "PNG encoding");
    glsnap_free(bytes);
    CHECK(glsnap_snapshot_encode(snap, 7, 0, &bytes, &n) == GLSNAP_ERR_INVALID_ARGUMENT, "format 7 accepted");
    CHECK(strstr(glsnap_snapshot_error(snap), "format 7") != NULL, "message: '%s'", glsnap_snapshot_error(snap));
    glsnap_snapshot_free(snap);
    CHECK(glsnap_render_encoded(s, &c, 0, 0, 0, GLSNAP_FORMAT_JPEG, 80, &bytes, &n) == GLSNAP_OK && n > 2 && bytes[0] == 0xFF,
          "JPEG render: %s", glsnap_snapshotter_error(s));
    glsnap_free(bytes);

    /* Bad cameras. */
    glsnap_camera bad = c;
    bad.zoom = 30;
    CHECK(glsnap_render(s, &bad, 0, 0, 0, &snap) == GLSNAP_ERR_INVALID_ARGUMENT, "zoom 30 accepted");
    CHECK(strstr(glsnap_snapshotter_error(s), "zoom 30") != NULL, "message: '%s'", glsnap_snapshotter_error(s));
    CHECK(glsnap_render(s, &c, -5, 10, 0, &snap) == GLSNAP_ERR_INVALID_ARGUMENT, "negative size accepted");

    /* Style changes: an unknown layer is named and changes nothing; a known one takes effect. */
    CHECK(glsnap_set_paint_property(s, "nope", "fill-color", "\"#00ff00\"") == GLSNAP_ERR_NOT_FOUND, "unknown layer accepted");
    CHECK(strstr(glsnap_snapshotter_error(s), "\"nope\"") != NULL, "message: '%s'", glsnap_snapshotter_error(s));
    CHECK(glsnap_set_paint_property(s, "fill", "fill-color", "#00ff00") == GLSNAP_ERR_INVALID_ARGUMENT, "non-JSON value accepted");
    CHECK(glsnap_set_paint_property(s, "fill", "fill-color", "\"#00ff00\"") == GLSNAP_OK, "paint: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    mid = pixel(snap, 128, 64);
    CHECK(mid[0] == 0 && mid[1] == 255 && mid[2] == 0, "middle after fill-color green: %d,%d,%d", mid[0], mid[1], mid[2]);
    glsnap_snapshot_free(snap);
    CHECK(glsnap_set_visibility(s, "fill", 0) == GLSNAP_OK, "visibility: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    mid = pixel(snap, 128, 64);
    CHECK(mid[0] == 255 && mid[1] == 0, "middle with the fill hidden: %d,%d,%d", mid[0], mid[1], mid[2]);
    glsnap_snapshot_free(snap);
    CHECK(glsnap_add_layer(s, "{\"id\":\"x\",\"type\":\"fill\",\"source\":\"missing\"}", NULL) == GLSNAP_ERR_NOT_FOUND,
          "layer on a missing source accepted");
    CHECK(glsnap_add_layer(s, "{\"id\":\"top\",\"type\":\"fill\",\"source\":\"box\"}", "fill") == GLSNAP_OK, "add_layer: %s",
          glsnap_snapshotter_error(s));
    char *list = NULL;
    CHECK(glsnap_list_layers(s, &list) == GLSNAP_OK && strcmp(list, "[\"bg\",\"top\",\"fill\"]") == 0, "layers: %s", list);
    glsnap_free(list);
    CHECK(glsnap_remove_layer(s, "top") == GLSNAP_OK, "remove_layer: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_list_sources(s, &list) == GLSNAP_OK && strcmp(list, "[\"box\"]") == 0, "sources: %s", list);
    glsnap_free(list);

    /* Feature queries: the box in the middle, nothing in the corner; bad arguments are codes. */
    CHECK(glsnap_set_visibility(s, "fill", 1) == GLSNAP_OK, "visibility: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    char *geojson = NULL;
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, NULL, NULL, &geojson) == GLSNAP_OK, "query: %s", glsnap_snapshot_error(snap));
    CHECK(geojson && strstr(geojson, "\"FeatureCollection\"") && strstr(geojson, "\"layer\":\"fill\"")
          && strstr(geojson, "\"Polygon\""), "query at the middle: %s", geojson);
    glsnap_free(geojson);
    CHECK(glsnap_snapshot_query_point(snap, 2, 2, "[\"fill\"]", NULL, &geojson) == GLSNAP_OK
          && strcmp(geojson, "{\"features\":[],\"type\":\"FeatureCollection\"}") == 0, "query at the corner: %s", geojson);
    glsnap_free(geojson);
    CHECK(glsnap_snapshot_query_box(snap, 0, 0, 128, 64, "[\"fill\"]", "[\"==\", [\"geometry-type\"], \"Polygon\"]", &geojson) == GLSNAP_OK
          && strstr(geojson, "\"fill\""), "box query: %s", glsnap_snapshot_error(snap));
    glsnap_free(geojson);
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, "[\"nope\"]", NULL, &geojson) == GLSNAP_ERR_NOT_FOUND, "unknown layer queried");
    CHECK(strstr(glsnap_snapshot_error(snap), "'nope'") != NULL, "message: '%s'", glsnap_snapshot_error(snap));
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, "fill", NULL, &geojson) == GLSNAP_ERR_INVALID_ARGUMENT, "layers not JSON");
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, "[1]", NULL, &geojson) == GLSNAP_ERR_INVALID_ARGUMENT, "layers not ids");
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, NULL, "[\"frob\", 1]", &geojson) == GLSNAP_ERR_INVALID_ARGUMENT, "bad filter");
    CHECK(glsnap_snapshot_query_point(snap, NAN, 32, NULL, NULL, &geojson) == GLSNAP_ERR_INVALID_ARGUMENT, "NaN point");
    CHECK(glsnap_snapshot_query_point(snap, 64, 32, NULL, NULL, NULL) == GLSNAP_ERR_INVALID_ARGUMENT, "NULL out");
    CHECK(glsnap_snapshot_query_point(NULL, 64, 32, NULL, NULL, &geojson) == GLSNAP_ERR_INVALID_ARGUMENT, "NULL snapshot");
    CHECK(glsnap_snapshot_query_source_features(snap, "box", NULL, NULL, &geojson) == GLSNAP_OK && strstr(geojson, "\"box\""),
          "source features: %s", glsnap_snapshot_error(snap));
    glsnap_free(geojson);
    CHECK(glsnap_snapshot_query_source_features(snap, "nope", NULL, NULL, &geojson) == GLSNAP_ERR_NOT_FOUND, "unknown source");
    glsnap_snapshot_free(snap);

    /* GeoJSON data: the box moves east of the middle (background there) as feature 7; bad data is refused. */
    CHECK(glsnap_set_geojson_source_data(s, "box", "{\"type\":\"Feature\",\"id\":7,\"properties\":{},\"geometry\":"
                                         "{\"type\":\"Polygon\",\"coordinates\":[[[10,-20],[40,-20],[40,20],[10,20],[10,-20]]]}}")
          == GLSNAP_OK, "geojson data: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_set_geojson_source_data(s, "nope", "{}") == GLSNAP_ERR_NOT_FOUND, "data of an unknown source");
    CHECK(glsnap_set_geojson_source_data(s, "box", "{\"type\":") == GLSNAP_ERR_INVALID_ARGUMENT, "truncated data");
    CHECK(glsnap_set_geojson_source_data(s, "box", "42") == GLSNAP_ERR_INVALID_ARGUMENT, "a number as data");

    /* Feature state: set, read, drawn by paint, removed; unknown sources are named. */
    CHECK(glsnap_set_paint_property(s, "fill", "fill-color",
                                    "[\"case\", [\"boolean\", [\"feature-state\", \"hot\"], false], \"#ff00ff\", \"#00ff00\"]") == GLSNAP_OK,
          "state paint: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_set_feature_state(s, "box", NULL, "7", "{\"hot\": true}") == GLSNAP_OK, "set state: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_get_feature_state(s, "box", NULL, "7", &list) == GLSNAP_OK && strcmp(list, "{\"hot\":true}") == 0, "state: %s", list);
    glsnap_free(list);
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    mid = pixel(snap, 128, 64);
    CHECK(mid[0] == 255 && mid[1] == 0 && mid[2] == 0, "middle after the data moved: %d,%d,%d", mid[0], mid[1], mid[2]);
    const uint8_t *east = pixel(snap, 220, 64);
    CHECK(east[0] == 255 && east[1] == 0 && east[2] == 255, "feature 7 hot: %d,%d,%d", east[0], east[1], east[2]);
    CHECK(glsnap_snapshot_query_point(snap, 110, 32, NULL, NULL, &geojson) == GLSNAP_OK && strstr(geojson, "\"hot\":true")
          && strstr(geojson, "\"id\":7"), "query with state: %s", geojson);
    glsnap_free(geojson);
    glsnap_snapshot_free(snap);
    CHECK(glsnap_set_feature_state(s, "nope", NULL, "7", "{}") == GLSNAP_ERR_NOT_FOUND, "state of an unknown source");
    CHECK(strstr(glsnap_snapshotter_error(s), "\"nope\"") != NULL, "message: '%s'", glsnap_snapshotter_error(s));
    CHECK(glsnap_set_feature_state(s, "box", NULL, "7", "[1]") == GLSNAP_ERR_INVALID_ARGUMENT, "state not an object");
    CHECK(glsnap_set_feature_state(s, "box", NULL, NULL, "{}") == GLSNAP_ERR_INVALID_ARGUMENT, "NULL feature id");
    CHECK(glsnap_remove_feature_state(s, "box", NULL, NULL, "hot") == GLSNAP_ERR_INVALID_ARGUMENT, "key without a feature");
    CHECK(glsnap_remove_feature_state(s, "box", NULL, "7", "hot") == GLSNAP_OK, "remove state: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_get_feature_state(s, "box", NULL, "7", &list) == GLSNAP_OK && strcmp(list, "{}") == 0, "state after remove: %s", list);
    glsnap_free(list);
    CHECK(glsnap_render(s, &c, 0, 0, 0, &snap) == GLSNAP_OK, "render: %s", glsnap_snapshotter_error(s));
    east = pixel(snap, 220, 64);
    CHECK(east[0] == 0 && east[1] == 255 && east[2] == 0, "feature 7 after its state is removed: %d,%d,%d", east[0], east[1], east[2]);

    /* Images and NULLs. */
    uint8_t rgba[4 * 4 * 4];
    memset(rgba, 255, sizeof rgba);
    CHECK(glsnap_add_image(s, "dot", rgba, 4, 4, 1, 0) == GLSNAP_OK, "add_image: %s", glsnap_snapshotter_error(s));
    CHECK(glsnap_add_image(s, "dot", NULL, 4, 4, 1, 0) == GLSNAP_ERR_INVALID_ARGUMENT, "NULL pixels accepted");
    CHECK(glsnap_add_image(s, "dot", rgba, 0, 4, 1, 0) == GLSNAP_ERR_INVALID_ARGUMENT, "0-wide image accepted");
    CHECK(glsnap_set_camera(NULL, &c) == GLSNAP_ERR_INVALID_ARGUMENT, "NULL handle accepted");
    CHECK(glsnap_snapshotter_error(NULL) == NULL, "error of NULL");
    glsnap_camera fit;
    CHECK(glsnap_fit_bounds(s, -20, -20, 20, 20, 0, 0, &fit) == GLSNAP_OK && fabs(fit.longitude) < 1e-9, "fit_bounds: %s",
          glsnap_snapshotter_error(s));
    glsnap_snapshotter_free(s);
    /* A snapshot outlives its snapshotter, queries included. */
    CHECK(glsnap_snapshot_query_point(snap, 110, 32, NULL, NULL, &geojson) == GLSNAP_OK && strstr(geojson, "\"fill\""),
          "query after the snapshotter is freed: %s", glsnap_snapshot_error(snap));
    glsnap_free(geojson);
    glsnap_snapshot_free(snap);
    glsnap_snapshot_free(NULL);
    glsnap_free(NULL);

    if (failures) { printf("%d checks failed\n", failures); return 1; }
    printf("glsnap C ABI: all checks passed (glsnap %s)\n", glsnap_version());
    return 0;
}
