#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The quarantine survives the cage (issue 33; PRODUCT.md §5): inside
# either sandbox, what `git clean -x` deletes and no snapshot can hold
# (an ignored .env) goes to a quarantine on storage that outlives the
# cage and is the session's own, and `snapshots restore` brings it back
# as it does unsandboxed. What the cage leaves there is trusted for
# nothing: a planted link is never followed.
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin"
	echo ".env" >"$REPO/.gitignore"
	"$REAL_GIT" -C "$REPO" add .gitignore
	"$REAL_GIT" -C "$REPO" commit -qm ignore
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	case $2 in
	clean)
		printf 'API_KEY=s3cret\n' >.env
		echo "draft" >notes.txt
		git clean -fdxq && echo "CLEANED:ok"
		[ -e .env ] && echo "ENV:still-there"
		echo "QUARANTINE:$AGENTIC_GIT_QUARANTINE"
		;;
	plant)
		# what a hostile agent leaves in its own quarantine
		q=$AGENTIC_GIT_QUARANTINE
		mkdir -p "$q/a1"
		ln -s "$3" "$q/a1/$4"
		echo "PLANTED:ok"
		;;
	esac
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

use_backend() {
	sbx_scripted_config "$1"
	WS=$AGENTIC_GIT_HOME/worktrees/a1/feat/x
}

agent() {
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt "$*"
}

case_clean_comes_back() {
	use_backend "$1"
	agent clean
	assert_success
	assert_output --partial "CLEANED:ok"
	refute_output --partial "ENV:still-there"
	[ ! -e "$WS/.env" ]
	# the quarantine is on the home's storage, not the cage's
	local q
	q=$(echo "$output" | sed -n 's/^QUARANTINE://p')
	[[ $q == "$AGENTIC_GIT_HOME/quarantine/a1/"*-cage-*/quarantine ]]
	[ -d "$q" ]
	run env -u AGENTIC_GIT_AGENT "$AG_BIN" snapshots restore --repo "$WS" --since 1h
	assert_success
	assert_equal "$(cat "$WS/.env")" "API_KEY=s3cret"
	assert_equal "$(cat "$WS/notes.txt")" "draft"
}

@test "bwrap: clean -fdx in the cage, and restore brings .env back" {
	case_clean_comes_back bwrap
}

@test "landlock: clean -fdx in the cage, and restore brings .env back" {
	case_clean_comes_back landlock
}

case_planted_link() {
	use_backend "$1"
	agent clean
	assert_success
	local ref id
	ref=$(env -u AGENTIC_GIT_AGENT "$AG_BIN" snapshots list --repo "$WS" --json | jq -r '.[] | select(.op=="clean") | .ref')
	id=${ref##*/}
	# the quarantine replaced with a link to the operator's files, even
	# ones at a path of the right shape: restore takes nothing through it
	local op=$T/operator/quarantine/a1/$id q
	mkdir -p "$op"
	echo "operator secret" >"$op/key"
	q=$("$REAL_GIT" -C "$WS" cat-file commit "$ref" | sed -n 's/^Agentic-Snapshot-Quarantine: //p')
	[ -d "$q" ]
	rm -rf "$q"
	ln -s "$op" "$q"
	rm -f "$WS/.env"
	run env -u AGENTIC_GIT_AGENT "$AG_BIN" snapshots restore --repo "$WS" "$ref"
	assert_success
	[ ! -e "$WS/key" ]
	assert_equal "$(cat "$op/key")" "operator secret"
	[ -L "$q" ]
}

@test "bwrap: a link planted as a quarantine is never followed by restore" {
	case_planted_link bwrap
}

@test "landlock: a link planted as a quarantine is never followed by restore" {
	case_planted_link landlock
}
