#!/usr/bin/env bats
# Issue 32 point 4 (W8): `snapshots list/show/diff` print what an agent
# can put in a snapshot inert: the worktree path its message records (a
# forged one too), its file names, the content lines of the patch; the
# backslashes of a patch stay as they are; `list --json` is exact.
load lib
load snapshot-lib
load inert

setup() {
	snapshot_agent feat/a
}

# forge_snapshot WORKTREE: a snapshot ref of ag1 whose message records
# WORKTREE (what an agent can write into its own namespace); REF is set.
forge_snapshot() {
	local head c msg
	head=$("$REAL_GIT" rev-parse HEAD)
	msg="reset snapshot"$'\n\n'"Agentic-Snapshot-Op: reset"$'\n'"Agentic-Snapshot-Agent: ag1"$'\n'"Agentic-Snapshot-Worktree: $1"$'\n'"Agentic-Snapshot-Head: $head"
	c=$("$REAL_GIT" commit-tree "$head^{tree}" -p "$head" -m "$msg")
	REF=refs/agentic-git/snapshots/ag1/$(date -u +%Y%m%dT%H%M%SZ)-901-reset
	"$REAL_GIT" update-ref "$REF" "$c"
}

@test "list --all and show print a forged worktree path inert, --json exact" {
	forge_snapshot "/elsewhere/$HOSTILE"
	unset AGENTIC_GIT_AGENT
	run "$AG_BIN" snapshots list --all
	assert_success
	assert_shows "$output" "snapshots list --all"
	run "$AG_BIN" snapshots show "$REF"
	assert_success
	assert_shows "$output" "snapshots show"
	assert_output --partial "worktree    /elsewhere/$HOSTILE_SHOWN"
	run "$AG_BIN" snapshots list --all --json
	assert_success
	assert_equal "$(jq -r --arg r "$REF" '.[] | select(.ref == $r) | .worktree' <<<"$output")" "/elsewhere/$HOSTILE"
}

@test "show's changed names and diff's content lines are inert; backslashes kept" {
	local bidi_name=$'n\xe2\x80\xaetxt.exe'
	echo base >"$bidi_name"
	echo base >"e$HOSTILE"
	"$REAL_GIT" add -A
	"$REAL_GIT" -c core.hooksPath=/dev/null commit -qm names
	printf 'one %s\nprintf("a\\n");\n' "$HOSTILE" >"$bidi_name"
	echo changed >"e$HOSTILE"
	run agit reset --hard
	assert_success
	REF=$(newest_ref reset)
	[ -n "$REF" ]
	run "$AG_BIN" snapshots show "$REF"
	assert_success
	assert_inert "$output" "snapshots show"
	assert_output --partial $'M\tn\\u202etxt.exe'
	run "$AG_BIN" snapshots diff "$REF"
	assert_success
	assert_shows "$output" "snapshots diff"
	# a patch still reads as one: newlines, tabs and backslashes as they are
	assert_line '+printf("a\n");'
	assert_line "+one $HOSTILE_SHOWN"
}
