#!/usr/bin/env bats
# agentic-git sessions --watch: the live view, driven in a real terminal
# (a tmux pane: a pty, keys sent to it, the screen read back). No timing is
# asserted: each step waits for what it expects to appear, with a bound
# that only keeps a broken build from hanging the suite.
load lib

setup() {
	ag_setup
	cd "$REPO"
	unset TMUX
	SOCK=$T/tmux.sock
	RUN_PID=
}

teardown() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
	if [ -n "$RUN_PID" ]; then
		kill "$RUN_PID" 2>/dev/null || true
		wait "$RUN_PID" 2>/dev/null || true
	fi
}

# pane: the pane's screen as text.
pane() {
	tmux -S "$SOCK" capture-pane -p -t w
}

# wait_for REGEX: until the screen matches (at most ~60 s, then fail).
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		pane | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	echo "the screen never showed /$1/:" >&2
	pane >&2
	return 1
}

# watch_in_pane: `sessions --watch` in a 160x40 terminal; when it ends the
# pane prints its exit code and whether the terminal is back in cooked mode.
watch_in_pane() {
	tmux -S "$SOCK" -f /dev/null new-session -d -s w -x 160 -y 40 \
		"cd '$REPO' && '$AG_BIN' sessions --watch; echo EXIT=\$?; stty -a | grep -o -- ' -\\?icanon'; sleep 600"
}

@test "sessions --watch off a terminal refuses, with the reason" {
	run "$AG_BIN" sessions --watch
	assert_equal "$status" 2
	assert_output "agentic-git: sessions: --watch needs a terminal, and stdout is not one (sessions --json is for scripts)"
	run "$AG_BIN" sessions --watch --json
	assert_equal "$status" 2
	assert_output --partial "--json and --watch do not go together"
	# stdout a terminal, stdin not: `q` could not be read
	prereq script command -v script
	run script -qec "'$AG_BIN' sessions --watch </dev/null" /dev/null
	assert_equal "$status" 2
	assert_output --partial "needs a terminal on stdin too"
}

@test "sessions --watch shows running and idle sessions, redraws, and q quits" {
	prereq tmux command -v tmux
	"$AG_BIN" run --agent a2 --branch feat/b -- sh -c '
		echo z >z.txt && git add z.txt && git commit -qm zed
		git checkout main; true' 2>/dev/null
	"$AG_BIN" run --agent a1 --branch feat/a -- sleep 600 2>/dev/null &
	RUN_PID=$!
	for ((i = 0; i < 600; i++)); do
		"$AG_BIN" sessions --json | jq -e '.[] | select(.agent=="a1") | .running' >/dev/null && break
		sleep 0.1
	done
	watch_in_pane
	wait_for 'q quits'
	wait_for '^a1 +running \(pid [0-9]+\) +feat/a +0 +0 files'
	wait_for '^a2 +idle +feat/b +1 +1 file \+1 -0 +[0-9:]{8} session_end'
	wait_for 'last deny: .* checkout: cross-branch'
	# a new commit on a2's branch: the next redraw shows it
	wt=$AGENTIC_GIT_HOME/worktrees/a2/feat/b
	echo y >"$wt/y.txt"
	"$REAL_GIT" -C "$wt" add y.txt
	"$REAL_GIT" -C "$wt" -c core.hooksPath=/dev/null commit -qm why
	wait_for '^a2 +idle +feat/b +2 +2 files \+2 -0'
	tmux -S "$SOCK" send-keys -t w q
	wait_for '^EXIT=0$'
	# invariant 2: the terminal is back in cooked mode, the screen ours
	wait_for '^ icanon$'
	! pane | grep -q 'q quits'
}

@test "sessions --watch prints an agent's control characters inert, and C-c quits cleanly" {
	prereq tmux command -v tmux
	"$AG_BIN" run --agent a2 --branch feat/b -- true 2>/dev/null
	printf '%s\n' '{"event":"deny","disposition":"deny","agent":"a2","subcommand":"push","timestamp":"2026-12-06T09:00:00Z","reason":"\u001b[2J\u001b[Hgone \u202eevil"}' \
		>>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	watch_in_pane
	wait_for 'last deny: 2026-12-06T09:00:00 push: \\x1b\[2J\\x1b\[Hgone \\u202eevil'
	wait_for '^a2 +idle'
	tmux -S "$SOCK" send-keys -t w C-c
	wait_for '^EXIT=0$'
	wait_for '^ icanon$'
}

@test "sessions --watch with no session says so" {
	prereq tmux command -v tmux
	watch_in_pane
	wait_for '^\(no sessions\)$'
	tmux -S "$SOCK" send-keys -t w Q
	wait_for '^EXIT=0$'
}
