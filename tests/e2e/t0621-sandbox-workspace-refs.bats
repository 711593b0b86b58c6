#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Private workspaces read the operator's refs straight from its files
# (loose refs, packed-refs) and ask git (for-each-ref) for anything else.
# A logging real git shows which git commands provisioning ran (GIT_TRACE
# would not: agentic-git's own git runs with no GIT_TRACE*).
load lib
load sandbox_cases

setup() {
	sbx_setup
	sbx_feature_repo
	mkdir -p "$T/logbin"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/trace" "$REAL_GIT" >"$T/logbin/git"
	chmod +x "$T/logbin/git"
	export AGENTIC_GIT_REAL_GIT=$T/logbin/git
}

# ws DIR [options…]: provision from $REPO with a fresh trace.
ws() {
	local dir=$1
	shift
	rm -f "$T/trace"
	run "$AG_BIN" sandbox workspace --from "$REPO" "$@" "$dir"
}

asked_git() { grep -qw -- for-each-ref "$T/trace"; }
# (a function, not `! asked_git`: bash does not fail a test on a negated command)
not_asked_git() { if asked_git; then return 1; fi; }

@test "loose and packed refs are read without git, a loose ref overriding a packed one" {
	ws "$T/w1" --head feat --base main
	assert_success
	assert_line "head: feat $("$REAL_GIT" -C "$REPO" rev-parse origin/feat)"
	assert_line "base: origin/main $("$REAL_GIT" -C "$REPO" rev-parse origin/main)"
	not_asked_git
	[ -f "$REPO/.git/refs/remotes/origin/feat" ]

	"$REAL_GIT" -C "$REPO" pack-refs --all
	[ ! -e "$REPO/.git/refs/remotes/origin/feat" ]
	ws "$T/w2" --head feat --base main
	assert_success
	assert_line "head: feat $("$REAL_GIT" -C "$REPO" rev-parse origin/feat)"
	assert_line "base: origin/main $("$REAL_GIT" -C "$REPO" rev-parse origin/main)"
	not_asked_git

	# origin/main moves: a loose ref now shadows the stale packed one
	old=$("$REAL_GIT" -C "$REPO" rev-parse origin/main)
	"$REAL_GIT" -C "$REPO" update-ref refs/remotes/origin/main origin/feat
	grep -q "$old refs/remotes/origin/main" "$REPO/.git/packed-refs"
	ws "$T/w3" --head topic --base main
	assert_success
	assert_line "base: origin/main $("$REAL_GIT" -C "$REPO" rev-parse origin/feat)"
	assert_line "head: topic $("$REAL_GIT" -C "$REPO" rev-parse origin/feat)"
	not_asked_git
	assert_equal "$("$REAL_GIT" -C "$T/w3" status --porcelain)" ""
}

@test "a missing ref is missing on the fast path too" {
	"$REAL_GIT" -C "$REPO" pack-refs --all
	ws "$T/w1" --head feat --base nope
	assert_equal "$status" 1
	assert_output --partial "base branch 'nope' not found"
	not_asked_git
	[ ! -e "$T/w1" ]
}

@test "a symref or an unusual loose ref makes provisioning ask git" {
	main=$("$REAL_GIT" -C "$REPO" rev-parse origin/main)
	"$REAL_GIT" -C "$REPO" symbolic-ref refs/remotes/origin/alias refs/remotes/origin/main
	ws "$T/w1" --head feat --base alias
	assert_success
	assert_line "base: origin/alias $main"
	asked_git

	# upper-case hex: git reads it, we do not guess
	echo "$main" | tr a-f A-F >"$REPO/.git/refs/remotes/origin/upper"
	ws "$T/w2" --head feat --base upper
	assert_success
	assert_line "base: origin/upper $main"
	asked_git
}

@test "a large packed-refs is left to git's binary search" {
	main=$("$REAL_GIT" -C "$REPO" rev-parse origin/main)
	"$REAL_GIT" -C "$REPO" pack-refs --all
	# 20000 tags: packed-refs over the 1 MiB fast-path limit
	awk -v oid="$main" 'BEGIN { for (i = 0; i < 20000; i++) printf "%s refs/tags/t%05d\n", oid, i }' \
		>>"$REPO/.git/packed-refs"
	[ "$(stat -c %s "$REPO/.git/packed-refs")" -gt 1048576 ]
	ws "$T/w1" --head feat --base main
	assert_success
	assert_line "base: origin/main $main"
	asked_git
}

@test "sha256 repositories take the fast path with 64-hex object names" {
	"$REAL_GIT" init -q --bare --object-format=sha256 "$T/o256.git"
	"$REAL_GIT" init -q --object-format=sha256 "$T/r256"
	(
		cd "$T/r256"
		echo x >x.txt
		"$REAL_GIT" add x.txt
		"$REAL_GIT" commit -q -m x
		"$REAL_GIT" remote add origin "$T/o256.git"
		"$REAL_GIT" push -q origin main
		"$REAL_GIT" fetch -q origin
	)
	oid=$("$REAL_GIT" -C "$T/r256" rev-parse origin/main)
	[ ${#oid} -eq 64 ]
	rm -f "$T/trace"
	run "$AG_BIN" sandbox workspace --from "$T/r256" --head main --base main "$T/w1"
	assert_success
	assert_line "head: main $oid"
	not_asked_git
	assert_equal "$("$REAL_GIT" -C "$T/w1" rev-parse HEAD)" "$oid"
	assert_equal "$("$REAL_GIT" -C "$T/w1" status --porcelain)" ""
}
