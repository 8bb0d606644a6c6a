#include "internal.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* uid 0 in a new user namespace regains the bounding set at execve, so it must be
   emptied explicitly; stop at the first EINVAL, which marks the kernel's last cap. */
int sbx_drop_bounding_set(void) {
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            if (errno == EINVAL && cap > 0) {
                return 0;
            }
            return -1;
        }
    }
    return 0;
}

/* Effective, permitted and inheritable all empty; a raw syscall so no library state is
   touched in the child. */
int sbx_clear_capabilities(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0, 0, 0}, {0, 0, 0}};
    return (int)syscall(SYS_capset, &header, data);
}
