#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer's own interface (tests/hostile/,
# docs/fuzzing.md "The hostile-workspace fuzzer"): a seed prints the same
# whole scene everywhere, every plant it can name is one the agent knows
# how to plant, the corpus is well-formed, bad invocations are one line.
# Its smoke run (self-test, corpus, seeds) is run by tests/run-tests.sh.
load lib

HX=$BATS_TEST_DIRNAME/../hostile

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "t0840: a seed prints the same scene every time; seeds differ" {
	run "$HX/hostile.sh" --print 7
	assert_success
	local first=$output
	run "$HX/hostile.sh" --print 7
	assert_output "$first"
	[ "$(head -1 <<<"$first")" = "# hostile scene, seed 7" ]
	run "$HX/hostile.sh" --print 8
	[ "$output" != "$first" ]
	# the header directives, once each, then one to four plants
	for d in backend policy layout payload; do
		[ "$(grep -c "^$d " <<<"$first")" -eq 1 ] || fail "scene lacks '$d' once: $first"
	done
	local n
	n=$(grep -c '^plant ' <<<"$first")
	[ "$n" -ge 1 ] && [ "$n" -le 4 ]
}

@test "t0840: every plant the generator names is one the agent plants" {
	local s kind
	# plant.sh dispatches on the kind in phase 2 (and phase 1): each kind
	# of 300 seeds must be a case there
	for s in $(seq 1 300); do
		"$HX/hostile.sh" --print "$s"
	done | awk '/^plant / { print $2 }' | sort -u >"$T/kinds"
	[ "$(wc -l <"$T/kinds")" -ge 14 ]
	while read -r kind; do
		grep -qE "^		$kind\)" "$HX/plant.sh" || fail "plant.sh does not plant '$kind'"
	done <"$T/kinds"
	# and both backends, every layout and payload occur
	for s in $(seq 1 300); do "$HX/hostile.sh" --print "$s"; done >"$T/all"
	for d in "backend bwrap" "backend landlock" "layout default" "layout home" \
		"layout robind" "payload none" "payload trust-root" "payload conflict"; do
		grep -qx "$d" "$T/all" || fail "no scene of 300 has '$d'"
	done
}

@test "t0840: the corpus: a scene per finding, known lines well-formed" {
	local f
	[ -f "$HX/corpus/clean.scene" ]
	[ -f "$HX/corpus/selftest.scene" ]
	for f in "$HX"/corpus/*.scene; do
		grep -q '^backend \(bwrap\|landlock\)$' "$f" || fail "$f: no backend"
		# known ID KINDS OPS TEXT
		if grep '^known ' "$f" | grep -vqE '^known W[0-9]+ [a-z,~-]+ [a-z0-9*,+-]+ .+'; then
			fail "$f: a known line is not 'known ID KINDS OPS TEXT'"
		fi
		case $(basename "$f") in
		known-*) grep -q '^known ' "$f" || fail "$f: a known-* scene without a known line" ;;
		regress-*) ! grep -q '^known ' "$f" || fail "$f: a regression still marked known" ;;
		esac
	done
}

@test "t0840: bad invocations are one line and create nothing" {
	run "$HX/hostile.sh" -o "$T/out" -n many
	assert_failure 2
	assert_output "hostile: not a number: 'many'"
	[ ! -e "$T/out" ]
	run "$HX/hostile.sh" --print x
	assert_failure 2
	assert_output "hostile: not a number: 'x'"
	run "$HX/hostile.sh" -o "$T/out" --replay "$T/no-such.scene"
	assert_failure 2
	assert_output "hostile: no scene file '$T/no-such.scene'"
	[ ! -e "$T/out" ]
	run "$HX/hostile.sh" -n 3
	assert_failure 2
	assert_output --partial "usage: hostile.sh"
	run env AG_BIN="$T/none" "$HX/hostile.sh" -o "$T/out" -n 1
	assert_failure 2
	assert_output "hostile: no agentic-git at '$T/none'"
	[ ! -e "$T/out" ]
	run "$HX/long.sh" soon
	assert_failure 2
	assert_output "long.sh: not a number: 'soon'"
}
