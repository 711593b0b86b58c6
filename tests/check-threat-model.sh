#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Checks docs/threat-model.md's threat -> control -> test table against the
# tree: every named test must exist. A name is written in backticks as
#   tests/e2e/<file>.bats: <test name>   (an @test with exactly that name)
#   tests/unit/<file>.c: <function>      (a function defined in that file)
# A row with no named test must say "(pending". Prints one TAP line per row
# and exits 1 when any row fails. (The tests' names are read once, with two
# processes: a process a row took half a minute on a small VM.)
set -u
cd "$(dirname "$0")/.."
doc=${1:-docs/threat-model.md}
[ -f "$doc" ] || { echo "not ok 1 $doc is missing"; exit 1; }
n=0 rc=0
mapfile -t table < <(sed -n '/<!-- threat-table:begin -->/,/<!-- threat-table:end -->/p' "$doc" |
	grep -E '^\| *T[0-9]+ *\|')
[ ${#table[@]} -gt 0 ] || { echo "not ok 1 no threat table in $doc"; exit 1; }

# what exists: every @test line of the e2e files ("<path>:@test ..."), every
# function defined at the start of a line in the unit tests ("<path>: <name>")
e2e=$'\n'$(grep -H '^@test "' tests/e2e/*.bats)
declare -A have
while IFS= read -r line; do
	have[$line]=1
done < <(grep -HoE '^(static )?[a-z_ ]+[ *][A-Za-z0-9_]+\(' tests/unit/*.c |
	sed -E 's/^([^:]*):.*[ *]([A-Za-z0-9_]+)\($/\1: \2/')

check_ref() { # "path: name" -> 0 when it exists; why not in $why
	local ref=$1 path=${1%%: *}
	why=""
	[ -f "$path" ] || { why="missing file $path"; return 1; }
	case $path in
	tests/e2e/*.bats)
		[[ $e2e == *$'\n'"$path:@test \"${ref#*: }\""* ]] ||
			{ why="no @test \"${ref#*: }\" in $path"; return 1; } ;;
	tests/unit/*.c)
		[ -n "${have[$ref]:-}" ] || { why="no function ${ref#*: } in $path"; return 1; } ;;
	*)
		why="not a test path: $path"; return 1 ;;
	esac
}

for row in "${table[@]}"; do
	n=$((n + 1))
	[[ $row =~ ^\|\ *(T[0-9]+) ]] && id=${BASH_REMATCH[1]}
	# the last cell: what lies between the last two bars
	tests=${row%|*}
	tests=${tests##*|}
	problems=()
	refs=0
	rest=$tests
	while [[ $rest =~ \`(tests/[^\`]+)\` ]]; do
		ref=${BASH_REMATCH[1]}
		rest=${rest#*"\`$ref\`"}
		refs=$((refs + 1))
		check_ref "$ref" || problems+=("$why")
	done
	if [ "$refs" -eq 0 ] && [[ $tests != *"(pending"* ]]; then
		problems+=("names no test and is not marked (pending")
	fi
	if [ ${#problems[@]} -eq 0 ]; then
		echo "ok $n threat-model $id ($refs tests)"
	else
		rc=1
		echo "not ok $n threat-model $id: ${problems[*]}"
	fi
done
echo "1..$n"
exit $rc
