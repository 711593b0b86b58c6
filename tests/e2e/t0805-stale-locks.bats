#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A lock a killed git left behind (issue 34 point 4): the next destructive
# command's snapshot names it with the way out, `snapshots restore`
# refuses before it changes anything, naming it; once removed as told,
# both work. A lock some process holds open is not called stale.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	cd "$REPO"
	"$AG_BIN" run --agent ag1 --branch feat/one -- true >/dev/null 2>&1
	WT=$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
	GD=$("$REAL_GIT" -C "$WT" rev-parse --absolute-git-dir)
}

# kill9_commit: a git commit killed -9 while its editor runs, which holds
# the index's lock (git commit -a writes it before the editor starts)
kill9_commit() {
	local pid
	echo "$1" >>"$WT/README.md"
	# its own session (setsid execs it: $! is git), so that the kill
	# reaches git and its editor, and nothing else
	(cd "$WT" && GIT_EDITOR="sleep 30 #" exec setsid "$REAL_GIT" commit -a >/dev/null 2>&1) &
	pid=$!
	for _ in $(seq 100); do [ -f "$GD/index.lock" ] && break; sleep 0.1; done
	[ -f "$GD/index.lock" ]
	kill -KILL -- "-$pid"
	wait "$pid" || true
}

@test "t0805: the index.lock of a killed git commit is named with the way out by the next snapshot and by restore" {
	kill9_commit "precious"
	[ -f "$GD/index.lock" ]
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	echo "$output"
	assert_output --partial "agentic-git: warning — git reset may fail: git's lock file '$GD/index.lock' exists and no process has it open: a git that was killed left it behind"
	assert_output --partial "remove it: rm $GD/index.lock"
	# the reset itself failed on it, after its snapshot: the edit is kept
	grep -q precious "$WT/README.md"
	echo "other edit" >>"$WT/README.md"
	run "$AG_BIN" snapshots restore --repo "$WT" --yes
	[ "$status" -eq 1 ]
	assert_output --partial "snapshots restore: refused, nothing was changed: git's lock file '$GD/index.lock' exists"
	assert_output --partial "rm $GD/index.lock; then retry"
	grep -q "other edit" "$WT/README.md"
	# the way out, as printed
	rm "$GD/index.lock"
	run "$AG_BIN" snapshots restore --repo "$WT" --yes
	assert_success
	grep -q precious "$WT/README.md"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	assert_success
	refute_output --partial "lock file"
	"$REAL_GIT" -C "$WT" fsck --no-progress --no-dangling
}

@test "t0805: a ref lock left behind is named by the next snapshot and stops restore --head, not a plain restore" {
	common=$("$REAL_GIT" -C "$WT" rev-parse --path-format=absolute --git-common-dir)
	echo precious >>"$WT/README.md"
	# as a git killed between taking the branch's lock and renaming it leaves it
	touch "$common/refs/heads/feat/one.lock"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard HEAD
	assert_output --partial "git reset may fail: git's lock file '$common/refs/heads/feat/one.lock' exists"
	run "$AG_BIN" snapshots restore --repo "$WT" --yes --head
	[ "$status" -eq 1 ]
	assert_output --partial "refused, nothing was changed: git's lock file '$common/refs/heads/feat/one.lock' exists"
	# a plain restore writes no ref git locks: it runs
	run "$AG_BIN" snapshots restore --repo "$WT" --yes
	assert_success
	grep -q precious "$WT/README.md"
	rm "$common/refs/heads/feat/one.lock"
}

@test "t0805: a lock a running git holds open is not called stale" {
	echo edit >>"$WT/README.md"
	# a process holding the lock open, as git does while it writes
	exec 9>"$GD/index.lock"
	run "$AG_BIN" snapshots restore --repo "$WT" --yes
	exec 9>&-
	refute_output --partial "no process has it open"
	rm -f "$GD/index.lock"
}

@test "t0805: a snapshot ref's lock a killed snapshot left is swept once it is a minute old" {
	echo one >>"$WT/README.md"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	assert_success
	common=$("$REAL_GIT" -C "$WT" rev-parse --path-format=absolute --git-common-dir)
	ref=$("$REAL_GIT" -C "$WT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/ | head -1)
	# as a snapshot killed between the link and the unlink leaves it: git's
	# update-ref (the prune) refuses to delete the ref while it is there
	touch -d '2 minutes ago' "$common/$ref.lock"
	touch "$common/refs/agentic-git/snapshots/ag1/fresh.lock"
	echo two >>"$WT/README.md"
	run "$AG_BIN" run --agent ag1 --branch feat/one -- git reset -q --hard
	assert_success
	[ ! -e "$common/$ref.lock" ]
	# a young one may be a live snapshot's: kept
	[ -e "$common/refs/agentic-git/snapshots/ag1/fresh.lock" ]
	rm "$common/refs/agentic-git/snapshots/ag1/fresh.lock"
	# nothing stops git deleting the ref now (the session's hook aside)
	"$REAL_GIT" -C "$WT" -c core.hooksPath=/dev/null update-ref -d "$ref"
}
