#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# `sessions` reads its sessions in parallel (issue 37 point 4;
# fleet/session-gather.c invariants): the same rows, in the same order, as
# one at a time; a session that cannot be read shows its row and hides no
# other; no lock git calls optional is taken in a session's worktree.
load lib

setup() {
	ag_setup
	cd "$REPO"
}

# new_session AGENT BRANCH [SCRIPT]: a session whose agent runs SCRIPT.
new_session() {
	"$AG_BIN" run --agent "$1" --branch "$2" -- sh -c "${3:-true}" 2>/dev/null
}

# a fleet of every state: clean, dirty, with commits saved nowhere, with
# a snapshot, missing, forged, and one whose git dir is not its own
fleet() {
	new_session a-clean feat/a
	new_session b-dirty feat/b 'echo wip >new.txt; echo more >>README.md'
	new_session c-ahead feat/c 'echo c >c.txt && git add c.txt && git commit -qm c'
	new_session d-snap feat/d 'echo d >>README.md; git reset -q --hard'
	new_session e-gone feat/e
	rm -rf "$AGENTIC_GIT_HOME/worktrees/e-gone/feat/e"
	new_session f-forged feat/f
	sed -i 's/feat\/f/main/' "$AGENTIC_GIT_HOME/runtime/f-forged/binding.json"
	new_session g-elsewhere feat/g
	"$REAL_GIT" init -q "$T/other"
	echo "gitdir: $T/other/.git" >"$AGENTIC_GIT_HOME/worktrees/g-elsewhere/feat/g/.git"
	new_session h-clean feat/h
}

@test "t0338: the parallel listing is the serial one, row for row (table and JSON)" {
	fleet
	AGENTIC_GIT_SESSIONS_JOBS=1 "$AG_BIN" sessions --json >"$T/serial.json" 2>"$T/serial.err"
	AGENTIC_GIT_SESSIONS_JOBS=1 "$AG_BIN" sessions >"$T/serial.txt" 2>/dev/null
	for j in 2 3 8 64 ""; do
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" sessions --json >"$T/par.json" 2>/dev/null
		run cmp "$T/serial.json" "$T/par.json"
		assert_success
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" sessions >"$T/par.txt" 2>/dev/null
		run cmp "$T/serial.txt" "$T/par.txt"
		assert_success
	done
	unset AGENTIC_GIT_SESSIONS_JOBS
	"$AG_BIN" sessions --json >"$T/default.json" 2>/dev/null
	run cmp "$T/serial.json" "$T/default.json"
	assert_success
	# the rows say what each session is, in name order
	run jq -r '.[] | "\(.agent) \(.state) \(.changed) \(.untracked) \(.unpushed) \(.snapshots)"' "$T/serial.json"
	assert_output "a-clean clean 0 0 0 0
b-dirty dirty 1 1 0 0
c-ahead clean 0 0 1 0
d-snap clean 0 0 0 1
e-gone missing 0 0 null 0
f-forged forged 0 0 null 0
g-elsewhere invalid 0 0 null 0
h-clean clean 0 0 0 0"
}

@test "t0338: a session that cannot be read shows its row and hides no other" {
	fleet
	for j in 1 4; do
		run env AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" sessions
		assert_success
		assert_line --regexp '^g-elsewhere +feat/g +invalid '
		assert_line --regexp '^h-clean +feat/h +clean '
		assert_line --regexp '^a-clean +feat/a +clean '
		# the reason is said once a reader, on stderr
		assert_output --partial "the git dir of '$AGENTIC_GIT_HOME/worktrees/g-elsewhere/feat/g' lies outside it"
	done
}

@test "t0338: a bad AGENTIC_GIT_SESSIONS_JOBS is named and the default used" {
	new_session a-clean feat/a
	for v in 0 x 65 -1 ' 2'; do
		run env AGENTIC_GIT_SESSIONS_JOBS="$v" "$AG_BIN" sessions
		assert_success
		assert_line "agentic-git: warning: ignoring AGENTIC_GIT_SESSIONS_JOBS='$v': not a number from 1 to 64"
		assert_line --regexp '^a-clean +feat/a +clean '
	done
}

# index_id DIR: what changes when git rewrites the index
index_id() { stat -c '%i %y %s' "$("$REAL_GIT" -C "$1" rev-parse --path-format=absolute --git-path index)"; }

@test "t0338: listing takes no optional lock: a stat-dirty index is never rewritten" {
	for i in 1 2 3 4; do new_session "s$i" "feat/s$i"; done
	for i in 1 2 3 4; do
		wt=$AGENTIC_GIT_HOME/worktrees/s$i/feat/s$i
		touch -d '2001-01-01' "$wt/README.md" # same content, new stat data
		echo "$(index_id "$wt")" >"$T/before.$i"
	done
	sleep 1 # a rewrite within the same second would keep the mtime
	for j in 1 4; do
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" sessions --json >/dev/null
		"$AG_BIN" review --agent s1 >/dev/null
	done
	for i in 1 2 3 4; do
		wt=$AGENTIC_GIT_HOME/worktrees/s$i/feat/s$i
		assert_equal "$(index_id "$wt")" "$(cat "$T/before.$i")"
	done
	# the control: git status with its optional lock does rewrite it
	wt=$AGENTIC_GIT_HOME/worktrees/s1/feat/s1
	"$REAL_GIT" -C "$wt" status --porcelain >/dev/null
	[ "$(index_id "$wt")" != "$(cat "$T/before.1")" ]
}

@test "t0338: no index.lock is ever opened in a worktree while listing (strace)" {
	prereq strace command -v strace
	for i in 1 2 3; do new_session "s$i" "feat/s$i" 'echo x >>README.md'; done
	# LeakSanitizer cannot run under ptrace: the sanitizer build's leak
	# check is left to the other tests
	AGENTIC_GIT_SESSIONS_JOBS=3 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=openat,open,rename -o "$T/trace" "$AG_BIN" sessions >/dev/null 2>&1
	run grep -c '/index"' "$T/trace"
	[ "$output" -gt 0 ] # the trace did see git read the index
	run grep 'index.lock' "$T/trace"
	assert_failure
	# the control: the same trace of a status that takes it
	strace -f -e trace=openat,open,rename -o "$T/trace2" \
		"$REAL_GIT" -C "$AGENTIC_GIT_HOME/worktrees/s1/feat/s1" status >/dev/null 2>&1
	run grep -c 'index.lock' "$T/trace2"
	[ "$output" -gt 0 ]
}
