#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What the command layer prints for a person is inert (docs/commands.md,
# "Output"; src/cmd/output.h): printf/fprintf there are the inert forms,
# so the only way to print an agent's string raw is a raw write: fputs,
# fwrite, puts, fputc, putc, putchar or write of something that is not a
# literal. Each file's number of those is listed in ci/raw-output.txt with
# what they write (--json, fixed text, text made inert first); a new one
# fails here until someone has looked at it and raised the count.
# Prints each file whose count differs and exits 1; exits 0 when none.
# ci/static-check.sh runs it; tests/e2e/t0875-raw-output.bats plants one.
#   ci/raw-output.sh [tree]    (default: this checkout)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
list=ci/raw-output.txt
if [ ! -f "$list" ] || [ ! -d src/cmd ]; then
	echo "raw-output: no $list or src/cmd under $root" >&2
	exit 2
fi
# a call whose first argument is a string or character literal, a usage
# text, or a macro-prefixed literal writes nothing an agent chose
literal='\b(fputs|puts)\("|\b(fputs|puts)\([A-Z_]+ "|\b(fputc|putc|putchar)\('"'"'|\bfputs\([a-z_]*usage[a-z_]*,'
bad=0
for f in src/main.c src/cmd/*.c; do
	n=$(grep -E '\b(fputs|fwrite|puts|fputc|putc|putchar|write)\(' "$f" |
		grep -cvE "$literal")
	want=$(awk -v f="$f" '$1 == f { print $2 }' "$list")
	[ -n "$want" ] || want=0
	if [ "$n" != "$want" ]; then
		echo "$f: $n raw write(s) of a non-literal, $list says $want: print an agent's string with printf (inert), or list the site with what it writes"
		bad=1
	fi
done
exit $bad
