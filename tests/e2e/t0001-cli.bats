#!/usr/bin/env bats
# The CLI surface: version, help, unknown commands.
load lib

setup() { ag_setup; }

@test "version prints the version" {
	run "$AG_BIN" version
	assert_success
	assert_output --regexp '^agentic-git [0-9]+\.[0-9]+\.[0-9]+ \(cli\)$'
}

@test "no subcommand is a usage error" {
	run "$AG_BIN"
	assert_equal "$status" 2
	assert_output --partial "usage: agentic-git"
}

@test "unknown subcommand is a usage error naming it" {
	run "$AG_BIN" frobnicate
	assert_equal "$status" 2
	assert_output --partial "unknown subcommand 'frobnicate'"
	assert_output --partial "bin/git"
}

@test "every command has --help" {
	run "$AG_BIN" help
	assert_success
	for c in $(echo "$output" | awk '/^Commands:/{f=1;next} f && /^  [a-z]/{print $1}'); do
		run "$AG_BIN" "$c" --help
		assert_success
		assert_output --partial "usage: agentic-git"
	done
}

@test "libagentic-git-core exports its public ag_* API and nothing else" {
	local so=$AG_BUILD/src/libagentic-git-core.so
	[ -e "$so" ]
	run nm -D --defined-only "$so"
	assert_success
	# the contract is there …
	assert_output --partial " ag_binding_load"
	assert_output --partial " ag_sign_with_home"
	# … and no internal symbol (die, error, strbuf_*, child_start …)
	refute_output --regexp " [A-Za-z] [^a]"
	refute_output --regexp " [A-Za-z] a[^g]"
	refute_output --regexp " [A-Za-z] ag[^_]"
}

@test "one option parser: every command names itself, the option and the way to its help" {
	local c
	for c in run end sessions events; do
		run "$AG_BIN" "$c" --nope
		assert_failure
		assert_output --partial "$c: unknown option '--nope' (see agentic-git $c --help)"
	done
	for c in run end events; do
		run "$AG_BIN" "$c" --agent
		assert_failure
		assert_output --partial "$c: needs a value: '--agent'"
	done
	run "$AG_BIN" sessions --json=yes
	assert_failure
	assert_output --partial "sessions: takes no value: '--json=yes'"
	run "$AG_BIN" run --agent a true
	assert_failure
	assert_output --partial "run: unexpected argument 'true' (the command goes after '--')"
}
