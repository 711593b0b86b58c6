#!/usr/bin/env bats
# Issue 37 point 3: the fleet's snapshot retention applied with no command
# of its own, when a `run` session's agent exits and after `end`
# (fleet/retention.h); never the newest snapshot of a live session.
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/sess-home
	cd "$REPO"
}

refs_of() {
	"$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' "refs/agentic-git/snapshots/$1/"
}

# old_snap AGENT: a snapshot of AGENT stamped in 2020 (older than any
# max_age_days), on the repository's HEAD.
old_snap() {
	"$REAL_GIT" -C "$REPO" update-ref \
		"refs/agentic-git/snapshots/$1/20200101T000000Z-0-reset" HEAD
}

@test "t0335: end prunes the finished session's old snapshots; a live session's newest stays" {
	"$AG_BIN" run --agent live1 --branch feat/live -- true 2>/dev/null
	"$AG_BIN" run --agent done1 --branch feat/done -- true 2>/dev/null
	old_snap live1
	old_snap done1
	mkdir -p "$AGENTIC_GIT_HOME/quarantine/done1/20200101T000000Z-0-reset"
	run "$AG_BIN" end --agent done1
	assert_success
	# no prune command was run: end applied the default policy (7 days)
	[ -z "$(refs_of done1)" ]
	[ ! -e "$AGENTIC_GIT_HOME/quarantine/done1/20200101T000000Z-0-reset" ]
	# live1's session is live: its only snapshot is its newest, kept
	[ "$(refs_of live1)" = "refs/agentic-git/snapshots/live1/20200101T000000Z-0-reset" ]
}

@test "t0335: a run session's end prunes a finished session's snapshots by count" {
	"$AG_BIN" run --agent gone1 --branch feat/gone -- true 2>/dev/null
	wt=$AGENTIC_GIT_HOME/worktrees/gone1/feat/gone
	for i in 1 2 3; do
		echo "edit $i" >>"$wt/README.md"
		(cd "$wt" && AGENTIC_GIT_AGENT=gone1 AGENTIC_GIT_SNAPSHOTS=1 \
			"$AGENTIC_GIT_HOME/bin/git" reset -q --hard)
	done
	[ "$(refs_of gone1 | wc -l)" -eq 3 ]
	# gone1's session finished without end (its runtime directory gone)
	rm -rf "$AGENTIC_GIT_HOME/runtime/gone1"
	printf 'snapshots:\n  keep_per_worktree: 1\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" run --agent other1 --branch feat/other -- true
	assert_success
	[ "$(refs_of gone1 | wc -l)" -eq 1 ]
}

@test "t0335: snapshots.auto: false turns it off; a bad config warns and prunes nothing" {
	"$AG_BIN" run --agent done2 --branch feat/done2 -- true 2>/dev/null
	old_snap done2
	printf 'snapshots:\n  auto: false\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" end --agent done2
	assert_success
	[ -n "$(refs_of done2)" ]
	"$AG_BIN" run --agent done3 --branch feat/done3 -- true 2>/dev/null
	printf 'snapshots:\n  auto: maybe\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" end --agent done3
	assert_success
	assert_output --partial "end: retention not applied:"
	assert_output --partial "snapshots.auto"
	[ -n "$(refs_of done2)" ]
}
