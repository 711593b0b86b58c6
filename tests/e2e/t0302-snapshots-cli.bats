#!/usr/bin/env bats
# The snapshot engine's edges and the `snapshots` CLI: usage errors, show,
# diff, prune and the TTL, skip-when-clean, fail-open, forced identity.
load lib
load snapshot-lib

setup() {
	ag_setup
	cd "$REPO"
}

@test "usage errors exit 2 and change nothing" {
	run "$AG_BIN" snapshots
	assert_equal "$status" 2
	assert_output --partial "snapshots: no subcommand given"
	run "$AG_BIN" snapshots frob
	assert_equal "$status" 2
	assert_output --partial "unknown subcommand \`frob\`"
	run "$AG_BIN" snapshots list --bogus
	assert_equal "$status" 2
	assert_output --partial "snapshots list: unknown option '--bogus' (see agentic-git snapshots list --help)"
	run "$AG_BIN" snapshots restore a b
	assert_equal "$status" 2
	assert_output --partial "snapshots restore: unexpected argument 'b' (at most one snapshot ref)"
	run "$AG_BIN" snapshots list --repo
	assert_equal "$status" 2
	assert_output --partial "snapshots list: needs a value: '--repo'"
	run "$AG_BIN" snapshots prune --older-than 7x
	assert_equal "$status" 2
	assert_output --partial '--older-than value "7x" must look like `<N>d`'
	run "$AG_BIN" snapshots list --agent ../x
	assert_equal "$status" 2
	AGENTIC_GIT_AGENT=a run "$AG_BIN" snapshots list --agent b
	assert_equal "$status" 2
	assert_output --partial "may only see its own snapshots"
	AGENTIC_GIT_AGENT="bad name" run "$AG_BIN" snapshots list
	assert_equal "$status" 2
	run "$AG_BIN" snapshots show
	assert_equal "$status" 2
	run "$AG_BIN" snapshots restore --staged --json
	assert_equal "$status" 2
	run "$AG_BIN" snapshots --help
	assert_success
	assert_output --partial "usage: agentic-git snapshots"
}

@test "restore: not our ref is 2, a missing snapshot or none at all is 1" {
	run "$AG_BIN" snapshots restore refs/heads/main
	assert_equal "$status" 2
	assert_output --partial "is not an agentic-git snapshot ref"
	run "$AG_BIN" snapshots restore refs/agentic-git/snapshots/noagent/20200101T000000Z-0-reset
	assert_equal "$status" 1
	assert_output --partial "no such snapshot"
	run "$AG_BIN" snapshots restore
	assert_equal "$status" 1
	assert_output --partial "no snapshots to restore from"
	run "$AG_BIN" snapshots list
	assert_success
	assert_output "(no snapshots)"
	cd "$T"
	run "$AG_BIN" snapshots list --repo "$T"
	assert_equal "$status" 1
	assert_output --partial "snapshots list:"
}

@test "nothing to lose: no snapshot, no ref, no event" {
	echo "SECRET=1" >.env
	echo ".env" >.git/info/exclude
	"$TEST_TOOL" snapshot "$REPO" reset
	"$TEST_TOOL" snapshot "$REPO" checkout
	run "$REAL_GIT" for-each-ref refs/agentic-git/
	assert_output ""
	assert_equal "$(events)" ""
	# but clean -x would delete the ignored file: that is something to lose
	"$TEST_TOOL" snapshot "$REPO" clean -fx
	run "$REAL_GIT" for-each-ref refs/agentic-git/
	assert_output --partial "-0-clean"
	[ ! -e .env ]
	run "$AG_BIN" snapshots restore
	assert_success
	[ "$(cat .env)" = "SECRET=1" ]
}

@test "staged-only work is saved, with the index as a second parent" {
	echo "staged" >>README.md
	"$REAL_GIT" add README.md
	"$REAL_GIT" checkout -q -- .
	echo "then edited" >>README.md
	"$TEST_TOOL" snapshot "$REPO" reset
	local ref
	ref=$(newest_ref reset)
	run "$AG_BIN" snapshots show "$ref"
	assert_success
	assert_output --partial "staged      "
	assert_output --partial "M	README.md"
	run "$REAL_GIT" show "$ref^2:README.md"
	assert_output "hello
staged"
}

@test "the snapshot commit: forced identity and date, metadata lines" {
	echo "x" >>README.md
	GIT_COMMITTER_DATE="1970-01-02T00:00:00Z" GIT_AUTHOR_NAME=evil \
		"$TEST_TOOL" snapshot "$REPO" reset
	local ref now
	ref=$(newest_ref reset)
	run "$REAL_GIT" log -1 --format='%an <%ae>|%cn <%ce>|%ct' "$ref"
	assert_output --regexp '^agentic-git <agentic-git@localhost>\|agentic-git <agentic-git@localhost>\|[0-9]+$'
	now=$(date +%s)
	[ $((now - ${output##*|})) -lt 120 ]
	run "$REAL_GIT" log -1 --format=%B "$ref"
	assert_line "reset snapshot"
	assert_line "Agentic-Snapshot-Op: reset"
	assert_line "Agentic-Snapshot-Agent: noagent"
	assert_line "Agentic-Snapshot-Worktree: $REPO"
	assert_line "Agentic-Snapshot-Head: $("$REAL_GIT" rev-parse HEAD)"
}

@test "show and diff say what a restore would bring back" {
	echo "precious line" >>README.md
	echo "new" >new.txt
	"$TEST_TOOL" snapshot "$REPO" reset
	"$REAL_GIT" reset -q --hard
	echo "created later" >later.txt
	local ref
	ref=$(newest_ref)
	run "$AG_BIN" snapshots show "$ref"
	assert_success
	assert_output --partial "taken "
	assert_output --partial "(before a \`reset\` operation)"
	assert_output --partial "worktree    $REPO"
	assert_line "M	README.md"
	assert_line "A	new.txt"
	run "$AG_BIN" snapshots diff "$ref"
	assert_success
	assert_output --partial "+precious line"
	assert_output --partial "new.txt"
	refute_output --partial "later.txt"
}

@test "prune: the TTL, per agent, quarantines included" {
	local head old1 old2
	head=$("$REAL_GIT" rev-parse HEAD)
	old1=refs/agentic-git/snapshots/noagent/20200101T000000Z-0-reset
	old2=refs/agentic-git/snapshots/ag2/20200101T000000Z-0-reset
	"$REAL_GIT" update-ref "$old1" "$head"
	"$REAL_GIT" update-ref "$old2" "$head"
	mkdir -p "$AGENTIC_GIT_HOME/quarantine/noagent/20200101T000000Z-0-clean/x"
	mkdir -p "$AGENTIC_GIT_HOME/quarantine/noagent/29990101T000000Z-0-clean"
	echo fresh >>README.md
	"$TEST_TOOL" snapshot "$REPO" reset
	# the automatic prune after a snapshot: the caller's old refs only
	run "$REAL_GIT" for-each-ref '--format=%(refname)' refs/agentic-git/
	refute_output --partial "$old1"
	assert_output --partial "$old2"
	[ ! -e "$AGENTIC_GIT_HOME/quarantine/noagent/20200101T000000Z-0-clean" ]
	[ -d "$AGENTIC_GIT_HOME/quarantine/noagent/29990101T000000Z-0-clean" ]
	# the command: another agent's, as the operator, --older-than 0d
	run "$AG_BIN" snapshots prune --agent ag2
	assert_success
	assert_line "pruned $old2"
	assert_line "1 snapshot ref(s) pruned"
	run "$AG_BIN" snapshots prune
	assert_success
	assert_output "0 snapshot ref(s) pruned"
	sleep 1
	run "$AG_BIN" snapshots prune --older-than 0d
	assert_success
	assert_line "1 snapshot ref(s) pruned"
	run "$REAL_GIT" for-each-ref refs/agentic-git/
	assert_output ""
}

@test "fail-open through the shim: a failed snapshot warns, logs, and the op runs" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo "work" >>README.md
	# a ref where the agent's snapshot directory must be: no snapshot ref
	# can be created under it
	"$REAL_GIT" update-ref refs/agentic-git/snapshots/ag1 HEAD
	run agit reset --hard
	assert_success
	assert_output --partial "agentic-git: warning — pre-op snapshot FAILED (git update-ref failed: "
	assert_output --partial "proceeding without a safety net"
	[ "$(tail -1 README.md)" = "hello" ]
	run sh -c "cat '$AGENTIC_GIT_HOME/fleet_events.jsonl' | jq -r 'select(.event == \"snapshot_failed\") | [.disposition, .agent, .subcommand] | join(\" \")'"
	assert_output "warn ag1 reset"
}

@test "an invalid agent name never reaches a ref or a path" {
	echo "work" >>README.md
	AGENTIC_GIT_AGENT="../x" run "$TEST_TOOL" snapshot "$REPO" reset
	assert_output --partial "pre-op snapshot FAILED (invalid agent name)"
	run "$REAL_GIT" for-each-ref refs/agentic-git/
	assert_output ""
}

@test "bypassed destructive ops are still snapshotted" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo "work" >>README.md
	AGENTIC_GIT_BYPASS=1 run agit reset --hard
	assert_success
	[ -n "$(newest_ref reset)" ]
}

@test "an unborn repository: untracked work is saved and restored" {
	"$REAL_GIT" init -q "$T/fresh"
	cd "$T/fresh"
	echo "first file" >a.txt
	"$TEST_TOOL" snapshot "$T/fresh" clean -f
	rm a.txt
	run "$AG_BIN" snapshots restore
	assert_success
	[ "$(cat a.txt)" = "first file" ]
	run "$AG_BIN" snapshots show "$(newest_ref)"
	assert_output --partial "head        (unborn)"
}
