#!/usr/bin/env bats
# The five push guards (reference §3.9, docs/policy.md "Push guards") against
# a real bare origin.
load lib
load shimlib

setup() {
	ag_setup
	push_fixture
}

@test "a legitimate push succeeds and updates origin" {
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
	commit_file "$WT" more.txt
	run agit push -q origin HEAD
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	commit_file "$WT" again.txt
	run agit push -q origin HEAD:feat/a
	assert_success
	run agit push -q origin refs/heads/feat/a:refs/heads/feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	assert_no_deny_events
}

@test "push -u then a bare git push works; from the canonical checkout too" {
	run agit push -q -u origin feat/a
	assert_success
	commit_file "$WT" more.txt
	run agit push -q
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	commit_file "$WT" more2.txt
	cd "$REPO"
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	assert_equal "$(origin_sha main)" "$(head_of "$REPO")"
}

@test "bulk pushes and their prefixes are denied" {
	local f
	for f in --all --mirror --prune --branches --a --al --mir --mirr --pru --bra; do
		run agit push "$f" origin
		assert_push_denied deny_protected_ref
		assert_output --partial "bulk push '$f'"
	done
	run agit push origin --all
	assert_push_denied deny_protected_ref
}

@test "snapshot namespace: a ref under refs/agentic-git/ cannot be pushed" {
	local snap
	snap=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p HEAD -m "agentic-git snapshot")
	"$REAL_GIT" update-ref refs/agentic-git/snapshots/ag1/20261129T000000Z-0-reset "$snap"
	run agit push origin refs/agentic-git/snapshots/ag1/20261129T000000Z-0-reset:refs/heads/feat/a
	assert_push_denied deny_snapshot_ref_push
	assert_output --partial "SNAPSHOT_REF_PUSH"
	run agit push origin 'refs/agentic-git/*:refs/agentic-git/*'
	assert_push_denied deny_snapshot_ref_push
	run agit push origin HEAD:refs/agentic-git/snapshots/ag1/x
	assert_push_denied deny_snapshot_ref_push
}

@test "snapshot namespace: a raw sha or a laundered branch of a snapshot is denied" {
	local snap
	snap=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p HEAD -m "agentic-git snapshot")
	"$REAL_GIT" update-ref refs/agentic-git/snapshots/ag1/s1 "$snap"
	run agit push origin "$snap:refs/heads/feat/a"
	assert_push_denied deny_snapshot_ref_push
	assert_output --partial "SNAPSHOT_REF_PUSH"
	"$REAL_GIT" branch laundered "$snap"
	run agit push origin laundered:feat/a
	assert_push_denied deny_snapshot_ref_push
	run agit push origin "laundered~0:feat/a"
	assert_push_denied deny_snapshot_ref_push
	# the agent's own commits still push while snapshots exist
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

@test "bare force in every spelling is denied; the message has the lease retry line" {
	"$REAL_GIT" push -q origin feat/a
	ORIGIN_REFS=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	"$REAL_GIT" commit -q --amend -m rewritten
	local f
	for f in -f --force -uf -fu -qf; do
		run agit push "$f" origin feat/a
		assert_push_denied deny_force_no_lease
		assert_output --partial "bare force-push denied"
		assert_output --partial "force-with-lease"
		assert_output --partial "git fetch origin feat/a && git push --force-with-lease origin feat/a"
	done
	run agit push origin +feat/a
	assert_push_denied deny_force_no_lease
	run agit push origin +HEAD:feat/a
	assert_push_denied deny_force_no_lease
	run agit push --force
	assert_push_denied deny_force_no_lease
	assert_output --partial "git push --force-with-lease <remote> <branch>"
	# a bare force overrides a lease given beside it
	run agit push --force-with-lease --force origin feat/a
	assert_push_denied deny_force_no_lease
}

@test "--force-with-lease and --force-if-includes are allowed and rewrite origin" {
	"$REAL_GIT" push -q origin feat/a
	"$REAL_GIT" commit -q --amend -m rewritten
	run agit push -q --force-with-lease origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	"$REAL_GIT" commit -q --amend -m rewritten-again
	run agit push -q --force-with-lease=feat/a --force-if-includes origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
}

@test "-o values are never force or refspecs" {
	"$REAL_GIT" -C "$ORIGIN" config receive.advertisePushOptions true
	run agit push -q -o+force origin feat/a
	assert_success
	commit_file "$WT" more.txt
	run agit push -q --push-option main origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	assert_equal "$(origin_sha main)" "$(head_of "$REPO")"
}

@test "deletes are denied, ALL-not-ANY: a mixed delete + force stays gated" {
	run agit push origin :other
	assert_push_denied deny_cross_branch_push
	assert_output --partial "another agent's branch"
	run agit push origin --delete other
	assert_push_denied deny_cross_branch_push
	run agit push -d origin feat/a
	assert_push_denied deny_cross_branch_push
	run agit push origin :feat/a
	assert_push_denied deny_cross_branch_push
	assert_output --partial "your own task branch"
	run agit push -f origin :other feat/a
	assert_push_denied deny_force_no_lease
	run agit push origin +feat/a :other
	assert_push_denied deny_force_no_lease
	run agit push origin feat/a :other
	assert_push_denied deny_cross_branch_push
	[ "$(origin_sha other)" = "$("$REAL_GIT" -C "$REPO" rev-parse other)" ]
}

@test "cross-branch destinations are denied, HEAD:other included" {
	run agit push origin feat/a:other
	assert_push_denied deny_cross_branch_push
	assert_output --partial "cross-branch push"
	assert_output --partial "bound to 'feat/a'"
	run agit push origin HEAD:other
	assert_push_denied deny_cross_branch_push
	run agit push origin other
	assert_push_denied deny_cross_branch_push
	run agit push origin HEAD:refs/heads/feat/b
	assert_push_denied deny_cross_branch_push
	run agit push origin feat/a HEAD:other
	assert_push_denied deny_cross_branch_push
	run agit push origin 'refs/heads/*:refs/heads/*'
	assert_push_denied deny_protected_ref
}

@test "protected destinations are denied in every spelling" {
	local spec
	for spec in main HEAD:main HEAD:refs/heads/main HEAD:Main feat/a:master; do
		run agit push origin "$spec"
		assert_push_denied deny_protected_ref
		assert_output --partial "protected ref"
	done
	run agit push origin +HEAD:main
	assert_equal "$status" 1
	origin_unchanged
}

@test "tags are allowed" {
	"$REAL_GIT" tag v1
	"$REAL_GIT" tag v2
	run agit push -q origin refs/tags/v1
	assert_success
	run agit push -q origin tag v2
	assert_success
	"$REAL_GIT" tag v3
	run agit push -q --tags origin
	assert_success
	run "$REAL_GIT" -C "$ORIGIN" tag
	assert_output $'v1\nv2\nv3'
}

@test "pushing from a foreign repository is denied" {
	"$REAL_GIT" init -q "$T/scratch"
	commit_file "$T/scratch" f.txt
	"$REAL_GIT" -C "$T/scratch" remote add origin "$ORIGIN"
	cd "$T/scratch"
	run agit push origin HEAD:feat/a
	assert_push_denied deny_cross_branch_push
}

@test "HEAD drifted off the assigned branch: a bare push is denied" {
	"$REAL_GIT" checkout -q --detach
	run agit push origin
	assert_push_denied deny_cross_branch_push
	assert_output --partial "(detached)"
}

trust_root_denied() {
	local path=$1
	commit_file "$WT" "$path"
	run agit push origin HEAD
	assert_push_denied deny_trust_root
	assert_output --partial "trust-root file"
	assert_output --partial "$path"
	"$REAL_GIT" reset -q --hard HEAD~1
}

@test "trust-root files at any depth are denied (pushed via HEAD)" {
	trust_root_denied .config-integrity-key
	trust_root_denied policy.toml
	trust_root_denied fleet.yaml
	trust_root_denied fleet_events.jsonl
	trust_root_denied deep/er/x.jsonl
	trust_root_denied conf/policy.toml
	trust_root_denied a/b/c/fleet.yaml
}

@test "a trust-root file added then removed in the range is still denied" {
	commit_file "$WT" fleet.yaml
	"$REAL_GIT" rm -q fleet.yaml
	"$REAL_GIT" commit -q -m "remove it again"
	run agit push origin feat/a
	assert_push_denied deny_trust_root
}

@test "near misses are allowed and pushed" {
	commit_file "$WT" fleet.yaml.bak
	commit_file "$WT" notes.json
	commit_file "$WT" policy.toml.example
	commit_file "$WT" fleet.yml
	commit_file "$WT" policy.rs
	commit_file "$WT" jsonl/readme.md
	run agit push -q origin HEAD
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
}

@test "a laundered other:feat/a refspec is scanned from its source" {
	# build 'laundered' = feat/a + fleet.yaml without touching the worktree
	local blob tree commit
	blob=$(echo "evil" | "$REAL_GIT" hash-object -w --stdin)
	GIT_INDEX_FILE=$T/launder.idx "$REAL_GIT" read-tree feat/a
	GIT_INDEX_FILE=$T/launder.idx "$REAL_GIT" update-index --add --cacheinfo "100644,$blob,fleet.yaml"
	tree=$(GIT_INDEX_FILE=$T/launder.idx "$REAL_GIT" write-tree)
	commit=$("$REAL_GIT" commit-tree "$tree" -p feat/a -m launder)
	"$REAL_GIT" branch laundered "$commit"
	run agit push origin laundered:feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "fleet.yaml"
	run agit push origin "$commit:refs/heads/feat/a"
	assert_push_denied deny_trust_root
	# HEAD itself is clean and pushes
	run agit push -q origin HEAD:feat/a
	assert_success
}

@test "a trust-root file already on the remote is not in the range" {
	commit_file "$REPO" config/fleet.yaml
	"$REAL_GIT" -C "$REPO" push -q origin main
	"$REAL_GIT" merge -q --no-edit main
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
}

@test "master-default repository: no false block" {
	(
		cd "$REPO"
		"$REAL_GIT" branch -m main master
		"$REAL_GIT" push -q origin master
		"$REAL_GIT" -C "$ORIGIN" symbolic-ref HEAD refs/heads/master
		"$REAL_GIT" push -q origin :main
		"$REAL_GIT" remote set-head origin master
		"$REAL_GIT" fetch -q --prune origin
	)
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

@test "repository with both main and master and no origin/HEAD: no false block" {
	(
		cd "$REPO"
		"$REAL_GIT" push -q origin main:master
		"$REAL_GIT" remote set-head origin -d
		"$REAL_GIT" fetch -q origin
	)
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

@test "a remote not named origin works, and is scanned" {
	"$REAL_GIT" init -q --bare "$T/up.git"
	"$REAL_GIT" -C "$REPO" remote add upstream "$T/up.git"
	run agit push -q upstream feat/a
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/up.git" rev-parse feat/a)" "$WT_HEAD"
	commit_file "$WT" x.jsonl
	run agit push upstream feat/a
	assert_denied bound
	assert_last_event deny_trust_root push
}

@test "push.default=upstream to another name is denied with no refspec, in config or -c" {
	run agit branch --set-upstream-to=origin/main
	assert_success
	"$REAL_GIT" config push.default upstream
	run agit push
	assert_push_denied deny_protected_ref
	assert_output --partial "would update 'refs/heads/main'"
	run agit push origin
	assert_push_denied deny_protected_ref
	"$REAL_GIT" config --unset push.default
	run agit -c push.default=upstream push
	assert_denied bound
	origin_unchanged
	run agit -c push.default=tracking push
	assert_denied bound
	origin_unchanged
	# naming the branch is fine
	run agit push -q origin HEAD:feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

@test "push.default=upstream to the same name, current and simple push the own branch" {
	"$REAL_GIT" push -q origin feat/a
	run agit branch --set-upstream-to=origin/feat/a
	assert_success
	for mode in upstream current simple; do
		commit_file "$WT" "m-$mode.txt"
		"$REAL_GIT" config push.default "$mode"
		run agit push -q
		assert_success
		assert_equal "$(origin_sha feat/a)" "$("$REAL_GIT" rev-parse HEAD)"
	done
}

@test "a remote.<name>.push refspec or an unknown push.default in the config denies a bare push" {
	"$REAL_GIT" config remote.origin.push HEAD:refs/heads/main
	run agit push origin
	assert_push_denied deny_protected_ref
	assert_output --partial "remote.<name>.push"
	run agit push
	assert_push_denied deny_protected_ref
	"$REAL_GIT" config --unset remote.origin.push
	"$REAL_GIT" config push.default sideways
	run agit push origin
	assert_push_denied deny_trust_root
	assert_output --partial "malformed value for push.default: sideways"
}

@test "a tag named short is denied with the full name as the way out, which works" {
	run agit tag v1
	assert_success
	run agit push origin v1
	assert_push_denied deny_cross_branch_push
	assert_output --partial "git push origin refs/tags/v1"
	run agit push -q origin refs/tags/v1
	assert_success
	assert_equal "$("$REAL_GIT" -C "$ORIGIN" rev-parse v1)" "$WT_HEAD"
}

@test "push.default=matching with no refspec is denied; a named branch is fine" {
	"$REAL_GIT" config push.default matching
	run agit push
	assert_push_denied deny_protected_ref
	assert_output --partial "would update 'refs/heads/main'"
	run agit push origin
	assert_push_denied deny_protected_ref
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

# The push window (docs/policy.md "Push guards"): another process moves the
# branch after the guard scanned it and before git's own push reads it.
# Deterministic: every git process reads ~/.gitconfig, which includes a
# FIFO; the process serving it moves the branch when the reader is the
# real push (real git's push, not the guard's dry run), before that push
# reads any ref.
@test "a branch moved between the guard's scan and the real push: the moved commit is not pushed" {
	local evil fifo=$T/cfg.fifo server moved=$T/moved
	evil=$("$REAL_GIT" -C "$WT" commit-tree -p HEAD -m "adds fleet.yaml" \
		"$(printf '100644 blob %s\tfleet.yaml\n' \
			"$(echo 'agents: []' | "$REAL_GIT" -C "$WT" hash-object -w --stdin)" |
			"$REAL_GIT" -C "$WT" mktree)")
	mkfifo "$fifo"
	(
		while :; do
			exec 3>"$fifo" # blocks until a git opens it
			# every git's command line, in one process (a fork a
			# process made this test take a minute)
			pgrep -af -- "$REAL_GIT " | grep -F -- ' push ' |
				grep -qvF -- '--dry-run' &&
				[ ! -e "$moved" ] &&
				HOME=$T/nohome "$REAL_GIT" -C "$WT" update-ref refs/heads/feat/a "$evil" &&
				touch "$moved"
			exec 3>&-
		done
	) &
	server=$!
	printf '[include]\n\tpath = %s\n' "$fifo" >>"$HOME/.gitconfig"
	run agit push -q origin feat/a
	sed -i '/^\[include\]/,$d' "$HOME/.gitconfig"
	kill "$server"
	echo "push: $status $output"
	[ -e "$moved" ] || fail "the branch was never moved: the test proves nothing"
	assert_equal "$(head_of "$WT")" "$evil"
	assert_failure
	assert_output --partial "which the push guard did not scan"
	[ "$(origin_sha feat/a)" != "$evil" ]
	run "$REAL_GIT" -C "$ORIGIN" cat-file -e "$evil"
	assert_failure
}

@test "a push past the guard from an agent's worktree is refused by the session's pre-push hook" {
	# a session's worktree names the session hooks (docs/audit.md)
	"$REAL_GIT" -C "$WT" config core.hooksPath "$AGENTIC_GIT_HOME/hooks"
	run agit push -q origin feat/a # the guard writes the missing stubs
	assert_success
	[ -x "$AGENTIC_GIT_HOME/hooks/pre-push" ]
	commit_file "$WT" more.txt
	run "$REAL_GIT" push -q origin feat/a
	assert_failure
	assert_output --partial "goes through the push guard"
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
	# --no-verify cannot switch the pinning off through the shim
	run agit push -q --no-verify origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
}

@test "a push that cannot be pinned (the session hooks cannot be installed) is denied and pushes nothing" {
	rm -rf "$AGENTIC_GIT_HOME/hooks"
	echo "not a directory" >"$AGENTIC_GIT_HOME/hooks"
	run agit push -q origin feat/a
	assert_failure
	assert_output --partial "cannot be pinned to what the guard scanned"
	origin_unchanged
}
