#!/usr/bin/env bats
# What an agent may persist with git config is an allowlist, and nothing is
# written outside the repository (issue 18; PRODUCT.md §4): keys that name
# a program, a path git reads or another repository are refused even when
# the denylist does not know them; --file=<path> in its stuck form and
# `maintenance register` (which writes ~/.gitconfig) are refused.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	cd "$WT"
	CONFIG_BEFORE=$(cat "$REPO/.git/config")
	GLOBAL_BEFORE=$(cat "$HOME/.gitconfig")
}

untouched() {
	assert_equal "$(cat "$REPO/.git/config")" "$CONFIG_BEFORE"
	assert_equal "$(cat "$HOME/.gitconfig")" "$GLOBAL_BEFORE"
}

@test "keys outside the allowlist are refused, however harmless they look to a denylist" {
	for kv in "gpg.ssh.defaultKeyCommand evil" "help.autocorrect 1" "rebase.updateRefs true" \
		"submodule.recurse true" "commit.template /etc/passwd" "core.attributesFile $T/a" \
		"core.excludesFile $T/x" "transfer.fsckObjects false" "gc.pruneExpire now"; do
		# shellcheck disable=SC2086
		run agit config $kv
		assert_denied bound
		assert_output --partial "agents may persist only everyday repository options"
	done
	untouched
}

@test "everyday options persist as before" {
	for kv in "user.name Agent" "user.email a@example.com" "core.autocrlf input" \
		"branch.feat/a.rebase true" "pull.rebase true" "merge.conflictStyle diff3" \
		"rerere.enabled true" "color.ui auto" "advice.detachedHead false" "push.default simple"; do
		# shellcheck disable=SC2086
		run agit config $kv
		assert_success
	done
	assert_equal "$("$REAL_GIT" config merge.conflictStyle)" diff3
	run agit config --unset pull.rebase
	assert_success
}

@test "no config is written outside the repository" {
	run agit config --file="$T/elsewhere" user.name x
	assert_denied bound
	[ ! -e "$T/elsewhere" ]
	run agit config --glob user.name x
	assert_failure
	run agit maintenance register
	assert_denied bound
	assert_output --partial "maintenance"
	run agit maintenance start
	assert_denied bound
	untouched
	# reading stays free
	run agit config --get core.bare
	assert_success
	run agit config --file="$REPO/.git/config" --get core.bare
	assert_success
}

@test "submodule commands that write submodule.<name>.url into the shared config are refused" {
	"$REAL_GIT" init -q "$T/sub" && "$REAL_GIT" -C "$T/sub" commit -q --allow-empty -m s
	for cmd in "submodule add $T/sub lib" "submodule --quiet add $T/sub" "submodule init" \
		"submodule sync" "submodule set-url lib $T/x" "submodule deinit -f lib" \
		"submodule update --init" "submodule update -i"; do
		# shellcheck disable=SC2086
		run agit $cmd
		assert_denied bound
		assert_output --partial "submodule.<name>.url"
	done
	[ ! -e lib ]
	[ ! -e .gitmodules ]
	untouched
	# the submodules already set up still update
	run agit submodule update
	assert_success
}
