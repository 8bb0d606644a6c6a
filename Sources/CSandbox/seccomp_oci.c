/*
 * OCI / Docker seccomp profiles (JSON, parsed with json-c). Rules gated on capabilities
 * (`includes.caps`) are skipped because the payload holds none; sub-architectures in
 * `archMap` are deliberately not added, so foreign-ABI syscalls stay killed.
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <json-c/json.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

struct oci_state {
    const char *path;
    uint32_t default_action;
    int default_errno;
    char *err;
    size_t err_len;
};

static const char *string_member(json_object *object, const char *key) {
    json_object *value;
    if (!json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_string)) {
        return NULL;
    }
    return json_object_get_string(value);
}

static int parse_action(struct oci_state *state, const char *name, int errno_ret, uint32_t *out) {
    if (strcmp(name, "SCMP_ACT_ALLOW") == 0) *out = SCMP_ACT_ALLOW;
    else if (strcmp(name, "SCMP_ACT_ERRNO") == 0) *out = SCMP_ACT_ERRNO((uint16_t)errno_ret);
    else if (strcmp(name, "SCMP_ACT_KILL") == 0 || strcmp(name, "SCMP_ACT_KILL_PROCESS") == 0) {
        *out = SCMP_ACT_KILL_PROCESS;
    } else if (strcmp(name, "SCMP_ACT_KILL_THREAD") == 0) *out = SCMP_ACT_KILL_THREAD;
    else if (strcmp(name, "SCMP_ACT_TRAP") == 0) *out = SCMP_ACT_TRAP;
    else if (strcmp(name, "SCMP_ACT_TRACE") == 0) *out = SCMP_ACT_TRACE((uint16_t)errno_ret);
    else if (strcmp(name, "SCMP_ACT_LOG") == 0) *out = SCMP_ACT_LOG;
    else {
        snprintf(state->err, state->err_len, "%s: unsupported seccomp action %s", state->path, name);
        return -1;
    }
    return 0;
}

static int parse_op(const char *name, enum scmp_compare *out) {
    static const struct {
        const char *name;
        enum scmp_compare op;
    } ops[] = {
        {"SCMP_CMP_NE", SCMP_CMP_NE}, {"SCMP_CMP_LT", SCMP_CMP_LT},
        {"SCMP_CMP_LE", SCMP_CMP_LE}, {"SCMP_CMP_EQ", SCMP_CMP_EQ},
        {"SCMP_CMP_GE", SCMP_CMP_GE}, {"SCMP_CMP_GT", SCMP_CMP_GT},
        {"SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(ops[i].name, name) == 0) {
            *out = ops[i].op;
            return 0;
        }
    }
    return -1;
}

static uint64_t number_value(json_object *value) {
    if (json_object_is_type(value, json_type_int)) {
        int64_t signed_value = json_object_get_int64(value);
        return signed_value >= 0 ? json_object_get_uint64(value) : (uint64_t)signed_value;
    }
    return 0;
}

static int list_contains(json_object *list, const char *const *names) {
    if (list == NULL || !json_object_is_type(list, json_type_array)) return 0;
    size_t count = json_object_array_length(list);
    for (size_t i = 0; i < count; i++) {
        const char *item = json_object_get_string(json_object_array_get_idx(list, i));
        for (size_t j = 0; item != NULL && names[j] != NULL; j++) {
            if (strcmp(item, names[j]) == 0) return 1;
        }
    }
    return 0;
}

static int kernel_at_least(const char *version) {
    struct utsname name;
    int want_major = 0, want_minor = 0, have_major = 0, have_minor = 0;
    if (sscanf(version, "%d.%d", &want_major, &want_minor) < 1) return 1;
    if (uname(&name) != 0 || sscanf(name.release, "%d.%d", &have_major, &have_minor) < 1) return 1;
    return have_major > want_major || (have_major == want_major && have_minor >= want_minor);
}

static const char *const native_arches[] = {"amd64", "x86_64", "SCMP_ARCH_X86_64", NULL};

/* Whether a rule applies to a capability-less payload on this architecture and kernel. */
static int rule_applies(json_object *rule) {
    json_object *includes, *excludes, *value;
    if (json_object_object_get_ex(rule, "includes", &includes) && includes != NULL) {
        if (json_object_object_get_ex(includes, "caps", &value) && value != NULL &&
            json_object_array_length(value) > 0) {
            return 0;
        }
        if (json_object_object_get_ex(includes, "arches", &value) && value != NULL &&
            json_object_array_length(value) > 0 && !list_contains(value, native_arches)) {
            return 0;
        }
        const char *min_kernel = string_member(includes, "minKernel");
        if (min_kernel != NULL && !kernel_at_least(min_kernel)) return 0;
    }
    if (json_object_object_get_ex(rule, "excludes", &excludes) && excludes != NULL) {
        if (json_object_object_get_ex(excludes, "arches", &value) && list_contains(value, native_arches)) {
            return 0;
        }
    }
    return 1;
}

static int add_rule(struct oci_state *state, scmp_filter_ctx ctx, json_object *rule, size_t index) {
    if (!rule_applies(rule)) return 0;
    const char *action_name = string_member(rule, "action");
    if (action_name == NULL) {
        snprintf(state->err, state->err_len, "%s: syscalls[%zu] has no action", state->path, index);
        return -1;
    }
    int errno_ret = state->default_errno;
    json_object *value;
    if (json_object_object_get_ex(rule, "errnoRet", &value) && value != NULL) {
        errno_ret = (int)json_object_get_int(value);
    }
    if (errno_ret < 0 || errno_ret > 4095) {
        snprintf(state->err, state->err_len, "%s: syscalls[%zu]: errnoRet %d is out of range (0..4095)",
                 state->path, index, errno_ret);
        return -1;
    }
    uint32_t action;
    if (parse_action(state, action_name, errno_ret, &action) != 0) return -1;
    if (action == state->default_action) return 0; /* libseccomp refuses redundant rules */

    struct scmp_arg_cmp comparisons[6];
    unsigned count = 0;
    json_object *args;
    if (json_object_object_get_ex(rule, "args", &args) && args != NULL &&
        json_object_is_type(args, json_type_array)) {
        size_t arg_count = json_object_array_length(args);
        if (arg_count > 6) {
            snprintf(state->err, state->err_len, "%s: syscalls[%zu] has more than 6 args", state->path, index);
            return -1;
        }
        for (size_t i = 0; i < arg_count; i++) {
            json_object *arg = json_object_array_get_idx(args, i);
            json_object *field;
            const char *op_name = string_member(arg, "op");
            enum scmp_compare op;
            if (op_name == NULL || parse_op(op_name, &op) != 0) {
                snprintf(state->err, state->err_len, "%s: syscalls[%zu].args[%zu]: unknown op %s",
                         state->path, index, i, op_name ? op_name : "(missing)");
                return -1;
            }
            comparisons[count].arg = json_object_object_get_ex(arg, "index", &field)
                                         ? (unsigned)json_object_get_int(field) : 0;
            comparisons[count].op = op;
            comparisons[count].datum_a = json_object_object_get_ex(arg, "value", &field) ? number_value(field) : 0;
            comparisons[count].datum_b = json_object_object_get_ex(arg, "valueTwo", &field) ? number_value(field) : 0;
            if (comparisons[count].arg > 5) {
                snprintf(state->err, state->err_len, "%s: syscalls[%zu].args[%zu]: index out of range",
                         state->path, index, i);
                return -1;
            }
            count++;
        }
    }

    json_object *names;
    const char *single = string_member(rule, "name");
    size_t name_count = 0;
    if (json_object_object_get_ex(rule, "names", &names) && names != NULL &&
        json_object_is_type(names, json_type_array)) {
        name_count = json_object_array_length(names);
    } else {
        names = NULL;
        name_count = single != NULL ? 1 : 0;
    }
    for (size_t i = 0; i < name_count; i++) {
        const char *name = names ? json_object_get_string(json_object_array_get_idx(names, i)) : single;
        if (name == NULL) continue;
        int nr = sbx_syscall_number(name);
        if (nr == __NR_SCMP_ERROR) continue; /* another architecture's syscall */
        int rc = seccomp_rule_add_array(ctx, action, nr, count, comparisons);
        if (rc != 0) {
            snprintf(state->err, state->err_len, "%s: syscalls[%zu] (%s): %s", state->path, index, name,
                     strerror(-rc));
            return -1;
        }
    }
    return 0;
}

int sbx_seccomp_oci(const char *path, struct sbx_filter *out, char *err, size_t err_len) {
    out->prog.len = 0;
    out->prog.filter = NULL;
    json_object *root = json_object_from_file(path);
    if (root == NULL) {
        snprintf(err, err_len, "%s: not a readable JSON file: %s", path, json_util_get_last_err());
        size_t length = strlen(err);
        if (length > 0 && err[length - 1] == '\n') err[length - 1] = '\0';
        return -1;
    }
    struct oci_state state = {.path = path, .default_errno = EPERM, .err = err, .err_len = err_len};
    int rc = -1;
    scmp_filter_ctx ctx = NULL;
    json_object *value;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, err_len, "%s: a seccomp profile must be a JSON object", path);
        goto done;
    }
    if (json_object_object_get_ex(root, "defaultErrnoRet", &value) && value != NULL) {
        state.default_errno = json_object_get_int(value);
    }
    const char *default_name = string_member(root, "defaultAction");
    if (default_name == NULL) {
        snprintf(err, err_len, "%s: missing defaultAction", path);
        goto done;
    }
    if (parse_action(&state, default_name, state.default_errno, &state.default_action) != 0) goto done;
    ctx = sbx_seccomp_context(state.default_action, err, err_len);
    if (ctx == NULL) goto done;
    json_object *rules;
    if (json_object_object_get_ex(root, "syscalls", &rules) && rules != NULL) {
        if (!json_object_is_type(rules, json_type_array)) {
            snprintf(err, err_len, "%s: syscalls must be an array", path);
            goto done;
        }
        size_t count = json_object_array_length(rules);
        for (size_t i = 0; i < count; i++) {
            json_object *rule = json_object_array_get_idx(rules, i);
            if (!json_object_is_type(rule, json_type_object)) {
                snprintf(err, err_len, "%s: syscalls[%zu] must be an object", path, i);
                goto done;
            }
            if (add_rule(&state, ctx, rule, i) != 0) goto done;
        }
    }
    rc = sbx_seccomp_export(ctx, out, err, err_len);
done:
    if (ctx != NULL) seccomp_release(ctx);
    json_object_put(root);
    return rc;
}
