#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>

// The library's functions, resolved once. Every wrapper but sentinel_curl_easy_init runs only on a
// handle that function returned, so after a successful load.
static struct {
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} curl;
static const char *load_error = "libcurl was not loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    // RTLD_LOCAL: its symbols stay its own; RTLD_NOW: a missing symbol fails here, not mid-request.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        load_error = why != NULL ? why : "libcurl.so.4 could not be loaded";
        return;
    }
#define RESOLVE(field, name)                                                                                   \
    do {                                                                                                       \
        *(void **)(&curl.field) = dlsym(library, name);                                                        \
        if (curl.field == NULL) {                                                                              \
            load_error = "libcurl.so.4 lacks " name;                                                           \
            return;                                                                                            \
        }                                                                                                      \
    } while (0)
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
#undef RESOLVE
    load_error = NULL;
}

const char *sentinel_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

CURL *sentinel_curl_easy_init(void) { return sentinel_curl_load() == NULL ? curl.easy_init() : NULL; }
void sentinel_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode sentinel_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *sentinel_curl_easy_strerror(CURLcode code) {
    return sentinel_curl_load() == NULL ? curl.easy_strerror(code) : "libcurl is not loaded";
}
struct curl_slist *sentinel_curl_slist_append(struct curl_slist *list, const char *text) {
    return sentinel_curl_load() == NULL ? curl.slist_append(list, text) : NULL;
}
void sentinel_curl_slist_free_all(struct curl_slist *list) {
    if (list != NULL) curl.slist_free_all(list);
}

CURLcode sentinel_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode sentinel_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode sentinel_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode sentinel_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode sentinel_curl_set_callback(CURL *handle, CURLoption option, sentinel_curl_data_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}
CURLcode sentinel_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
