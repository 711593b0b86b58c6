#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Private workspaces: a fresh repository that borrows the operator's
# objects read-only, with its own config and hooks and the real origin.
load lib
load sandbox_cases

setup() {
	sbx_setup
	sbx_feature_repo
}

ws_create() {
	run "$AG_BIN" sandbox workspace --from "$REPO" "$@"
}

@test "workspace borrows objects, points origin at the real remote, disables hooks" {
	"$REAL_GIT" -C "$REPO" config user.name "Op Erator"
	"$REAL_GIT" -C "$REPO" config user.email "op@example.com"
	ws_create --head feat --base main "$T/pws"
	assert_success
	assert_line "workspace: $T/pws"
	assert_line "borrows: $REPO/.git/objects"
	[ -d "$T/pws/.git" ]
	[ ! -f "$T/pws/.git" ]
	assert_equal "$(cat "$T/pws/.git/objects/info/alternates")" "$REPO/.git/objects"
	# nothing copied: the only file in its object store is the alternates
	assert_equal "$(find "$T/pws/.git/objects" -type f)" "$T/pws/.git/objects/info/alternates"
	assert_equal "$("$REAL_GIT" -C "$T/pws" remote get-url origin)" "$ORIGIN"
	assert_equal "$("$REAL_GIT" -C "$T/pws" config core.hooksPath)" /dev/null
	assert_equal "$("$REAL_GIT" -C "$T/pws" config user.name)" "Op Erator"
	assert_equal "$(branch_of "$T/pws")" feat
	assert_equal "$(head_of "$T/pws")" "$("$REAL_GIT" -C "$REPO" rev-parse origin/feat)"
	assert_equal "$("$REAL_GIT" -C "$T/pws" rev-parse origin/main)" \
		"$("$REAL_GIT" -C "$REPO" rev-parse origin/main)"
	assert_equal "$("$REAL_GIT" -C "$T/pws" status --porcelain)" ""
	[ -f "$T/pws/feature.txt" ]
	# it is not a linked worktree of the operator's clone
	[ "$("$REAL_GIT" -C "$REPO" worktree list | wc -l)" -eq 1 ]
}

@test "the operator's hooks never run while provisioning" {
	for h in reference-transaction post-checkout post-commit; do
		printf '#!/bin/sh\necho ran >>"%s/hook-ran"\n' "$T" >"$REPO/.git/hooks/$h"
		chmod +x "$REPO/.git/hooks/$h"
	done
	"$REAL_GIT" -C "$REPO" config core.hooksPath "$REPO/.git/hooks"
	ws_create --head feat --base main "$T/pws"
	assert_success
	[ ! -e "$T/hook-ran" ]
	assert_equal "$("$REAL_GIT" -C "$T/pws" config core.hooksPath)" /dev/null
}

@test "a missing head branch starts from the base" {
	ws_create --head topic/new --base main "$T/pws"
	assert_success
	assert_equal "$(branch_of "$T/pws")" topic/new
	assert_equal "$(head_of "$T/pws")" "$("$REAL_GIT" -C "$REPO" rev-parse origin/main)"
}

@test "--hooks-path points the workspace at session hooks" {
	mkdir -p "$T/session-hooks"
	ws_create --head feat --hooks-path "$T/session-hooks" "$T/pws"
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/pws" config core.hooksPath)" "$T/session-hooks"
}

@test "workspace refusals create nothing" {
	mkdir "$T/exists"
	ws_create --head feat "$T/exists"
	assert_equal "$status" 1
	assert_output --partial "'$T/exists' already exists"
	ws_create --head feat "$REPO/inside"
	assert_equal "$status" 1
	assert_output --partial "inside or around the operator clone"
	[ ! -e "$REPO/inside" ]
	ws_create --head feat --base nope "$T/pws"
	assert_equal "$status" 1
	assert_output --partial "base branch 'nope' not found"
	ws_create --head nope "$T/pws"
	assert_equal "$status" 1
	assert_output --partial "branch 'nope' not found"
	for b in 'a..b' '-x' 'x*' 'a b' 'x.lock'; do
		ws_create --head "$b" "$T/pws"
		assert_equal "$status" 1
		assert_output --partial "invalid branch name"
	done
	[ ! -e "$T/pws" ]
	run "$AG_BIN" sandbox workspace --from "$T/other-ws" --head feat "$T/pws"
	assert_equal "$status" 1
	assert_output --partial "is not a git repository"
	[ ! -e "$T/pws" ]
	run "$AG_BIN" sandbox workspace --from "$REPO" "$T/pws"
	assert_equal "$status" 2
}

@test "control: a linked worktree does not work inside the sandbox" {
	sbx_prereq bwrap
	"$REAL_GIT" -C "$REPO" worktree add -q "$T/linked" feat
	run "$AG_BIN" sandbox run --backend bwrap --policy fs-only \
		--workspace "$T/linked" -- /bin/sh -c 'git status'
	assert_failure
	assert_output --partial "not a git repository"
}

@test "the operator clone may be a linked worktree, a .git dir or a bare repository" {
	"$REAL_GIT" -C "$REPO" worktree add -q "$T/linked" feat
	ws_create --head feat --base main "$T/pws1"
	assert_success
	run "$AG_BIN" sandbox workspace --from "$T/linked" --head feat --base main "$T/pws2"
	assert_success
	assert_line "borrows: $REPO/.git/objects"
	run "$AG_BIN" sandbox workspace --from "$REPO/.git" --head main "$T/pws3"
	assert_success
	run "$AG_BIN" sandbox workspace --from "$ORIGIN" --head feat --base main "$T/pws4"
	assert_success
	assert_line "borrows: $ORIGIN/objects"
	for w in pws1 pws2 pws3 pws4; do
		"$REAL_GIT" -C "$T/$w" fsck --connectivity-only
		assert_equal "$("$REAL_GIT" -C "$T/$w" status --porcelain)" ""
	done
	# a workspace inside the linked worktree is inside the operator's clone
	run "$AG_BIN" sandbox workspace --from "$T/linked" --head feat "$REPO/.git/x"
	assert_equal "$status" 1
}
