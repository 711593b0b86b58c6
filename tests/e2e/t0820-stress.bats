#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Concurrency stress (docs/threat-model.md): 8 agents, each bound to its own
# worktree of one repository, run 200 mixed git operations each through the
# shim in parallel with snapshots on. Afterwards: no corrupted ref, object
# or index, every event line is whole JSON, and the deny events match the
# denied commands issued one for one; all the while the operator loops
# `sessions`, `events` and `snapshots list` (issue 34: the operator never
# breaks an agent), and every agent's commits end on its own branch.
# AG_STRESS_SMALL=1 (sanitizer builds)
# runs 40 operations per agent; it is the default when the binary has ASan.
load lib

setup() { ag_setup; }

# worker AGENT N: N operations in the agent's worktree; writes the number
# of commands that must be denied, and of those that were, to $T/count.AGENT.
worker() {
	local agent=$1 n=$2 i op must=0 got=0 rc
	cd "$AGENTIC_GIT_HOME/worktrees/$agent/feat/$agent" || return 1
	export AGENTIC_GIT_AGENT=$agent AGENTIC_GIT_SNAPSHOTS=1
	export PATH="$AGENTIC_GIT_HOME/bin:$PATH"
	for ((i = 0; i < n; i++)); do
		op=$(((i * 7 + ${agent#ag}) % 10))
		rc=0
		case $op in
		0) git status --short >/dev/null 2>&1 || rc=$? ;;
		1) echo "$agent $i" >>"work-$agent.txt"
		   git add "work-$agent.txt" >/dev/null 2>&1 || rc=$? ;;
		2) git commit -qm "$agent op $i" >/dev/null 2>&1 || rc=$? ;;
		3) echo "scratch $i" >>README.md
		   git checkout -- README.md >/dev/null 2>&1 || rc=$? ;;
		4) echo "dirty $i" >>README.md
		   git reset -q --hard >/dev/null 2>&1 || rc=$? ;;
		5) echo "stash $i" >>README.md
		   git stash push -q -m "$agent $i" >/dev/null 2>&1 || rc=$?
		   git stash pop -q >/dev/null 2>&1 || true ;;
		6) git branch --list >/dev/null 2>&1 || rc=$? ;;
		7) must=$((must + 1))
		   git checkout main >/dev/null 2>&1 && rc=0 || { rc=$?; [ $rc -eq 1 ] && got=$((got + 1)); } ;;
		8) must=$((must + 1))
		   git update-ref -d "refs/agentic-git/snapshots/$agent/x" >/dev/null 2>&1 && rc=0 ||
			{ rc=$?; [ $rc -eq 1 ] && got=$((got + 1)); } ;;
		9) git log --oneline -3 >/dev/null 2>&1 || rc=$? ;;
		esac
	done
	echo "$must $got" >"$T/count.$agent"
}

# operator: the operator's views, in a loop, until the agents are done
operator() {
	while [ ! -e "$T/agents-done" ]; do
		"$AG_BIN" sessions >/dev/null 2>&1
		"$AG_BIN" events >/dev/null 2>&1
		"$AG_BIN" snapshots list --all --repo "$REPO" >/dev/null 2>&1
		echo x >>"$T/operator-rounds"
	done
}

@test "t0820: 8 agents x 200 mixed operations in parallel: no corrupted ref, index or event; every deny accounted for" {
	local n=200 agents=8
	# sanitizer builds (ASan in the binary) run the small size by default
	if [ "${AG_STRESS_SMALL:-}" = 1 ] ||
		{ [ -z "${AG_STRESS_SMALL:-}" ] && grep -q __asan_init "$AG_BIN"; }; then
		n=40
	fi
	for a in $(seq 1 $agents); do
		ag_bind "ag$a" "feat/ag$a"
	done
	# Each snapshot with new blobs adds a small pack, so some commit here
	# runs `gc --auto`. Detached, it may still hold gc.log.lock when the
	# checks below run; in the foreground it still runs concurrently with
	# the other agents, and is done when its worker is.
	"$REAL_GIT" -C "$REPO" config gc.autoDetach false
	unset AGENTIC_GIT_AGENT
	operator &
	local op_pid=$!
	local pids=()
	for a in $(seq 1 $agents); do
		worker "ag$a" "$n" &
		pids+=($!)
	done
	wait "${pids[@]}"
	touch "$T/agents-done"
	wait "$op_pid"
	[ "$(wc -l <"$T/operator-rounds")" -ge 1 ]
	# a snapshot's storage consolidation (detached, under its flock) may
	# still be running; wait for it, as for gc above
	flock "$REPO/.git/agentic-git-compact.mutex" true 2>/dev/null || true
	local must=0 got=0 m g
	for a in $(seq 1 $agents); do
		[ -f "$T/count.ag$a" ]
		read -r m g <"$T/count.ag$a"
		must=$((must + m))
		got=$((got + g))
	done
	# every command that must be denied was denied (exit 1)
	[ "$must" -gt 0 ]
	[ "$got" -eq "$must" ]
	# no corrupted object or ref
	run "$REAL_GIT" -C "$REPO" fsck --no-dangling --no-progress
	assert_success
	run "$REAL_GIT" -C "$REPO" for-each-ref --format='%(objecttype) %(refname)'
	assert_success
	refute_output --partial "missing"
	[ "$(grep -c '^commit refs/agentic-git/snapshots/' <<<"$output")" -gt 0 ]
	run find "$REPO/.git" -name '*.lock'
	assert_output ""
	# no corrupted index in any worktree, each still on its own branch
	for a in $(seq 1 $agents); do
		wt=$AGENTIC_GIT_HOME/worktrees/ag$a/feat/ag$a
		run "$REAL_GIT" -C "$wt" ls-files --stage
		assert_success
		run "$REAL_GIT" -C "$wt" status --porcelain
		assert_success
		[ "$(branch_of "$wt")" = "feat/ag$a" ]
		# its commits are on its branch, and only its own
		"$REAL_GIT" -C "$REPO" log --format=%s "main..feat/ag$a" | grep -q "^ag$a op "
		[ -z "$("$REAL_GIT" -C "$REPO" log --format=%s "main..feat/ag$a" | grep -v "^ag$a op ")" ]
	done
	# every event line is one whole JSON object
	log=$AGENTIC_GIT_HOME/fleet_events.jsonl
	nlines=$(wc -l <"$log")
	run jq -c 'select(type == "object")' "$log"
	assert_success
	[ "${#lines[@]}" -eq "$nlines" ]
	# the deny events match the denied commands, one for one, per agent
	[ "$(jq -r 'select(.disposition == "deny") | .agent' "$log" | wc -l)" -eq "$must" ]
	for a in $(seq 1 $agents); do
		read -r m g <"$T/count.ag$a"
		[ "$(jq -r --arg a "ag$a" 'select(.disposition == "deny" and .agent == $a) | .agent' "$log" | wc -l)" -eq "$m" ]
	done
}
