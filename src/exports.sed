# The names include/sgk.h declares SGK_API, one a line: every such
# declaration names its function on its first line, "SGK_API <type>
# <name>(".  Used by the build (the linker's export list, Makefile.am) and
# by tests/test_exports.sh.
s/^SGK_API[^(]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p
