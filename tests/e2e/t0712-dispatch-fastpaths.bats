#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch's process-saving fast paths (docs/dispatch-speed.md) give the
# same answer as the git commands they replace, and fall back to git
# whenever the layout is not the plain one they understand.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	cat >"$T/commit.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	"$REAL_GIT" commit -q --allow-empty -m "noop $AGENTIC_GIT_TARGET_KEY" && echo "RESOLVED: noop"
	SH
	chmod +x "$T/commit.sh"
	echo "do nothing" >"$T/prompt.md"
}

# second_clone DIR ORIGIN: a clone of its own origin with branch b1.
second_clone() {
	"$REAL_GIT" init -q --bare "$2"
	"$REAL_GIT" clone -q "$2" "$1" 2>/dev/null
	(
		cd "$1"
		"$REAL_GIT" commit -q --allow-empty -m "other start"
		"$REAL_GIT" push -q origin HEAD:main HEAD:b1
	)
}

@test "t0712.1 one probe per repository: each target still pushes to its own origin" {
	second_clone "$T/other" "$T/other-origin.git"
	for b in b1 b2; do "$REAL_GIT" -C "$REPO" push -q origin "main:$b"; done
	ln -s "$REPO" "$T/repo-link"
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $REPO, head: b1, base: main, key: a1}
	  - {repo: $T/other, head: b1, base: main, key: o1}
	  - {repo: $T/repo-link, head: b2, base: main, key: a2}
	EOF2
	run dispatch -j 1 --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" = "noop a1" ]
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b2)" = "noop a2" ]
	[ "$("$REAL_GIT" --git-dir="$T/other-origin.git" log -1 --format=%s b1)" = "noop o1" ]
	[ "$(meta a2 status)" = pushed ]
	[ "$(meta o1 status)" = pushed ]
}

@test "t0712.2 a clone whose .git is a symlink is probed by git (fallback)" {
	mv "$REPO/.git" "$T/repo-gitdir"
	ln -s "$T/repo-gitdir" "$REPO/.git"
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" = "noop repo-b1" ]
}

@test "t0712.3 a directory that is not a clone is refused for every target" {
	mkdir "$T/plain"
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $T/plain, head: b1, base: main, key: p1}
	  - {repo: $T/plain, head: b2, base: main, key: p2}
	EOF2
	must_fail dispatch --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_output --partial "target 'p1': not a git clone"
	assert_output --partial "target 'p2': not a git clone"
}
