/*
 * OCI / Docker seccomp profiles, compiled from the rules Swift read out of the JSON
 * (Sandbox's OCISeccompProfile: capability-gated, foreign-architecture and too-new-kernel
 * rules already left out). Here only libseccomp is called, in the parent, before any clone.
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <seccomp.h>
#include <stdio.h>
#include <string.h>

static int action_code(const char *path, unsigned action, unsigned errno_ret, uint32_t *out, char *err,
                       size_t err_len) {
    switch (action) {
    case SBX_OCI_ALLOW: *out = SCMP_ACT_ALLOW; return 0;
    case SBX_OCI_ERRNO: *out = SCMP_ACT_ERRNO((uint16_t)errno_ret); return 0;
    case SBX_OCI_KILL_PROCESS: *out = SCMP_ACT_KILL_PROCESS; return 0;
    case SBX_OCI_KILL_THREAD: *out = SCMP_ACT_KILL_THREAD; return 0;
    case SBX_OCI_TRAP: *out = SCMP_ACT_TRAP; return 0;
    case SBX_OCI_TRACE: *out = SCMP_ACT_TRACE((uint16_t)errno_ret); return 0;
    case SBX_OCI_LOG: *out = SCMP_ACT_LOG; return 0;
    default:
        snprintf(err, err_len, "%s: unsupported seccomp action %u", path, action);
        return -1;
    }
}

static int compare_op(unsigned op, enum scmp_compare *out) {
    switch (op) {
    case SBX_OCI_NE: *out = SCMP_CMP_NE; return 0;
    case SBX_OCI_LT: *out = SCMP_CMP_LT; return 0;
    case SBX_OCI_LE: *out = SCMP_CMP_LE; return 0;
    case SBX_OCI_EQ: *out = SCMP_CMP_EQ; return 0;
    case SBX_OCI_GE: *out = SCMP_CMP_GE; return 0;
    case SBX_OCI_GT: *out = SCMP_CMP_GT; return 0;
    case SBX_OCI_MASKED_EQ: *out = SCMP_CMP_MASKED_EQ; return 0;
    default: return -1;
    }
}

static int add_rule(const char *path, scmp_filter_ctx ctx, uint32_t default_action, const struct sbx_oci_rule *rule,
                    char *err, size_t err_len) {
    uint32_t action;
    if (action_code(path, rule->action, rule->errno_ret, &action, err, err_len) != 0) return -1;
    if (action == default_action) return 0; /* libseccomp refuses redundant rules */
    if (rule->arg_count > SBX_OCI_MAX_ARGS) {
        snprintf(err, err_len, "%s: syscalls[%zu] has more than 6 args", path, rule->entry);
        return -1;
    }
    struct scmp_arg_cmp comparisons[SBX_OCI_MAX_ARGS];
    for (unsigned i = 0; i < rule->arg_count; i++) {
        const struct sbx_oci_arg *arg = &rule->args[i];
        if (compare_op(arg->op, &comparisons[i].op) != 0 || arg->index > 5) {
            snprintf(err, err_len, "%s: syscalls[%zu].args[%u]: bad comparison", path, rule->entry, i);
            return -1;
        }
        comparisons[i].arg = arg->index;
        comparisons[i].datum_a = arg->value;
        comparisons[i].datum_b = arg->value_two;
    }
    int nr = sbx_syscall_number(rule->name);
    if (nr == __NR_SCMP_ERROR) return 0; /* another architecture's syscall */
    int rc = seccomp_rule_add_array(ctx, action, nr, rule->arg_count, comparisons);
    if (rc != 0) {
        snprintf(err, err_len, "%s: syscalls[%zu] (%s): %s", path, rule->entry, rule->name, strerror(-rc));
        return -1;
    }
    return 0;
}

int sbx_seccomp_oci(const char *path, unsigned default_action, unsigned default_errno,
                    const struct sbx_oci_rule *rules, size_t count, struct sbx_filter *out, char *err,
                    size_t err_len) {
    out->prog.len = 0;
    out->prog.filter = NULL;
    uint32_t default_code;
    if (action_code(path, default_action, default_errno, &default_code, err, err_len) != 0) return -1;
    scmp_filter_ctx ctx = sbx_seccomp_context(default_code, err, err_len);
    if (ctx == NULL) return -1;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) rc = add_rule(path, ctx, default_code, &rules[i], err, err_len);
    if (rc == 0) rc = sbx_seccomp_export(ctx, out, err, err_len);
    seccomp_release(ctx);
    return rc;
}
