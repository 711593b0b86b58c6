#!/usr/bin/env bats
# Issue 37 point 3, retention for the fleet: `snapshots prune --policy`
# applies config.yaml's snapshots: policy to every agent's snapshots,
# finished sessions included, and to the quarantine; never the newest
# snapshot of a live session (git/snapshot-retain.h).
load lib
load snapshot-lib

setup() {
	ag_setup
	ag_bind_two # ag2 on feat/b in $WT2, ag1 on feat/a in $WT
	export AGENTIC_GIT_SNAPSHOTS=1
}

# snaps AGENT DIR N: N snapshots by AGENT in DIR
snaps() {
	local i
	for i in $(seq 1 "$3"); do
		echo "edit $i" >>"$2/README.md"
		(cd "$2" && AGENTIC_GIT_AGENT=$1 agit reset -q --hard)
	done
}

refs_of() {
	"$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' "refs/agentic-git/snapshots/$1/"
}

prune_policy() {
	(unset AGENTIC_GIT_AGENT; "$AG_BIN" snapshots prune --policy --repo "$REPO")
}

@test "t0331: a finished session's snapshots are pruned by the per-worktree count" {
	snaps ag2 "$WT2" 4
	snaps ag1 "$WT" 1
	before=$(refs_of ag2)
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag2" # its session finished
	printf 'snapshots:\n  keep_per_worktree: 2\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run prune_policy
	assert_success
	assert_output --partial "2 snapshot ref(s) pruned"
	# the two newest of ag2's work tree stay, ag1's one too
	[ "$(refs_of ag2)" = "$(echo "$before" | tail -n2)" ]
	[ "$(refs_of ag1 | wc -l)" -eq 1 ]
}

@test "t0331: by age, the newest snapshot of a live session is kept, a finished one's goes, with its quarantine" {
	snaps ag2 "$WT2" 1
	c=$("$REAL_GIT" -C "$REPO" rev-parse "$(refs_of ag2)")
	old=20200101T000000Z-0-reset
	"$REAL_GIT" -C "$REPO" update-ref "refs/agentic-git/snapshots/ag1/$old" "$c"
	"$REAL_GIT" -C "$REPO" update-ref "refs/agentic-git/snapshots/ag2/$old" "$c"
	mkdir -p "$AGENTIC_GIT_HOME/quarantine/ag1/$old" "$AGENTIC_GIT_HOME/quarantine/ag2/$old"
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag2"
	run prune_policy
	assert_success
	assert_output --partial "pruned refs/agentic-git/snapshots/ag2/$old"
	refute_output --partial "ag1/$old"
	# ag1 is live: its only (old) snapshot and its quarantine stay
	[ "$(refs_of ag1)" = "refs/agentic-git/snapshots/ag1/$old" ]
	[ -d "$AGENTIC_GIT_HOME/quarantine/ag1/$old" ]
	[ ! -e "$AGENTIC_GIT_HOME/quarantine/ag2/$old" ]
	# ag2's recent snapshot stays
	[ "$(refs_of ag2 | wc -l)" -eq 1 ]
	# once a newer one exists, the old one goes (here the agent's own
	# TTL prune after its snapshot takes it already; the policy agrees)
	snaps ag1 "$WT" 1
	run prune_policy
	assert_success
	[ "$(refs_of ag1 | grep -c "$old")" -eq 0 ]
	[ "$(refs_of ag1 | wc -l)" -eq 1 ]
}

@test "t0331: prune --policy is the operator's; a bad policy changes nothing" {
	snaps ag2 "$WT2" 2
	run env AGENTIC_GIT_AGENT=ag1 "$AG_BIN" snapshots prune --policy --repo "$WT"
	[ "$status" -eq 2 ]
	assert_output --partial "the operator's"
	printf 'snapshots:\n  keep_per_worktree: -1\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run prune_policy
	[ "$status" -eq 1 ]
	assert_output --partial "snapshots.keep_per_worktree"
	printf 'snapshots:\n  keep_forever: 1\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run prune_policy
	[ "$status" -eq 1 ]
	[ "$(refs_of ag2 | wc -l)" -eq 2 ]
}
