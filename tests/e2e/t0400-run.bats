#!/usr/bin/env bats
# agentic-git run: provisioning, validation before creation, reuse,
# environment and exit status. Invariant numbers refer to
# src/fleet/session.h.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	# A home that does not exist yet, so "nothing created" is checkable.
	export AGENTIC_GIT_HOME=$T/sess-home
	cd "$REPO"
}

# A fingerprint of everything run could create or change.
world() {
	ls -laR "$AGENTIC_GIT_HOME" 2>/dev/null || echo "no home"
	"$REAL_GIT" -C "$REPO" worktree list --porcelain
	"$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname)'
	cat "$REPO/.git/info/exclude" 2>/dev/null || true
	"$REAL_GIT" -C "$REPO" config --list --local
}

@test "run --help prints usage" {
	run "$AG_BIN" run --help
	assert_success
	assert_output --partial "usage: agentic-git run [--agent NAME] [--branch B] [--base REF] -- <cmd>"
}

@test "run provisions worktree, branch, signed binding, marker, hooks and shim link" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'pwd >"$1"' sh "$T/cwd"
	assert_success
	wt=$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
	assert_equal "$(cat "$T/cwd")" "$wt"
	assert_equal "$(branch_of "$wt")" feat/one
	assert_equal "$(head_of "$wt")" "$(head_of "$REPO")"
	b=$AGENTIC_GIT_HOME/runtime/ag1/binding.json
	# signature: bare lowercase hex, no newline, and it verifies
	assert_equal "$(cat "$b.sig")" "$("$TEST_TOOL" hmac "$AGENTIC_GIT_HOME" "$b")"
	assert_equal "$(wc -c <"$b.sig")" 64
	assert_equal "$(tail -c1 "$b" | od -An -c | tr -d ' ')" "}"
	assert_equal "$(jq -r .version "$b")" 1
	assert_equal "$(jq -r .agent "$b")" ag1
	assert_equal "$(jq -r .branch "$b")" feat/one
	assert_equal "$(jq -r .worktree "$b")" "$wt"
	assert_equal "$(jq -r .source_repo "$b")" "$REPO"
	[[ "$(jq -r .task_id "$b")" =~ ^run-session-[0-9]+-[0-9a-f]{8}$ ]]
	[[ "$(jq -r .issued_at "$b")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{9}\+00:00$ ]]
	# marker, kept out of `git add -A`
	assert_equal "$(sed -n 1p "$wt/.agend-managed")" "agent=ag1"
	grep -q '^leased_at=' "$wt/.agend-managed"
	assert_equal "$("$REAL_GIT" -C "$wt" status --porcelain)" ""
	# worktree-scoped hooks; the operator's checkout is untouched
	assert_equal "$("$REAL_GIT" -C "$wt" config core.hooksPath)" "$AGENTIC_GIT_HOME/hooks"
	run "$REAL_GIT" -C "$REPO" config core.hooksPath
	assert_failure
	for h in prepare-commit-msg reference-transaction pre-push; do
		[ -x "$AGENTIC_GIT_HOME/hooks/$h" ]
		grep -qF "hook --home '$AGENTIC_GIT_HOME' $h" "$AGENTIC_GIT_HOME/hooks/$h"
	done
	assert_equal "$(readlink "$AGENTIC_GIT_HOME/bin/git")" "$(readlink -f "$AG_SHIM")"
	assert_equal "$(stat -c %a "$AGENTIC_GIT_HOME/.config-integrity-key")" 600
	# events
	assert_equal "$(jq -r .event "$AGENTIC_GIT_HOME/fleet_events.jsonl" | tr '\n' ' ')" "session_start session_end "
	assert_equal "$(jq -r 'select(.event=="session_end") | .exit_code' "$AGENTIC_GIT_HOME/fleet_events.jsonl")" 0
	assert_equal "$(jq -r 'select(.event=="session_start") | .disposition' "$AGENTIC_GIT_HOME/fleet_events.jsonl")" info
}

@test "run prints the session summary with an end command" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_success
	assert_output --partial "agentic-git: session ended (exit 0)."
	assert_output --partial "worktree:  $AGENTIC_GIT_HOME/worktrees/ag1/feat/one"
	assert_output --partial "branch:    feat/one"
	assert_output --partial "snapshots: safety net ON"
	assert_output --partial "re-enter:"
	assert_output --partial "remove:    agentic-git end --agent ag1"
}

@test "run defaults: agent run-<12 hex>, branch agent/<agent>/<UTC minute>, base HEAD" {
	"$REAL_GIT" checkout -q -b side
	echo side >side.txt && "$REAL_GIT" add side.txt && "$REAL_GIT" commit -qm side
	run "$AG_BIN" run -- sh -c 'echo "$AGENTIC_GIT_AGENT" >"$1"' sh "$T/agent"
	assert_success
	agent=$(cat "$T/agent")
	[[ "$agent" =~ ^run-[0-9a-f]{12}$ ]]
	br=$(jq -r .branch "$AGENTIC_GIT_HOME/runtime/$agent/binding.json")
	[[ "$br" =~ ^agent/$agent/[0-9]{8}-[0-9]{4}$ ]]
	assert_equal "$(head_of "$AGENTIC_GIT_HOME/worktrees/$agent/$br")" "$(head_of "$REPO")"
}

@test "run --base starts the branch at that commit" {
	first=$(head_of "$REPO")
	echo more >>README.md && "$REAL_GIT" commit -qam more
	run "$AG_BIN" run --agent ag1 --branch feat/b --base "$first" -- true
	assert_success
	assert_equal "$(head_of "$AGENTIC_GIT_HOME/worktrees/ag1/feat/b")" "$first"
}

@test "the agent's environment: shim first on PATH, session variables, snapshots on" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'env >"$1"' sh "$T/env"
	assert_success
	grep -qx "PATH=$AGENTIC_GIT_HOME/bin:.*" "$T/env"
	grep -qx "AGENTIC_GIT_HOME=$AGENTIC_GIT_HOME" "$T/env"
	grep -qx "AGENTIC_GIT_AGENT=ag1" "$T/env"
	grep -qx "AGENTIC_GIT_REAL_GIT=$REAL_GIT" "$T/env"
	grep -qx "AGENTIC_GIT_SNAPSHOTS=1" "$T/env"
}

@test "an explicit AGENTIC_GIT_SNAPSHOTS=0 is respected and reported" {
	AGENTIC_GIT_SNAPSHOTS=0 run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'env >"$1"' sh "$T/env"
	assert_success
	grep -qx "AGENTIC_GIT_SNAPSHOTS=0" "$T/env"
	assert_output --partial "safety net OFF"
}

@test "ambient bypass variables never reach the agent (invariant 4)" {
	run env AGENTIC_GIT_BYPASS=1 AGEND_GIT_BYPASS=1 \
		AGENTIC_GIT_BYPASS_AGENT=ag1 AGEND_GIT_BYPASS_AGENT=ag1 \
		AGENTIC_GIT_BYPASS_UNTIL=9999999999 AGEND_GIT_BYPASS_UNTIL=9999999999 \
		AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 AGEND_GIT_ALLOW_CANONICAL_MUTATE=1 \
		"$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'env >"$1"' sh "$T/env"
	assert_success
	run grep -E 'BYPASS|ALLOW_CANONICAL' "$T/env"
	assert_failure
	grep -qx "AGENTIC_GIT_AGENT=ag1" "$T/env"
}

@test "the child's exit status passes through" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'exit 3'
	assert_equal "$status" 3
	assert_output --partial "session ended (exit 3)."
	assert_equal "$(jq -r 'select(.event=="session_end") | .exit_code' "$AGENTIC_GIT_HOME/fleet_events.jsonl")" 3
}

@test "a child killed by a signal gives 128+signal (invariant 5)" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'kill -TERM $$'
	assert_equal "$status" 143
	assert_output --partial "session ended (exit 143)."
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'kill -KILL $$'
	assert_equal "$status" 137
}

@test "a command that cannot be found exits 127 and creates nothing" {
	before=$(world)
	run -127 "$AG_BIN" run --agent ag1 --branch feat/one -- no-such-command-xyz
	assert_equal "$status" 127
	assert_output --partial "command not found"
	assert_equal "$(world)" "$before"
}

@test "usage errors exit 2 and create nothing" {
	before=$(world)
	for args in "--agent ag1" "--agent ag1 --" "--bogus x -- true" "--agent" "--branch b true"; do
		# shellcheck disable=SC2086
		run "$AG_BIN" run $args
		assert_equal "$status" 2
		assert_output --regexp "agentic-git: run: "
	done
	assert_equal "$(world)" "$before"
}

@test "invalid agent names are refused with nothing created (invariant 1)" {
	before=$(world)
	for a in Bad ../x a/b .x x. con aux.txt "a b" "" "$(printf 'a%.0s' {1..65})"; do
		run "$AG_BIN" run --agent "$a" --branch feat/x -- true
		assert_equal "$status" 2
		assert_output --partial "invalid agent name"
	done
	assert_equal "$(world)" "$before"
	[ ! -e "$AGENTIC_GIT_HOME" ]
}

@test "invalid branch names are refused with nothing created (invariant 1)" {
	before=$(world)
	for b in a..b -x x.lock "a b" "main~1" "a:b" "/x" "x/" "HEAD" "a//b" ".hidden" "x@{y"; do
		run "$AG_BIN" run --agent ag1 --branch "$b" -- true
		assert_equal "$status" 2
		assert_output --partial "invalid branch name"
	done
	assert_equal "$(world)" "$before"
	[ ! -e "$AGENTIC_GIT_HOME" ]
}

@test "a home containing ':' is refused with 78 before provisioning (invariant 1)" {
	export AGENTIC_GIT_HOME=$T/a:b
	before=$(world)
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_equal "$status" 78
	assert_output --partial "cannot build a guarded PATH"
	assert_output --partial "Refusing to launch the agent unguarded"
	[ ! -e "$T/a:b" ]
	assert_equal "$(world)" "$before"
}

@test "a bad base, a non-repository and a bare repository are refused with nothing created" {
	before=$(world)
	run "$AG_BIN" run --agent ag1 --branch feat/one --base no-such-ref -- true
	assert_equal "$status" 1
	assert_output --partial "base 'no-such-ref' does not name a commit"
	run "$AG_BIN" run --agent ag1 --branch feat/one --base --orphan -- true
	assert_equal "$status" 2
	mkdir "$T/plain"
	cd "$T/plain"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_equal "$status" 1
	assert_output --partial "not inside a git repository"
	cd "$ORIGIN"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_equal "$status" 1
	assert_output --partial "bare repository"
	assert_equal "$(world)" "$before"
}

@test "an existing branch no session holds is adopted at its tip (resume)" {
	"$REAL_GIT" branch taken
	run "$AG_BIN" run --agent ag1 --branch taken -- git rev-parse --abbrev-ref HEAD
	assert_success
	assert_line taken # stdout; off a terminal stderr has progress lines too
	assert_equal "$("$REAL_GIT" rev-parse taken)" "$("$REAL_GIT" rev-parse main)"
}

@test "a second run of the same agent and branch reuses the verified session (invariant 2)" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'echo work >w.txt'
	assert_success
	b=$AGENTIC_GIT_HOME/runtime/ag1/binding.json
	cp "$b" "$T/b1"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'cat w.txt >"$1"' sh "$T/seen"
	assert_success
	assert_equal "$(cat "$T/seen")" work
	cmp "$b" "$T/b1"
	assert_equal "$(jq -r 'select(.event=="session_start") | .reused' "$AGENTIC_GIT_HOME/fleet_events.jsonl" | tr '\n' ' ')" "false true "
	assert_equal "$("$REAL_GIT" -C "$REPO" worktree list | wc -l)" 2
}

@test "a tampered binding is not reused and nothing changes (invariant 2)" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_success
	b=$AGENTIC_GIT_HOME/runtime/ag1/binding.json
	sed -i 's#"source_repo": "[^"]*"#"source_repo": "/elsewhere"#' "$b"
	before=$(world)
	run "$AG_BIN" run --agent ag1 --branch feat/one -- touch "$T/ran"
	assert_equal "$status" 1
	assert_output --partial "refusing to reuse the session of agent 'ag1'"
	assert_output --partial "does not verify"
	[ ! -e "$T/ran" ]
	assert_equal "$(world)" "$before"
	# a missing signature is refused the same way
	rm "$b.sig"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- touch "$T/ran"
	assert_equal "$status" 1
	[ ! -e "$T/ran" ]
}

@test "an agent with a session on another branch is refused" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_success
	before=$(world)
	run "$AG_BIN" run --agent ag1 --branch feat/two -- true
	assert_equal "$status" 1
	assert_output --partial "already has a session on branch 'feat/one'"
	assert_output --partial "runtime"
	assert_equal "$(world)" "$before"
}

@test "a session whose worktree vanished is reported stale, not reused" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	rm -rf "$AGENTIC_GIT_HOME/worktrees/ag1/feat/one"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- touch "$T/ran"
	assert_equal "$status" 1
	assert_output --partial "stale session"
	assert_output --partial "agentic-git end --agent ag1"
	[ ! -e "$T/ran" ]
}

@test "the provisioning lock is keyed by the common dir (invariant 3)" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- true
	assert_success
	# a second run started from inside a linked worktree of the same repo
	"$REAL_GIT" worktree add -q "$T/linked" -b linked
	cd "$T/linked"
	run "$AG_BIN" run --agent ag2 --branch feat/two -- true
	assert_success
	assert_equal "$(ls "$AGENTIC_GIT_HOME/locks" | wc -l)" 1
	assert_equal "$(jq -r .source_repo "$AGENTIC_GIT_HOME/runtime/ag2/binding.json")" "$T/linked"
}

@test "concurrent runs on one repository both provision" {
	for i in 1 2 3 4; do
		"$AG_BIN" run --agent "p$i" --branch "par/$i" -- true 2>"$T/err$i" &
	done
	wait
	for i in 1 2 3 4; do
		assert_equal "$(branch_of "$AGENTIC_GIT_HOME/worktrees/p$i/par/$i")" "par/$i"
		assert_equal "$("$TEST_TOOL" hmac "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/p$i/binding.json")" \
			"$(cat "$AGENTIC_GIT_HOME/runtime/p$i/binding.json.sig")"
	done
	assert_equal "$(grep -c '^/.agend-managed$' "$REPO/.git/info/exclude")" 1
}

@test "a relative home is made absolute" {
	export AGENTIC_GIT_HOME=rel-home
	run "$AG_BIN" run --agent ag1 --branch feat/one -- sh -c 'echo "$AGENTIC_GIT_HOME" >"$1"' sh "$T/h"
	assert_success
	assert_equal "$(cat "$T/h")" "$REPO/rel-home"
}

# wait_for FILE…: until every file is non-empty (synchronisation, not timing)
wait_for() {
	local i
	for i in $(seq 200); do
		local all=1 f
		for f in "$@"; do [ -s "$f" ] || all=0; done
		[ $all = 1 ] && return 0
		sleep 0.05
	done
	return 1
}

# gone PID: true once the process no longer exists
gone() {
	local i
	for i in $(seq 200); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
	return 1
}

@test "SIGTERM and SIGHUP reach the agent's whole process group (invariant 5)" {
	for sig in TERM HUP; do
		rm -f "$T/gc" "$T/child"
		"$AG_BIN" run --agent ag1 --branch feat/one -- \
			sh -c 'sleep 60 & echo $! >"$1/gc"; echo $$ >"$1/child"; wait' sh "$T" 2>/dev/null &
		rpid=$!
		wait_for "$T/gc" "$T/child"
		child=$(cat "$T/child")
		gc=$(cat "$T/gc")
		# the agent leads its own process group, not run's
		assert_equal "$(ps -o pgid= -p "$gc" | tr -d ' ')" "$child"
		[ "$(ps -o pgid= -p "$rpid" | tr -d ' ')" != "$child" ]
		kill -$sig "$rpid"
		st=0
		wait "$rpid" || st=$?
		assert_equal "$st" $((128 + $(kill -l $sig)))
		gone "$gc"
	done
}

@test "SIGINT is forwarded to the agent and its exit status is returned" {
	"$AG_BIN" run --agent ag1 --branch feat/one -- \
		sh -c 'trap "echo got >\"\$1/int\"; exit 7" INT; echo $$ >"$1/child"; while :; do sleep 0.05; done' sh "$T" 2>/dev/null &
	rpid=$!
	wait_for "$T/child"
	kill -INT "$rpid"
	st=0
	wait "$rpid" || st=$?
	assert_equal "$st" 7
	assert_equal "$(cat "$T/int")" got
}
