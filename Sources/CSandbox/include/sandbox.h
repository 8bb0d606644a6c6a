#pragma once
/* placeholder; the launcher API lands with issue 2 */
int sbx_placeholder(void);
