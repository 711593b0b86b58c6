#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32 W15 (git/owned-links.h, git/gitcmd.h invariant 5): a link in an
# agent's git dir where git or agentic-git writes (refs/, logs/, objects/,
# HEAD, index, packed-refs) gets none of our git: nothing is written
# through it into the operator's clone or $HOME, and the refusal names
# the link.
load lib

HX=$BATS_TEST_DIRNAME/../hostile

setup() {
	T=$BATS_TEST_TMPDIR
	export AGENTIC_GIT_HOME=$T/aghome
	"$REAL_GIT" init -q "$T/ws"
	echo a >"$T/ws/a"
	"$REAL_GIT" -C "$T/ws" add a
	"$REAL_GIT" -C "$T/ws" -c user.name=t -c user.email=t@t commit -qm one
	"$REAL_GIT" init -q "$T/clone"
}

@test "t0853: refs/agentic-git a link to another repository's refs/heads: refused, nothing written there" {
	ln -s "$T/clone/.git/refs/heads" "$T/ws/.git/refs/agentic-git"
	echo b >>"$T/ws/a"
	run "$AG_BIN" snapshots list --repo "$T/ws"
	assert_failure
	assert_output --partial "holds a symbolic link"
	assert_output --partial "refs/agentic-git"
	[ -z "$(ls -A "$T/clone/.git/refs/heads")" ]
}

@test "t0853: objects/pack a link: refused" {
	mv "$T/ws/.git/objects/pack" "$T/pack"
	ln -s "$T/pack" "$T/ws/.git/objects/pack"
	run "$AG_BIN" snapshots list --repo "$T/ws"
	assert_failure
	assert_output --partial "objects/pack"
}

@test "t0853: the fuzzer's W15 scenes (end --force, snapshots restore --repo <ws>) write nothing through a link" {
	prereq bwrap command -v bwrap
	prereq strace command -v strace
	run "$HX/hostile.sh" -o "$T/hx" --replay "$HX/corpus/regress-W15-refs-link-end-writes-clone.scene" \
		"$HX/corpus/regress-W15-refs-link-restore-writes-clone.scene" "$HX/corpus/regress-W15-pack-link-end-writes-home.scene"
	echo "$output"
	assert_success
	refute_output --partial "not ok"
}

@test "t0853 F8: a FIFO planted where git reads (packed-refs, index) is refused at once, nothing hangs" {
	for f in packed-refs index; do
		rm -f "$T/ws/.git/$f"
		mkfifo "$T/ws/.git/$f"
		run timeout 60 "$AG_BIN" snapshots list --repo "$T/ws"
		[ "$status" -ne 124 ] || fail "snapshots list hung on a FIFO at .git/$f"
		assert_failure
		assert_output --partial "holds a symbolic link (or"
		assert_output --partial "$f"
		rm -f "$T/ws/.git/$f"
	done
}
