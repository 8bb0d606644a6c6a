int sbx_placeholder(void) { return 0; }
