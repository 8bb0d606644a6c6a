#pragma once
// libcurl, loaded the first time a request is made (dlopen of libcurl.so.4) rather than linked:
// linked, it and the libraries it needs cost every process its start (about 3 ms of a scan's two
// processes' CPU, issue 77) although most commands make no request.
//
// Swift calls the `sentinel_curl_*` functions only; curl.h is here for its types and constants.
// A call to a libcurl function itself does not link (the binary does not name libcurl).
#include <curl/curl.h>

/// Loads libcurl once; NULL when it is there, else why not (a static string, or dlerror's text).
const char *sentinel_curl_load(void);

CURL *sentinel_curl_easy_init(void);
void sentinel_curl_easy_cleanup(CURL *curl);
CURLcode sentinel_curl_easy_perform(CURL *curl);
const char *sentinel_curl_easy_strerror(CURLcode code);
struct curl_slist *sentinel_curl_slist_append(struct curl_slist *list, const char *text);
void sentinel_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per argument kind.
typedef size_t (*sentinel_curl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode sentinel_curl_set_long(CURL *curl, CURLoption option, long value);
CURLcode sentinel_curl_set_string(CURL *curl, CURLoption option, const char *value);
CURLcode sentinel_curl_set_pointer(CURL *curl, CURLoption option, void *value);
CURLcode sentinel_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value);
CURLcode sentinel_curl_set_callback(CURL *curl, CURLoption option, sentinel_curl_data_callback callback);
CURLcode sentinel_curl_get_long(CURL *curl, CURLINFO info, long *value);
