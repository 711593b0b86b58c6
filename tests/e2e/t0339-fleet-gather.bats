#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# One gatherer for every fleet view (fleet/session-gather.c): sandboxed
# sessions (private workspaces, read in the cage) list the same in
# parallel as one at a time, and `review` and the page, which read the
# sessions the same way and then run git of their own in the parent, give
# what they gave one at a time; no worker takes its parent's cage temp dir.
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin" "$T/tmp"
	export TMPDIR=$T/tmp
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	# the scripted agent: a commit of its own and some work left over
	echo "$3" >"$3.txt" && git add "$3.txt" && git commit -qm "work $3"
	echo wip >>README.md
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

# sandboxed BACKEND: a config whose profile is caged by BACKEND
sandboxed() {
	sbx_scripted_config "$1"
	for a in s1 s2 s3 s4 s5; do
		"$AG_BIN" run --agent "$a" --branch "feat/$a" --profile scripted --prompt "$a" >/dev/null 2>&1
	done
}

# same_in_parallel: sessions --json, review of s3 and the page's sessions
# are the same read one at a time and four at a time
same_in_parallel() {
	local j
	for j in 1 4; do
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" sessions --json >"$T/sessions.$j" 2>"$T/err.$j"
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" review --agent s3 --json >"$T/review.$j" 2>>"$T/err.$j"
		AGENTIC_GIT_SESSIONS_JOBS=$j "$AG_BIN" report -o "$T/page.$j" 2>>"$T/err.$j"
		sed -i 's/<span id="generated">[^<]*</<span id="generated"></' "$T/page.$j"
	done
	run cat "$T/err.4" # nothing but the page's own line
	assert_output "report: wrote $T/page.4 (5 sessions, 0 denies, 0 snapshots)"
	cmp "$T/sessions.1" "$T/sessions.4"
	cmp "$T/review.1" "$T/review.4"
	cmp "$T/page.1" "$T/page.4"
	run jq -r '.[] | "\(.agent) \(.state) \(.changed) \(.unpushed)"' "$T/sessions.4"
	assert_output "s1 dirty 1 1
s2 dirty 1 1
s3 dirty 1 1
s4 dirty 1 1
s5 dirty 1 1"
	run jq -r '.commits | length' "$T/review.4"
	assert_output 1
	# every cage temp dir went with the process that made it
	run ls -A "$T/tmp"
	assert_output ""
}

@test "t0339: bwrap sessions: sessions, review and the page read in parallel as one at a time" {
	sandboxed bwrap
	same_in_parallel
}

@test "t0339: landlock sessions: sessions, review and the page read in parallel as one at a time" {
	sandboxed landlock
	same_in_parallel
}

@test "t0339: review reads its session's neighbours in parallel and keeps its own cage's temp dir" {
	# review reads the session first (its cage's temp dir is made then),
	# then the list in workers, then runs git again: a worker that took
	# the temp dir with it would fail that git
	for a in r1 r2 r3 r4; do
		"$AG_BIN" run --agent "$a" --branch "feat/$a" -- sh -c \
			'echo x >x.txt && git add x.txt && git commit -qm x' 2>/dev/null
	done
	AGENTIC_GIT_SESSIONS_JOBS=1 "$AG_BIN" review --agent r2 --json --patch >"$T/one" 2>"$T/err1"
	run env AGENTIC_GIT_SESSIONS_JOBS=4 "$AG_BIN" review --agent r2 --json --patch
	assert_success
	echo "$output" >"$T/four"
	cmp "$T/one" "$T/four"
	run jq -r '.overlap | length' "$T/four"
	[ "$output" -ge 1 ] # the neighbours were read: x.txt is theirs too
	run ls -A "$T/tmp"
	assert_output ""
}
