#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Checks docs/threat-model.md's threat -> control -> test table against the
# tree: every named test must exist. A name is written in backticks as
#   tests/e2e/<file>.bats: <test name>   (an @test with exactly that name)
#   tests/unit/<file>.c: <function>      (a function defined in that file)
# A row with no named test must say "(pending". Prints one TAP line per row
# and exits 1 when any row fails.
set -u
cd "$(dirname "$0")/.."
doc=${1:-docs/threat-model.md}
[ -f "$doc" ] || { echo "not ok 1 $doc is missing"; exit 1; }
n=0 rc=0
table=$(sed -n '/<!-- threat-table:begin -->/,/<!-- threat-table:end -->/p' "$doc" |
	grep -E '^\| *T[0-9]+ *\|')
[ -n "$table" ] || { echo "not ok 1 no threat table in $doc"; exit 1; }

check_ref() { # "path: name" -> 0 when it exists
	local ref=$1 path name
	path=${ref%%: *}
	name=${ref#*: }
	[ -f "$path" ] || { echo "missing file $path"; return 1; }
	case $path in
	tests/e2e/*.bats)
		grep -qF "@test \"$name\"" "$path" || { echo "no @test \"$name\" in $path"; return 1; } ;;
	tests/unit/*.c)
		grep -qE "^(static )?[a-z_ ]+[ *]$name\(" "$path" || { echo "no function $name in $path"; return 1; } ;;
	*)
		echo "not a test path: $path"; return 1 ;;
	esac
}

while IFS= read -r row; do
	n=$((n + 1))
	id=$(sed -E 's/^\| *(T[0-9]+).*/\1/' <<<"$row")
	tests=$(awk -F'|' '{print $(NF-1)}' <<<"$row")
	problems=()
	refs=0
	while IFS= read -r ref; do
		[ -n "$ref" ] || continue
		refs=$((refs + 1))
		why=$(check_ref "$ref") || problems+=("$why")
	done < <(grep -oE '`tests/[^`]+`' <<<"$tests" | tr -d '`')
	if [ "$refs" -eq 0 ] && ! grep -q '(pending' <<<"$tests"; then
		problems+=("names no test and is not marked (pending")
	fi
	if [ ${#problems[@]} -eq 0 ]; then
		echo "ok $n threat-model $id ($refs tests)"
	else
		rc=1
		echo "not ok $n threat-model $id: ${problems[*]}"
	fi
done <<<"$table"
echo "1..$n"
exit $rc
