#!/usr/bin/env bats
# Snapshots are private where the docs say so (issue 32, point 5;
# docs/snapshots.md "Who sees what"): through the shim an agent cannot name
# another agent's snapshot refs, nor list them; its own stay readable.
# What a shim cannot hide — the repository's files read directly, an
# object read by its id — is the sandbox's to hide (t0640).
load lib
load shimlib

setup() {
	ag_setup
	export AGENTIC_GIT_SNAPSHOTS=1
	ag_bind_two
	# ag2 loses work and is snapshotted; so is ag1
	(cd "$WT2" && echo "ag2's secret" >secret.txt && AGENTIC_GIT_AGENT=ag2 agit clean -qf)
	echo "ag1's own" >>"$WT/README.md"
	(cd "$WT" && agit reset -q --hard)
	REF2=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag2/)
	REF1=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	[ -n "$REF2" ] && [ -n "$REF1" ]
	export REF1 REF2
	cd "$WT"
}

@test "another agent's snapshot cannot be named, in any spelling or command" {
	local short=${REF2#refs/}
	for form in "show $REF2:secret.txt" "show $short:secret.txt" "log $REF2" \
		"log --oneline main..$REF2" "log ^main $REF2~0" "cat-file -p $REF2:secret.txt" \
		"rev-parse $REF2" "diff HEAD $REF2" "archive --format=tar $REF2" \
		"for-each-ref --points-at $REF2" "branch copy $REF2" "show-ref --verify $REF2" \
		"checkout $REF2 -- secret.txt" "fetch . $REF2:refs/heads/copy" "ls-tree $REF2"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		assert_output --partial "another agent's snapshot"
		refute_output --partial "ag2's secret"
	done
	# found by an attacker's pass: a message search over every ref, and an
	# upstream set for one command
	for form in "show :/clean" "checkout :/clean -- secret.txt" \
		"-c branch.feat/a.remote=. -c branch.feat/a.merge=$REF2 show @{u}:secret.txt"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		assert_output --partial "another agent's snapshot"
		refute_output --partial "ag2's secret"
	done
	run env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=branch.feat/a.merge \
		GIT_CONFIG_VALUE_0="$REF2" PATH="$AGENTIC_GIT_HOME/bin:$PATH" \
		git -c branch.feat/a.remote=. show '@{u}:secret.txt'
	assert_denied bound
	refute_output --partial "ag2's secret"
	# an unbound agent neither
	rm "$AGENTIC_GIT_HOME/runtime/ag1/binding.json"
	run agit show "$REF2:secret.txt"
	assert_denied unbound
	refute_output --partial "ag2's secret"
}

@test "listings that would reach another agent's snapshots are denied or narrowed" {
	for form in "for-each-ref" "for-each-ref refs/" "for-each-ref refs/agentic-git" \
		"for-each-ref refs/agentic-git/snapshots/" "for-each-ref refs/agentic-git/snapshots/ag2" \
		"for-each-ref refs/**" "show-ref" "show-ref --head" "log --glob=refs/agentic-git/*" \
		"rev-parse --glob=agentic-git/snapshots" "log --glob refs/*"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		refute_output --partial "$REF2"
	done
	# --all is narrowed to everything but the snapshot namespace
	run agit log --all --format=%s
	assert_success
	refute_output --partial "snapshot"
	run agit rev-parse --all
	assert_success
	refute_output --partial "$("$REAL_GIT" -C "$REPO" rev-parse "$REF2")"
	# listings that cannot reach them pass
	run agit for-each-ref refs/heads refs/tags
	assert_success
	assert_output --partial refs/heads/feat/a
	run agit show-ref --heads
	assert_success
}

@test "an agent's own snapshots stay readable" {
	run agit show "$REF1" --stat
	assert_success
	run agit for-each-ref refs/agentic-git/snapshots/ag1/
	assert_success
	assert_output --partial "$REF1"
	run agit log --oneline --glob='refs/agentic-git/snapshots/ag1/*'
	assert_success
	assert_output --partial "snapshot"
	run agit show-ref "${REF1#refs/agentic-git/snapshots/}"
	assert_success
}
