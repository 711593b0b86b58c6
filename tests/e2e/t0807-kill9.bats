#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# kill -9 at random moments (issue 34 point 5) of a snapshot (the shim's
# reset --hard), a commit, a restore, `end --force` and dispatch. After
# each: git fsck passes, a lock left behind is named with its way out by
# the next restore (and, once removed as told, nothing blocks the next
# command), the journal is whole JSON lines, the branch only moves forward
# and HEAD stays on it, and the work a killed destructive command was
# about to destroy is in the work tree or in a snapshot.
#
# Rounds per operation: AG_FAULT_ROUNDS (default 6); the delays come from
# AG_FAULT_SEED (default: this run's $RANDOM, printed on failure).
load lib
load dispatch
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	cd "$REPO"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	[ "$status" -eq 0 ] || { echo "setup: $output" >&2; return 1; }
	WT=$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
	COMMON=$("$REAL_GIT" -C "$REPO" rev-parse --path-format=absolute --git-common-dir)
	# "${AS_AGENT[@]}" CMD...: CMD as the session's agent runs it, in its
	# own session (a command, not a function: killed_at needs its pid)
	AS_AGENT=(env -C "$WT" AGENTIC_GIT_AGENT=ag1 "PATH=$AGENTIC_GIT_HOME/bin:$PATH" setsid)
	ROUNDS=${AG_FAULT_ROUNDS:-6}
	SEED=${AG_FAULT_SEED:-$RANDOM}
	RANDOM=$SEED
	echo "seed $SEED" >&3 2>/dev/null || true
}

# killed_at MAX_MS CMD...: CMD (a program that ends in setsid: $! is then
# the new session's leader) killed -9 with its whole session after a
# random 0..MAX_MS ms; waits until nothing of the session is left.
killed_at() {
	local max=$1 pid ms
	shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	ms=$((RANDOM % max))
	sleep "$(printf '0.%03d' "$ms")"
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# the session's other processes (a hook, git's children) end too
	for _ in $(seq 50); do
		pgrep -s "$pid" >/dev/null 2>&1 || break
		pkill -KILL -s "$pid" 2>/dev/null || true
		sleep 0.05
	done
}


# locks_way_out: every lock of git's left in the repository is one the
# next restore names with its rm; then it is removed as told. (A snapshot
# ref's own lock under refs/agentic-git/ blocks no command of the agent's;
# the next snapshot sweeps it once it is a minute old: t0805.)
locks_way_out() {
	local locks l
	locks=$(find "$COMMON" -name '*.lock' ! -name 'agentic-git-*' ! -path '*/refs/agentic-git/*' | sort)
	[ -z "$locks" ] && return 0
	run "$AG_BIN" snapshots restore --repo "$WT" --yes --head
	for l in $locks; do
		if [[ "$output" != *"rm "*"$l"* ]]; then
			echo "lock $l left and not named: $output" >&2
			return 1
		fi
	done
	rm -f $locks
}

# sane ROUND TIP: the checks after each kill.
sane() {
	local tip=$2
	# a consolidation the killed command started runs detached in its
	# own session (src/git/snapshot-compact.c): the checks are of the
	# state at rest, after it
	[ ! -e "$COMMON/agentic-git-compact.mutex" ] ||
		flock -w 60 "$COMMON/agentic-git-compact.mutex" true
	locks_way_out
	run "$REAL_GIT" -C "$REPO" fsck --no-progress --no-dangling
	[ "$status" -eq 0 ] || { echo "round $1: fsck: $output" >&2; return 1; }
	if [ -f "$AGENTIC_GIT_HOME/fleet_events.jsonl" ]; then
		[ "$(jq -c . "$AGENTIC_GIT_HOME/fleet_events.jsonl" | wc -l)" -eq \
			"$(wc -l <"$AGENTIC_GIT_HOME/fleet_events.jsonl")" ] ||
			{ echo "round $1: a torn journal line" >&2; return 1; }
	fi
	if [ -d "$WT" ]; then
		[ "$(branch_of "$WT")" = feat/one ] || { echo "round $1: HEAD left feat/one" >&2; return 1; }
	fi
	# the branch only moves forward
	"$REAL_GIT" -C "$REPO" merge-base --is-ancestor "$tip" feat/one ||
		{ echo "round $1: feat/one lost $tip" >&2; return 1; }
}

# kept MARKER: the marker line is in the work tree's README.md or in a
# snapshot (ag1's, or the operator's restore's save of what it replaced).
kept() {
	grep -qF "$1" "$WT/README.md" 2>/dev/null && return 0
	local refs
	refs=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/)
	[ -n "$refs" ] && "$REAL_GIT" -C "$REPO" grep -qF "$1" $refs -- README.md
}

@test "t0807: kill -9 during a snapshot and its reset --hard, at random moments" {
	for i in $(seq "$ROUNDS"); do
		tip=$(head_of "$WT")
		echo "precious $i $SEED" >>"$WT/README.md"
		killed_at 150 "${AS_AGENT[@]}" git reset -q --hard
		sane "$i" "$tip"
		kept "precious $i $SEED" || { echo "round $i (seed $SEED): the edit is lost" >&2; return 1; }
	done
	# and the next command runs
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	assert_success
}

@test "t0807: kill -9 during a commit, at random moments" {
	for i in $(seq "$ROUNDS"); do
		tip=$(head_of "$WT")
		echo "commit $i" >>"$WT/README.md"
		killed_at 120 "${AS_AGENT[@]}" git commit -qam "c$i"
		sane "$i" "$tip"
	done
	echo last >>"$WT/README.md"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git commit -qam last
	assert_success
	[ "$(branch_of "$WT")" = feat/one ]
	[ "$("$REAL_GIT" -C "$WT" log -1 --format=%s)" = last ]
}

@test "t0807: kill -9 during a restore, at random moments" {
	echo "saved work" >>"$WT/README.md"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	assert_success
	# (snapshots of two names taken in one second tie in restore --since's
	# order: not what this test is about)
	sleep 1
	for i in $(seq "$ROUNDS"); do
		tip=$(head_of "$WT")
		echo "edit $i $SEED" >>"$WT/README.md"
		killed_at 150 setsid "$AG_BIN" snapshots restore --repo "$WT" --yes
		sane "$i" "$tip"
		# the restore saves the state it replaces first
		kept "edit $i $SEED" || { echo "round $i (seed $SEED): the edit is lost" >&2; return 1; }
	done
	run "$AG_BIN" snapshots restore --repo "$WT" --since 1h --yes
	echo "$output"
	assert_success
	grep -q "saved work" "$WT/README.md" || { echo "seed $SEED: saved work not restored: $(cat "$WT/README.md")" >&2; ls "$AGENTIC_GIT_HOME"; "$REAL_GIT" -C "$REPO" for-each-ref refs/agentic-git/ >&2; return 1; }
}

@test "t0807: kill -9 during end --force, at random moments" {
	for i in $(seq "$ROUNDS"); do
		[ -d "$WT" ] || "$AG_BIN" run --agent ag1 --branch feat/one -- true >/dev/null 2>&1
		tip=$(head_of "$WT")
		echo "unsaved $i $SEED" >>"$WT/README.md"
		killed_at 200 setsid "$AG_BIN" end --agent ag1 --force
		sane "$i" "$tip"
		kept "unsaved $i $SEED" || { echo "round $i (seed $SEED): the edit is lost" >&2; return 1; }
		# the next end finishes the job, or the killed one had: then
		# nothing of the session is left
		run "$AG_BIN" end --agent ag1 --force
		if [[ "$output" == *"no session for agent 'ag1'"* ]]; then
			[ ! -e "$WT" ] || { echo "round $i: a worktree without its session" >&2; return 1; }
			run ls "$AGENTIC_GIT_HOME/runtime"
			refute_output --partial "ag1"
		else
			[ "$status" -eq 0 ] || { echo "round $i: end after the kill: $output" >&2; return 1; }
		fi
	done
}

@test "t0807: kill -9 during dispatch, at random moments; the next dispatch runs and reclaims" {
	dsp_setup
	dsp_branch feat/a
	for i in $(seq "$ROUNDS"); do
		killed_at 800 setsid "$AG_BIN" dispatch --grace 1 --repo "$REPO" --head feat/a --base main \
			--task resolve-conflicts -- "$AGENTS/noop.sh"
		"$REAL_GIT" -C "$REPO" fsck --no-progress --no-dangling
		"$REAL_GIT" --git-dir="$ORIGIN" fsck --no-progress --no-dangling
	done
	# (the no-op agent escalates: exit 3)
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	[ "$status" -eq 3 ]
	assert_output --partial "escalated     repo-feat-a"
	# no killed run's workspace is left
	run sh -c "ls -d '$AGENTIC_GIT_HOME'/runs/*/work/* 2>/dev/null"
	assert_output ""
	run find "$COMMON" -name '*.lock'
	assert_output ""
}
