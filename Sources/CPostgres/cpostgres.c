#include "cpostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// The library's functions, resolved once.
#define SENTINEL_PQ_POINTER(type, name, parameters, arguments) static type(*resolved_##name) parameters;
SENTINEL_PQ_FUNCTIONS(SENTINEL_PQ_POINTER)
#undef SENTINEL_PQ_POINTER

static const char *load_error = "libpq was not loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    // RTLD_LOCAL: its symbols stay its own; RTLD_NOW: a missing symbol fails here, not mid-query.
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        load_error = why != NULL ? why : "libpq.so.5 could not be loaded";
        return;
    }
#define SENTINEL_PQ_RESOLVE(type, name, parameters, arguments)                                                   \
    *(void **)(&resolved_##name) = dlsym(library, #name);                                                       \
    if (resolved_##name == NULL) {                                                                               \
        load_error = "libpq.so.5 lacks " #name;                                                                  \
        return;                                                                                                  \
    }
    SENTINEL_PQ_FUNCTIONS(SENTINEL_PQ_RESOLVE)
#undef SENTINEL_PQ_RESOLVE
    load_error = NULL;
}

const char *sentinel_pq_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

// Swift checks sentinel_pq_load() before its first call (reading a connection string, connecting);
// a call without it is a programming error, stopped here rather than a jump through NULL.
#define SENTINEL_PQ_DEFINE(type, name, parameters, arguments)                                                    \
    type sentinel_##name parameters {                                                                            \
        if (sentinel_pq_load() != NULL) abort();                                                                 \
        return resolved_##name arguments;                                                                        \
    }
SENTINEL_PQ_FUNCTIONS(SENTINEL_PQ_DEFINE)
#undef SENTINEL_PQ_DEFINE
