#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A dispatch killed -9 before its teardown (issue 34 point 4): the next
# dispatch reclaims its workspaces (runs/<id>/work/), its scratch and its
# agents' bindings, keeps a workspace left for a human, and never touches
# a run that is still alive (fleet/run-reclaim.h).
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_branch feat/b
	MARK=agtest-$$-$RANDOM
	export MARK
}

teardown() {
	# this test's own processes only: their command lines carry $MARK
	local p
	for p in $(pgrep -f -- "$MARK" || true); do kill -KILL "$p" 2>/dev/null || true; done
}

# start_hanging HEAD: a dispatch whose agent hangs, in the background;
# PID its pid, RUN its run directory once the agent runs.
start_hanging() {
	"$AG_BIN" dispatch --grace 1 --timeout 120 --repo "$REPO" --head "$1" --base main \
		--task resolve-conflicts -- "$AGENTS/hang.sh" >"$T/hang.out" 2>&1 &
	PID=$!
	for _ in $(seq 200); do pgrep -f "agent-$MARK" >/dev/null && break; sleep 0.1; done
	pgrep -f "agent-$MARK" >/dev/null
	RUN=$(run_dir)
}

@test "t0806: the next dispatch reclaims a killed dispatch's workspaces, scratch and bindings" {
	start_hanging feat/a
	id=$(basename "$RUN")
	[ -d "$RUN/work/repo-feat-a" ]
	ls "$AGENTIC_GIT_HOME/runtime" | grep -q "^dispatch-"
	kill -KILL "$PID"
	wait "$PID" || true
	# its agent dies with it (PDEATHSIG); what it left stays
	for _ in $(seq 100); do pgrep -f "agent-$MARK" >/dev/null || break; sleep 0.1; done
	[ -d "$RUN/work/repo-feat-a" ]
	run dispatch --repo "$REPO" --head feat/b --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	echo "$output"
	assert_output --partial "agentic-git: dispatch: run $id stopped before its teardown (killed?): reclaimed 1 workspace under $RUN/work/"
	[ ! -e "$RUN/work" ]
	[ ! -e "$RUN/scratch" ]
	run ls "$AGENTIC_GIT_HOME/runtime"
	refute_output --partial "dispatch-${id,,}-"
	# the killed run's logs stay for the operator
	[ -f "$RUN/repo-feat-a.stdout.log" ]
	# and the repository is whole
	"$REAL_GIT" -C "$REPO" fsck --no-progress --no-dangling
	run find "$REPO/.git" -name '*.lock'
	assert_output ""
}

@test "t0806: a live dispatch's workspace and one kept for a human are not reclaimed" {
	start_hanging feat/a
	live=$RUN
	run dispatch --repo "$REPO" --head feat/b --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	refute_output --partial "reclaimed"
	[ -d "$live/work/repo-feat-a" ]
	# now it dies, with a note that keeps its workspace for a human
	echo "kept" >"$live/work/repo-feat-a/AGENTIC-GIT-NOTE.md"
	kill -KILL "$PID"
	wait "$PID" || true
	for _ in $(seq 100); do pgrep -f "agent-$MARK" >/dev/null || break; sleep 0.1; done
	run dispatch --repo "$REPO" --head feat/b --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	refute_output --partial "reclaimed"
	[ -f "$live/work/repo-feat-a/AGENTIC-GIT-NOTE.md" ]
}
