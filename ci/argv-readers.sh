#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One reading of git's command line (PRODUCT.md §2, issue 36): only the
# parser reads the words of a git command line; every rule reads its
# parse (src/git/argv.h). Prints each line of another file that reads
# them and exits 1; exits 0 when there is none.
#   1. The parse's private words (struct git_argv's `words_`: argv, argc,
#      sub_idx) are read in src/git/argv.c and src/git/cmdline.c alone.
#   2. On the shim's path (src/git/, src/cmd/shim*.c, src/cmd/check.c,
#      src/shim-main.c) no other file reads an `argv`, `argc` or `sub_idx`
#      member of anything: a second copy of the words is a second reader.
# ci/static-check.sh runs it; tests/e2e/t0127-argv-readers.bats plants a
# reader and sees it fail.
#   ci/argv-readers.sh [tree]    (default: this checkout)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
[ -d src/git ] || {
	echo "argv-readers: no src/git under $root" >&2
	exit 2
}
parser='^src/git/(argv\.c|cmdline\.c|argv\.h):'
found=$(
	{
		grep -rnE --include='*.[ch]' '(->|\.)words_\b' src
		grep -nE '(->|\.)(argv|argc|sub_idx)\b' src/git/*.c src/git/*.h \
			src/cmd/shim*.c src/cmd/check.c src/shim-main.c 2>/dev/null
	} | grep -vE "$parser" | sort -u
)
if [ -n "$found" ]; then
	echo "$found"
	echo "argv-readers: the lines above read a git command line's words outside the parser (src/git/argv.c, src/git/cmdline.c): read the parse (src/git/argv.h) instead" >&2
	exit 1
fi
exit 0
