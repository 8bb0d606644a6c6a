#pragma once
#include "sandbox.h"
#include <seccomp.h>

scmp_filter_ctx sbx_seccomp_context(uint32_t default_action, char *err, size_t err_len);
int sbx_seccomp_export(scmp_filter_ctx ctx, struct sbx_filter *out, char *err, size_t err_len);
