#!/usr/bin/env bats
# One reading of git's command line (issue 36; PRODUCT.md §2): only the
# parser (src/git/argv.c, src/git/cmdline.c) reads the words of a git
# command line, and ci/argv-readers.sh (run by ci/static-check.sh) fails
# when another file does. Each planted reader below makes it fail.
load lib

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	CHECK=$ROOT/ci/argv-readers.sh
	[ -d "$ROOT/src/git" ] || skip "no source tree beside the tests"
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	cp -R "$ROOT/src" "$TREE/src"
}

@test "the tree as it is: no reader but the parser" {
	run "$CHECK" "$ROOT"
	assert_success
	assert_output ""
}

@test "a rule that reads the parse's private words fails the check" {
	printf '%s\n' 'static size_t planted(const struct git_argv *ga) { return ga->words_.argc; }' \
		>>"$TREE/src/git/rules-refs.c"
	run "$CHECK" "$TREE"
	assert_failure
	assert_output --partial "src/git/rules-refs.c:"
	assert_output --partial "ga->words_.argc"
	assert_output --partial "outside the parser"
}

@test "a second copy of the words on the shim's path fails the check" {
	printf '%s\n' 'static const char *planted(const struct stash_run *r) { return r->argv[0]; }' \
		>>"$TREE/src/cmd/shim-stash.c"
	run "$CHECK" "$TREE"
	assert_failure
	assert_output --partial "src/cmd/shim-stash.c:"
	assert_output --partial "r->argv[0]"
}

@test "a reader anywhere else in src/ fails the check" {
	printf '%s\n' 'static size_t planted(const struct git_argv *ga) { return ga->words_.sub_idx; }' \
		>>"$TREE/src/cmd/run.c"
	run "$CHECK" "$TREE"
	assert_failure
	assert_output --partial "src/cmd/run.c:"
}

@test "the parser itself may read them" {
	printf '%s\n' '/* ga->words_.argv ga->argv */' >>"$TREE/src/git/cmdline.c"
	run "$CHECK" "$TREE"
	assert_success
}
