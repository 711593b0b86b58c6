#!/usr/bin/env bats
# Issue 32 point 4: what the command layer prints is inert by default
# (src/cmd/output.h makes printf/fprintf the inert forms), so the one way
# left to print an agent's string raw is a raw write; ci/raw-output.sh
# (run by ci/static-check.sh) counts them per file against
# ci/raw-output.txt and fails on one nobody has looked at.
load lib

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	CHECK=$ROOT/ci/raw-output.sh
	[ -f "$ROOT/ci/raw-output.txt" ] || skip "no source tree beside the tests"
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE/ci"
	cp -R "$ROOT/src" "$TREE/src"
	cp "$ROOT/ci/raw-output.txt" "$TREE/ci/"
}

@test "the tree as it is: every raw write is listed" {
	run "$CHECK" "$ROOT"
	assert_success
	assert_output ""
}

@test "a new raw write of a name fails the check; a literal or printf does not" {
	printf '%s\n' 'static void planted_ok(const char *name) { fputs("fixed\n", stdout); printf("%s\n", name); }' \
		>>"$TREE/src/cmd/version.c"
	run "$CHECK" "$TREE"
	assert_success
	printf '%s\n' 'static void planted(const char *name) { fputs(name, stdout); }' \
		>>"$TREE/src/cmd/version.c"
	run "$CHECK" "$TREE"
	assert_failure
	assert_output --partial "src/cmd/version.c: 1 raw write(s) of a non-literal, ci/raw-output.txt says 0"
}

@test "a file that loses a listed raw write fails too: the list stays exact" {
	sed -i 's/^src\/cmd\/events.c 1 /src\/cmd\/events.c 2 /' "$TREE/ci/raw-output.txt"
	run "$CHECK" "$TREE"
	assert_failure
	assert_output --partial "src/cmd/events.c: 1 raw write(s)"
}
