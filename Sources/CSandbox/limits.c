#include "internal.h"

#include <sys/resource.h>

int sbx_apply_rlimits(const struct sbx_rlimit *limits, size_t count) {
    for (size_t i = 0; i < count; i++) {
        struct rlimit value = {.rlim_cur = limits[i].soft, .rlim_max = limits[i].hard};
        if (setrlimit((__rlimit_resource_t)limits[i].resource, &value) != 0) {
            return -1;
        }
    }
    return 0;
}
