#!/usr/bin/env bats
# The README's recovery demo must keep working: it asserts every step itself.
load lib

@test "demo/recovery-demo.sh holds end to end" {
	run env TMPDIR="$BATS_TEST_TMPDIR" "$BATS_TEST_DIRNAME/../../demo/recovery-demo.sh" "$AG_BIN"
	assert_success
	assert_output --partial "every check held"
	refute_output --partial "FAIL"
}

@test "demo/recovery-demo.sh refuses a missing binary" {
	run "$BATS_TEST_DIRNAME/../../demo/recovery-demo.sh" /nonexistent
	assert_equal "$status" 2
	assert_output --partial "usage: demo/recovery-demo.sh"
}
