#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Static checks, as TAP for tests/run-tests.sh:
#   1. cppcheck (warning and portability classes) over every C file of the
#      tree: clean. `varFuncNullUB` is off: strvec_pushl(…, NULL) is this
#      code base's idiom, and NULL is ((void *)0) on every target we build.
#   2. clang-format (.clang-format): every C file not in
#      ci/format-legacy.txt is clean as a whole (new files always are), and
#      in the listed older files every line changed since ci/format-base
#      (`git clang-format $(cat ci/format-base)` formats them). A file that
#      becomes clean as a whole leaves the list.
#   3. ci/argv-readers.sh: no file but the parser (src/git/argv.c,
#      src/git/cmdline.c) reads the words of a git command line.
#   4. ci/raw-output.sh: every raw write of a non-literal in the command
#      layer (where printf is inert) is one ci/raw-output.txt lists.
# Needs cppcheck and clang-format (ci/install-deps.sh).
set -u
cd "$(dirname "$0")/.."
n=0 bad=0
tap() { # ok|not-ok name [details file]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		bad=1
		echo "not ok $n $2"
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -80
	fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

if ! command -v cppcheck >/dev/null 2>&1; then
	echo "# cppcheck not found (run ci/install-deps.sh)" >"$tmp"
	tap not-ok "cppcheck: clean" "$tmp"
elif nice cppcheck -q --enable=warning,portability --inline-suppr \
	--suppress=varFuncNullUB --error-exitcode=1 --std=c11 -j2 \
	-I src -I include src tests/unit tests/helper tests/fuzz >"$tmp" 2>&1; then
	tap ok "cppcheck: clean"
else
	tap not-ok "cppcheck: clean" "$tmp"
fi

# every C file not listed in ci/format-legacy.txt is clang-format clean as
# a whole (new files included); needs no history
: >"$tmp"
if ! command -v clang-format >/dev/null 2>&1; then
	echo "# clang-format not found (run ci/install-deps.sh)" >"$tmp"
else
	# one clang-format for every file (a process a file took half a
	# minute on a small VM); each file it would change is named once
	git ls-files -z -- 'src/*.[ch]' 'tests/*.[ch]' 'include/*.[ch]' |
		tr '\0' '\n' | grep -vxF -f ci/format-legacy.txt | tr '\n' '\0' |
		xargs -0 -r clang-format --dry-run 2>&1 |
		sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*-Wclang-format-violations.*/# \1/p' |
		uniq >"$tmp"
fi
if [ -s "$tmp" ]; then
	tap not-ok "clang-format: every file outside ci/format-legacy.txt is clean (fix: clang-format -i <file>)" "$tmp"
else
	tap ok "clang-format: every file outside ci/format-legacy.txt is clean"
fi

# and in those older files, every line changed since ci/format-base
base=$(cat ci/format-base)
if ! command -v git-clang-format >/dev/null 2>&1; then
	echo "# git-clang-format not found (run ci/install-deps.sh)" >"$tmp"
	tap not-ok "clang-format: lines changed since ci/format-base" "$tmp"
elif ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	# a shallow clone: what changed since the base is not known here
	echo "ok $((n = n + 1)) # skip clang-format of changed lines: ci/format-base $base is not in this clone (shallow)"
else
	git clang-format --diff --extensions c,h "$base" -- src tests include \
		>"$tmp" 2>&1
	if grep -q '^diff ' "$tmp"; then
		tap not-ok "clang-format: lines changed since ci/format-base (fix: git clang-format $base)" "$tmp"
	else
		tap ok "clang-format: lines changed since ci/format-base"
	fi
fi
# one reading of git's command line: no file but the parser reads its words
if ci/argv-readers.sh >"$tmp" 2>&1; then
	tap ok "argv readers: only the parser reads a git command line's words"
else
	tap not-ok "argv readers: only the parser reads a git command line's words (ci/argv-readers.sh)" "$tmp"
fi
# operator output inert: no raw write in the command layer nobody listed
if ci/raw-output.sh >"$tmp" 2>&1; then
	tap ok "raw output: every raw write of the command layer is listed"
else
	tap not-ok "raw output: every raw write of the command layer is listed (ci/raw-output.sh)" "$tmp"
fi
echo "1..$n"
exit $bad
