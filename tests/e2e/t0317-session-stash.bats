#!/usr/bin/env bats
# Per-session stash (issue 33; PRODUCT.md §5): an agent's `git stash`
# entries are its own (cmd/shim-stash.h): other agents can neither list,
# show, apply, pop nor drop them; the operator's refs/stash is left as it
# was; every change is journaled; pop and apply are snapshotted; eight
# agents at once lose no push.
load lib

setup() {
	ag_setup
	cd "$REPO"
	for a in a1 a2; do
		"$AG_BIN" run --agent "$a" --branch "feat/$a" -- true 2>/dev/null
	done
}

wt() { echo "$AGENTIC_GIT_HOME/worktrees/$1/feat/$1"; }

# as AGENT GIT...: the agent's git through the shim, in its worktree
as() {
	local a=$1
	shift
	run env -C "$(wt "$a")" PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT="$a" git "$@"
}

@test "an agent's stash is its own: another agent cannot list, show, apply, pop or drop it" {
	echo "a1 work" >>"$(wt a1)/README.md"
	as a1 stash push -m "a1 precious"
	assert_success
	[ -z "$("$REAL_GIT" -C "$(wt a1)" status --porcelain)" ]
	as a1 stash list
	assert_success
	assert_output "stash@{0}: On feat/a1: a1 precious"
	# the shared refs/stash holds nothing of it
	run "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/stash
	assert_failure
	as a2 stash list
	assert_success
	assert_output ""
	for verb in show apply pop drop; do
		as a2 stash "$verb"
		assert_failure
		assert_output --partial "no such entry in this session's stash"
		as a2 stash "$verb" "stash@{0}"
		assert_failure
	done
	[ -z "$("$REAL_GIT" -C "$(wt a2)" status --porcelain)" ]
	# a1 still has it, and pops it back
	as a1 stash show --name-only
	assert_success
	assert_output "README.md"
	as a1 stash pop
	assert_success
	assert_output --partial "Dropped stash@{0}"
	grep -q "a1 work" "$(wt a1)/README.md"
	as a1 stash list
	assert_output ""
}

@test "the operator's own stash is left as it was" {
	echo "operator wip" >>README.md
	"$REAL_GIT" stash push -q -m "operator's"
	local before
	before=$("$REAL_GIT" stash list --format='%H %gs')
	echo "a1 work" >>"$(wt a1)/README.md"
	as a1 stash
	assert_success
	assert_equal "$("$REAL_GIT" stash list --format='%H %gs')" "$before"
	as a1 stash list
	assert_output --partial "stash@{0}: WIP on feat/a1"
	refute_output --partial "operator's"
	as a1 stash clear
	assert_success
	assert_equal "$("$REAL_GIT" stash list --format='%H %gs')" "$before"
}

@test "every change of a session's stash is journaled; a drop that leaves others too" {
	local w
	w=$(wt a1)
	echo one >>"$w/README.md"
	as a1 stash push -m one
	echo two >>"$w/README.md"
	as a1 stash push -m two
	local older
	older=$("$REAL_GIT" -C "$w" rev-parse 'refs/worktree/agentic-git/stash@{1}')
	as a1 stash drop "stash@{1}"
	assert_success
	as a1 stash list
	assert_output "stash@{0}: On feat/a1: two"
	run bash -c "jq -c 'select(.event==\"ref_update\" and .ref==\"refs/worktree/agentic-git/stash\" and .stash==\"drop\")' '$AGENTIC_GIT_HOME/fleet_events.jsonl'"
	assert_equal "$(echo "$output" | jq -r .entry)" "$older"
	assert_equal "$(echo "$output" | jq -r .agent)" a1
	assert_equal "$(events | jq -r 'select(.ref=="refs/worktree/agentic-git/stash" and .stash=="push") | .agent' | sort -u)" a1
}

@test "stash pop and apply are snapshotted: the state before them can be restored" {
	local w snap
	w=$(wt a1)
	echo "stashed" >>"$w/README.md"
	as a1 stash push -m readme
	echo "draft" >"$w/draft.txt"
	for verb in apply pop; do
		as a1 stash "$verb"
		assert_success
		snap=$("$REAL_GIT" -C "$REPO" for-each-ref --sort=-refname --format='%(refname)' 'refs/agentic-git/snapshots/a1/*-stash' | head -1)
		[ -n "$snap" ]
		assert_equal "$("$REAL_GIT" -C "$REPO" show "$snap:draft.txt")" draft
		"$REAL_GIT" -C "$w" checkout -q -- README.md
	done
	assert_equal "$("$REAL_GIT" -C "$REPO" for-each-ref 'refs/agentic-git/snapshots/a1/*-stash' | wc -l)" 2
}

@test "eight agents stash at once: no push is lost, no agent holds another's entry" {
	local a i
	for i in 3 4 5 6 7 8; do
		"$AG_BIN" run --agent "a$i" --branch "feat/a$i" -- true 2>/dev/null
	done
	for i in 1 2 3 4 5 6 7 8; do
		(
			a=a$i
			w=$(wt "$a")
			for n in 1 2 3 4 5 6; do
				echo "$a $n" >>"$w/README.md"
				env -C "$w" PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT="$a" git stash push -q -m "$a-$n" || echo "FAIL $a push $n"
				if [ $((n % 2)) = 0 ]; then
					env -C "$w" PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT="$a" git stash drop -q || echo "FAIL $a drop $n"
				fi
			done
		) >"$T/out-a$i" 2>&1 &
	done
	wait
	for i in 1 2 3 4 5 6 7 8; do
		a=a$i
		run cat "$T/out-$a"
		refute_output --partial FAIL
		as "$a" stash list --format=%gs
		assert_success
		assert_equal "$output" "On feat/$a: $a-5
On feat/$a: $a-3
On feat/$a: $a-1"
	done
	run "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/stash
	assert_failure
}

@test "end keeps the session's stash in its snapshot; restore gives it back under its message" {
	echo "a1 work" >>"$(wt a1)/README.md"
	as a1 stash push -m "kept across end"
	"$AG_BIN" end --agent a1 --force >/dev/null
	local snap
	snap=$("$REAL_GIT" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/a1/*-end')
	[ -n "$snap" ]
	"$REAL_GIT" cat-file commit "$snap" | grep -q "^Agentic-Snapshot-Stash: "
	run "$AG_BIN" snapshots restore --repo "$REPO" --any-worktree "$snap"
	assert_success
	"$REAL_GIT" stash list | grep -q "On feat/a1: kept across end"
}

@test "stash store keeps a commit in the session's stash; bad input changes nothing" {
	local c
	c=$("$REAL_GIT" -C "$(wt a1)" rev-parse HEAD)
	as a1 stash store -m "by hand" "$c"
	assert_success
	as a1 stash list
	assert_output "stash@{0}: by hand"
	as a1 stash store
	assert_failure
	assert_output --partial "git stash store needs a commit"
	as a1 stash store nosuchcommit
	assert_failure
	as a1 stash drop stash@{0} stash@{1}
	assert_failure
	assert_output --partial "more than one stash entry named"
	as a1 stash drop HEAD
	assert_failure
	as a1 stash list
	assert_output "stash@{0}: by hand"
}

@test "a dropped entry comes back into the session's own stash, by the agent's restore" {
	echo "a1 work" >>"$(wt a1)/README.md"
	as a1 stash push -m "dropped by mistake"
	as a1 stash drop
	assert_success
	local snap
	snap=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/a1/*-stash')
	[ -n "$snap" ]
	run env -C "$(wt a1)" AGENTIC_GIT_AGENT=a1 "$AG_BIN" snapshots restore "$snap"
	assert_success
	as a1 stash list
	assert_output "stash@{0}: On feat/a1: dropped by mistake"
	run "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/stash
	assert_failure
	as a2 stash list
	assert_output ""
}
