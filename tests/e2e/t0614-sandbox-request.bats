#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# `sandbox run` through the one request builder (fleet/sandbox-build.h):
# $HOME must be known, the cache dirs it cannot create stop it before the
# command runs, and with Landlock it confines itself in process exactly as
# the exec'd helper does.
bats_require_minimum_version 1.5.0
load lib
load sandbox_cases

setup() {
	sbx_setup
}

@test "request: a sandboxed run without HOME is refused, nothing created" {
	run env -u HOME "$AG_BIN" sandbox run --workspace "$WS" \
		--cache "$T/new-cache" -- /bin/echo should-not-run
	assert_equal "$status" 1
	assert_output "agentic-git: sandbox run: HOME is not set; the sandbox hides it, so it must be known"
	[ ! -e "$T/new-cache" ]
}

@test "request: a workspace behind a symlinked HOME is refused, even with warn-run" {
	ln -s "$WS" "$T/home-link"
	HOME=$T/home-link run "$AG_BIN" sandbox run --fallback warn-run \
		--workspace "$WS" -- /bin/echo should-not-run
	assert_equal "$status" 2
	assert_output --partial "would expose the home directory"
	refute_output --partial "should-not-run"
	[ -z "$(events)" ]
}

@test "request: a cache dir that cannot be created stops the run" {
	echo file >"$T/plain-file"
	run "$AG_BIN" sandbox run --policy none --workspace "$WS" \
		--cache "$T/plain-file/cache" -- /bin/echo should-not-run
	assert_equal "$status" 1
	assert_output --partial "sandbox run: cannot create the sandbox directory '$T/plain-file/cache'"
	refute_output --partial "should-not-run"
}

# confined MODE: the Landlock cage of `sandbox run`, in process ("") or
# through the exec'd helper ("exec"), hides HOME, denies writes outside,
# filters syscalls and leaves no descriptor of the planner to the command.
confined() {
	AGENTIC_GIT_SANDBOX_HELPER=$1 run "$AG_BIN" sandbox run \
		--backend landlock --workspace "$WS" -- /bin/sh -c '
		grep "^Seccomp:" /proc/self/status
		cat "$HOME/notes.txt" 2>/dev/null || echo home-hidden
		touch "$HOME/x" 2>/dev/null || echo write-denied
		ls /proc/self/fd | sort -n | tr "\n" " "; echo
		echo pwd=$PWD' 7>"$T/fd7"
	assert_success
	assert_line "Seccomp:	2"
	assert_line "home-hidden"
	assert_line "write-denied"
	assert_line "0 1 2 3 "
	assert_line "pwd=$WS"
}

@test "request: landlock confines in process as the exec'd helper does" {
	sbx_prereq landlock
	confined ""
	confined exec
}
