#!/usr/bin/env bats
# agentic-git never runs the agent's code (issue 19; PRODUCT.md §4
# "agentic-git's own git"): config an agent planted in its worktree — in
# the repository's shared config or in the worktree's own config.worktree
# — never runs when the operator's agentic-git works there: sessions,
# snapshots list/show/diff/restore, end and end --force. The control shows
# each plant is live for plain git.
load lib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	export AGENTIC_GIT_SNAPSHOTS=1
	MARK=$T/marks
	mkdir -p "$MARK" "$T/evil-hooks"
	for h in pre-commit post-checkout reference-transaction pre-auto-gc post-index-change; do
		printf '#!/bin/sh\ntouch %s/hook-%s\n' "$MARK" "$h" >"$T/evil-hooks/$h"
		chmod +x "$T/evil-hooks/$h"
	done
	printf '#!/bin/sh\ntouch %s/$1\ncat\n' "$MARK" >"$T/evil"
	chmod +x "$T/evil"
	# work to snapshot and restore: tracked, untracked, an attribute
	echo "edit" >>"$WT/README.md"
	echo "new" >"$WT/new.txt"
	printf '* filter=evil diff=evil\n' >"$WT/.gitattributes"
	(cd "$WT" && PATH="$AGENTIC_GIT_HOME/bin:$PATH" git reset -q --hard)
	echo "edit again" >>"$WT/README.md"
	REF=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/ag1/*-reset')
	[ -n "$REF" ]
	# the plants, written as the agent could (it can write these files)
	plant "$REPO/.git/config"
	"$REAL_GIT" -C "$REPO" config extensions.worktreeConfig true
	plant "$("$REAL_GIT" -C "$WT" rev-parse --git-dir)/config.worktree"
	unset AGENTIC_GIT_AGENT # from here on: the operator
}

plant() { # config file
	local f=$1
	git config -f "$f" core.fsmonitor "$T/evil fsmonitor"
	git config -f "$f" core.hooksPath "$T/evil-hooks"
	git config -f "$f" core.sshCommand "$T/evil ssh"
	git config -f "$f" core.pager "$T/evil pager"
	git config -f "$f" diff.external "$T/evil diff-external"
	git config -f "$f" filter.evil.clean "$T/evil filter-clean"
	git config -f "$f" filter.evil.smudge "$T/evil filter-smudge"
	git config -f "$f" filter.evil.required true
	git config -f "$f" diff.evil.textconv "$T/evil textconv"
	git config -f "$f" uploadpack.packObjectsHook "$T/evil upload-pack"
}

no_marks() {
	run ls -A "$MARK"
	assert_output ""
}

@test "control: each plant runs when plain git works in the worktree" {
	(cd "$WT" && "$REAL_GIT" status >/dev/null 2>&1; "$REAL_GIT" add -A >/dev/null 2>&1) || true
	[ -e "$MARK/fsmonitor" ]
	[ -e "$MARK/filter-clean" ]
}

@test "sessions and snapshots list/show/diff run none of the agent's config" {
	run "$AG_BIN" sessions
	assert_success
	run "$AG_BIN" snapshots list --repo "$WT"
	assert_success
	assert_output --partial -- "-reset"
	run "$AG_BIN" snapshots show --repo "$WT" "$REF"
	assert_success
	run "$AG_BIN" snapshots diff --repo "$WT" "$REF"
	assert_success
	no_marks
}

@test "the operator's restore into the agent's worktree runs none of its config" {
	run "$AG_BIN" snapshots restore --repo "$WT" "$REF"
	assert_success
	assert_equal "$(tail -1 "$WT/README.md")" edit
	[ -f "$WT/new.txt" ]
	no_marks
}

@test "end --force snapshots and removes the worktree running none of its config" {
	run "$AG_BIN" end --agent ag1
	assert_failure 1
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	[ ! -e "$WT" ]
	no_marks
	# the snapshot still holds the work, the .gitattributes included
	ref=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/ag1/*-end')
	[ "$("$REAL_GIT" -C "$REPO" -c filter.evil.smudge=cat show "$ref:README.md" | tail -1)" = "edit again" ]
}

@test "one scrub list: every repository variable git knows is removed from our git" {
	# what git itself calls its repository variables (rev-parse
	# --local-env-vars) is a subset of what agentic-git's runner removes
	local missing="" v
	for v in $("$REAL_GIT" rev-parse --local-env-vars); do
		"$TEST_TOOL" gitcmd-scrubs "$v" || missing="$missing $v"
	done
	assert_equal "$missing" ""
}
