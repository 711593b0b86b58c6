#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The one workspace builder (src/fleet/workspace.h) and the one session
# writer (src/fleet/session-write.h): where the sandboxed sessions' and
# dispatch's copies disagreed, both now get the safer setting. Invariant
# numbers refer to those headers.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	"$REAL_GIT" -C "$REPO" fetch -q origin
	cat >"$T/dump.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	"$REAL_GIT" config --list --local >"$DUMP.config"
	cp .git/info/exclude "$DUMP.exclude"
	stat -c %a .agend-managed >"$DUMP.marker-mode"
	echo "RESOLVED: looked"
	SH
	chmod +x "$T/dump.sh"
	echo "look" >"$T/prompt.md"
	export DUMP=$T/dump
}

ws_create() {
	run "$AG_BIN" sandbox workspace --from "$REPO" "$@"
}

@test "t0622.1 both builders turn off git's automatic gc and maintenance (workspace.h 5)" {
	ws_create --head b1 --base main "$T/pws"
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/pws" config gc.auto)" 0
	assert_equal "$("$REAL_GIT" -C "$T/pws" config maintenance.auto)" false
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	grep -qx 'gc.auto=0' "$DUMP.config"
	grep -qx 'maintenance.auto=false' "$DUMP.config"
	# dispatch's workspace has no remote at all, a session's has origin
	run grep '^remote\.' "$DUMP.config"
	assert_failure
}

@test "t0622.2 a relative origin path names the same repository from the workspace" {
	"$REAL_GIT" -C "$REPO" remote set-url origin "../$(basename "$ORIGIN")"
	ws_create --head b1 --base main "$T/pws"
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/pws" remote get-url origin)" "$ORIGIN"
	"$REAL_GIT" -C "$REPO" remote set-url origin "../missing.git"
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	assert_failure
	assert_output --partial "origin's path '../missing.git' does not exist"
}

@test "t0622.3 url.<base>.insteadOf of the clone applies to the workspace's origin" {
	"$REAL_GIT" -C "$REPO" config "url.$(dirname "$ORIGIN")/.insteadOf" "short:"
	"$REAL_GIT" -C "$REPO" remote set-url origin "short:$(basename "$ORIGIN")"
	ws_create --head b1 --base main "$T/pws"
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/pws" config remote.origin.url)" "$ORIGIN"
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	[ "$(meta repo-b1 status)" = no-change ]
}

@test "t0622.4 the clone's own unknown object format is refused by both, before anything exists (workspace.h 1)" {
	"$REAL_GIT" -C "$REPO" config core.repositoryformatversion 1
	"$REAL_GIT" -C "$REPO" config extensions.objectformat sha999
	ws_create --head b1 --base main "$T/pws"
	assert_failure
	assert_output --partial "is not one agentic-git writes (sha1, sha256)"
	[ ! -e "$T/pws" ]
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	assert_failure
	assert_output --partial "target 'repo-b1': the object format of '$REPO' is not one agentic-git writes"
	[ ! -e "$DUMP.config" ]
}

@test "t0622.5 a global extensions.objectformat does not change the clone's format" {
	# git reads extensions only from the repository's own config
	"$REAL_GIT" config --global extensions.objectformat sha999
	ws_create --head b1 --base main "$T/pws"
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/pws" rev-parse --show-object-format)" sha1
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	[ "$(meta repo-b1 status)" = no-change ]
}

@test "t0622.6 one session writer: marker 0600, anchored exclude lines (session-write.h 2, 3)" {
	export AGENTIC_GIT_HOME=$T/sess-home
	(cd "$REPO" && "$AG_BIN" run --agent ag1 --branch feat/one -- true)
	wt=$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
	assert_equal "$(stat -c %a "$wt/.agend-managed")" 600
	grep -qx '/.agend-managed' "$REPO/.git/info/exclude"
	unset AGENTIC_GIT_HOME
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/dump.sh"
	assert_equal "$(cat "$DUMP.marker-mode")" 600
	assert_equal "$(cat "$DUMP.exclude")" "$(printf '/.agend-managed\n/ESCALATION.md\n/AGENTIC-GIT-NOTE.md')"
}

@test "t0622.7 a session whose marker cannot be kept out of commits is not started (session-write.h 4)" {
	export AGENTIC_GIT_HOME=$T/sess-home
	mv "$REPO/.git/info/exclude" "$T/real-exclude" 2>/dev/null || : >"$T/real-exclude"
	ln -s "$T/real-exclude" "$REPO/.git/info/exclude"
	cd "$REPO"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- touch "$T/ran"
	assert_failure
	assert_output --partial "cannot write the session marker"
	[ ! -e "$T/ran" ]
	# the symlink was not written through
	run grep -c agend-managed "$T/real-exclude"
	assert_output 0
}
