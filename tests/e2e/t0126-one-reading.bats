#!/usr/bin/env bats
# One reading of git's command line (issue 36; PRODUCT.md §2): the shim
# parses a command line once, against git's own option table, and every
# rule reads that parse. Two spellings git reads alike get one verdict,
# and a short destination git expands (DWIM) is judged as git expands it.
# The forms below were judged differently by two readers before.
load lib
load shimlib

setup() {
	ag_setup
	(
		cd "$REPO"
		"$REAL_GIT" branch master
	)
	ag_bind ag1 feat/a
	cd "$WT"
}

refs_now() { "$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname)'; }
upstream_of() { "$REAL_GIT" -C "$REPO" config --get "branch.$1.merge" || true; }

@test "branch --set-upstream-to <up> <protected> is denied like branch -u <up> <protected>" {
	"$REAL_GIT" -C "$REPO" branch feat/up main
	for form in "branch -u feat/up main" "branch --set-upstream-to feat/up main" \
		"branch --set-upstream-to=feat/up main" "branch -ufeat/up main" \
		"branch main --set-upstream-to feat/up" "branch --set-upstream-t feat/up main" \
		"branch --set-up feat/up main"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		assert_equal "$(upstream_of main)" ""
	done
	# the agent's own branch may track what it likes
	run agit branch --set-upstream-to feat/up feat/a
	assert_success
	assert_equal "$(upstream_of feat/a)" refs/heads/feat/up
}

@test "config -t bool <key> <value> is judged by its key, like --type bool" {
	for form in "config -t bool core.filemode false" "config --type bool core.filemode false" \
		"config --type=bool core.filemode false" "config -tbool core.filemode false"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_success
		refute_output --partial "key 'bool'"
	done
	assert_equal "$("$REAL_GIT" -C "$WT" config --get core.filemode)" false
	# and a dangerous key stays denied in every spelling
	for form in "config -t bool core.fsmonitor true" "config --type=bool core.fsmonitor true"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		assert_output --partial "core.fsmonitor"
	done
}

@test "fetch . <src>:heads/<protected> is judged as refs/heads/<protected> (git's DWIM)" {
	local before
	before=$(refs_now)
	for dst in heads/master refs/heads/master master heads/main; do
		run agit fetch . "feat/a:$dst"
		assert_denied bound
		assert_output --partial "protected ref"
	done
	assert_equal "$(refs_now)" "$before"
	# a remote-tracking destination is still fine
	run agit fetch . feat/a:remotes/self/feat-a
	assert_success
}

@test "fetch --prune with a destination pattern over the snapshot namespace is denied" {
	echo "work" >>README.md
	AGENTIC_GIT_SNAPSHOTS=1 agit reset -q --hard
	local snaps
	snaps=$("$REAL_GIT" -C "$REPO" for-each-ref 'refs/agentic-git/')
	[ -n "$snaps" ]
	for spec in 'refs/tags/none*:refs/agentic-git*' 'refs/tags/none*:refs/agentic*' \
		'refs/tags/*:refs/*' 'refs/tags/none*:agentic-git/snapshots/*'; do
		run agit fetch --prune . "$spec"
		assert_denied bound
		assert_equal "$("$REAL_GIT" -C "$REPO" for-each-ref 'refs/agentic-git/')" "$snaps"
	done
}
