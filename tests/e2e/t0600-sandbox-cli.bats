#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# agentic-git sandbox: probe, refusal when a backend is unavailable (with
# nothing created), the warn-run fallback, and bad input.
bats_require_minimum_version 1.5.0
load lib
load sandbox_cases

setup() {
	sbx_setup
	echo "notes-outside" >"$HOME/notes.txt"
}

@test "sandbox --help and run --help print the usage" {
	run "$AG_BIN" sandbox --help
	assert_success
	assert_output --partial "usage: agentic-git sandbox probe"
	run "$AG_BIN" sandbox run --help
	assert_success
	assert_output --partial "usage: agentic-git sandbox"
	run "$AG_BIN" help sandbox
	assert_success
}

@test "probe reports bwrap, user namespaces, landlock and seccomp" {
	run "$AG_BIN" sandbox probe
	assert_success
	assert_line --regexp '^bwrap: '
	assert_line --regexp '^userns: +(yes|no)$'
	assert_line --regexp '^landlock: '
	assert_line --regexp '^seccomp: +(yes|no)$'
	assert_line --regexp '^auto: +(bwrap|landlock|none)$'
	run "$AG_BIN" sandbox probe --json
	assert_success
	echo "$output" | jq -e '(.bwrap.works|type) == "boolean" and
		(.landlock.abi|type) == "number" and (.seccomp|type) == "boolean"
		and (.userns|type) == "boolean" and (.system_dirs|index("/usr")) != null'
}

@test "probe: the test override takes capabilities away" {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" sandbox probe --json
	assert_success
	echo "$output" | jq -e '.bwrap.works == false and .landlock.abi == 0 and
		.auto_backend == "none" and
		(.bwrap.why | test("AGENTIC_GIT_SANDBOX_UNAVAILABLE"))'
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=seccomp run "$AG_BIN" sandbox probe
	assert_line --regexp '^seccomp: +no$'
}

@test "probe rejects unknown options" {
	run "$AG_BIN" sandbox probe --yaml
	assert_equal "$status" 2
	assert_output --partial "unknown option '--yaml'"
}

# refused BACKEND DISABLED: the run is refused and nothing is created.
refused() {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=$2 run "$AG_BIN" sandbox run \
		--backend "$1" --policy fs+no-net --from "$REPO" --head main \
		--workspace "$T/new-ws" --cache "$T/new-cache" -- /bin/true
	assert_equal "$status" 1
	assert_output --partial "cannot be provided on this host (backend $1)"
	assert_output --partial "--fallback warn-run"
	[ ! -e "$T/new-ws" ]
	[ ! -e "$T/new-cache" ]
	[ -z "$(events)" ]
}

@test "bwrap unavailable: refused, nothing created" {
	refused bwrap bwrap
	assert_output --partial "bubblewrap is unavailable (disabled by AGENTIC_GIT_SANDBOX_UNAVAILABLE)"
}

@test "landlock unavailable: refused, nothing created" {
	refused landlock landlock
	assert_output --partial "landlock is unavailable"
	refused landlock seccomp
	assert_output --partial "seccomp filters are unavailable"
}

@test "auto with both backends unavailable: refused, nothing created" {
	refused auto bwrap,landlock
	assert_output --partial "bubblewrap is unavailable"
	assert_output --partial "and landlock is unavailable"
}

@test "auto falls back to landlock when bwrap is unavailable" {
	sbx_prereq landlock
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap run "$AG_BIN" sandbox run \
		--workspace "$WS" -- /bin/sh -c 'grep "^Seccomp:" /proc/self/status; cat "$HOME/notes.txt"'
	assert_output --partial "Seccomp:	2"
	refute_output --partial "notes-outside"
}

@test "warn-run runs unsandboxed, warns, records and exits with attention" {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" sandbox run \
		--fallback warn-run --agent a1 --workspace "$WS" -- \
		/bin/sh -c 'cat "$HOME/notes.txt"'
	assert_equal "$status" 3
	# it really ran without a sandbox: the home file is readable
	assert_output --partial "notes-outside"
	assert_output --partial "agentic-git: warning: agent 'a1' ran UNSANDBOXED: sandbox 'fs+no-net' cannot be provided on this host"
	run events
	assert_line --index 0 --partial '"event":"sandbox_downgraded"'
	echo "$output" | jq -e 'select(.event == "sandbox_downgraded") |
		.agent == "a1" and .disposition == "warn" and
		.requested_policy == "fs+no-net" and .fallback == "warn-run" and
		(.warning | test("UNSANDBOXED"))'
}

@test "warn-run passes a failing command's status through" {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" sandbox run \
		--fallback warn-run --workspace "$WS" -- /bin/sh -c 'exit 7'
	assert_equal "$status" 7
}

@test "warn-run is not used when the sandbox is available" {
	sbx_prereq bwrap
	run "$AG_BIN" sandbox run --fallback warn-run --workspace "$WS" -- \
		/bin/sh -c 'cat "$HOME/notes.txt"; echo ran'
	assert_success
	assert_output --partial "ran"
	refute_output --partial "notes-outside"
	refute_output --partial "UNSANDBOXED"
	[ -z "$(events)" ]
}

@test "policy none never probes and never warns" {
	export SBX_SECRET_TOKEN=zzz
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock,seccomp,userns run \
		"$AG_BIN" sandbox run --policy none --workspace "$WS" -- /usr/bin/env
	assert_success
	refute_output --partial "warning"
	refute_output --partial "SBX_SECRET_TOKEN" # the env is still exact
	[ -z "$(events)" ]
}

@test "bad input is a clear one-line error" {
	run "$AG_BIN" sandbox run --policy fs -- /bin/true
	assert_equal "$status" 2
	assert_output --partial "unknown policy 'fs'"
	run "$AG_BIN" sandbox run --backend docker -- /bin/true
	assert_equal "$status" 2
	assert_output --partial "unknown backend 'docker'"
	run "$AG_BIN" sandbox run --fallback maybe -- /bin/true
	assert_equal "$status" 2
	assert_output --partial "unknown fallback 'maybe'"
	run "$AG_BIN" sandbox run --workspace "$WS"
	assert_equal "$status" 2
	assert_output --partial "give the command after '--'"
	run "$AG_BIN" sandbox run --frobnicate -- /bin/true
	assert_equal "$status" 2
	run "$AG_BIN" sandbox run --policy
	assert_equal "$status" 2
	assert_output --partial "needs a value"
	run "$AG_BIN" sandbox run --ro "$T/nope" -- /bin/true
	assert_equal "$status" 1
	assert_output --partial "ro bind '$T/nope'"
	run "$AG_BIN" sandbox run --from "$REPO" -- /bin/true
	assert_equal "$status" 2
	assert_output --partial "--from needs --workspace DIR and --head BRANCH"
	run -127 "$AG_BIN" sandbox run --workspace "$WS" -- no-such-command-xyz
	assert_equal "$status" 127
	assert_output --partial "'no-such-command-xyz' not found"
	run "$AG_BIN" sandbox run --workspace "$HOME" -- /bin/true
	assert_equal "$status" 2
	assert_output --partial "would expose the home directory"
	run "$AG_BIN" sandbox frob
	assert_equal "$status" 2
	assert_output --partial "unknown subcommand 'frob'"
}

@test "sandbox exec (internal) rejects inconsistent or bad arguments" {
	run "$AG_BIN" sandbox exec --policy fs-only --no-net -- /bin/true
	assert_equal "$status" 2
	run "$AG_BIN" sandbox exec --policy fs+no-net --no-net -- true
	assert_equal "$status" 2
	run "$AG_BIN" sandbox exec --policy none --net -- /bin/true
	assert_equal "$status" 2
	run "$AG_BIN" sandbox exec --policy fs-only --net --ro relative -- /bin/true
	assert_equal "$status" 2
}

@test "sandbox exec fails closed when a rule cannot be added" {
	sbx_prereq landlock
	run "$AG_BIN" sandbox exec --policy fs-only --net --ro /usr \
		--rw "$T/does-not-exist" -- /bin/echo should-not-run
	assert_equal "$status" 126
	assert_output --partial "landlock $T/does-not-exist failed"
	assert_output --partial "the command was not run"
	refute_output --partial "should-not-run"
}
