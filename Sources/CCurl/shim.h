#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per argument kind, nothing more.
typedef size_t (*glsnap_curl_write_fn)(char *data, size_t size, size_t count, void *user);

static inline CURLcode glsnap_curl_set_long(CURL *h, CURLoption option, long value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode glsnap_curl_set_offset(CURL *h, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode glsnap_curl_set_string(CURL *h, CURLoption option, const char *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode glsnap_curl_set_pointer(CURL *h, CURLoption option, void *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode glsnap_curl_set_write_function(CURL *h, glsnap_curl_write_fn fn) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, fn);
}
static inline CURLcode glsnap_curl_get_long(CURL *h, CURLINFO info, long *value) {
    return curl_easy_getinfo(h, info, value);
}
