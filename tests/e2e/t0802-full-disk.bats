#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A full disk under the repository (issue 34 point 3; PRODUCT.md §5 "fail
# closed when the net fails"): in a `run` session a destructive command
# whose snapshot cannot be written is refused with how much space it needs,
# and the work stays; in the embedding mode it warns and runs, unless the
# operator set AGENTIC_GIT_FAIL_CLOSED=1. A failed snapshot leaves none of
# git's temporary packs behind.
#
# The disk is a small tmpfs mounted in a private mount namespace (it
# vanishes with the test); each scenario runs in one namespace and prints
# what it found, checked here.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	prereq tmpfs-mount unshare -m --propagation private \
		sh -c "mount -t tmpfs -o size=64k tmpfs '$T'"
	SMALL=$T/small
	mkdir -p "$SMALL"
}

# in_small SIZE SCRIPT: SCRIPT with a tmpfs of SIZE at $SMALL, holding a
# clone of $REPO at $SMALL/repo (the session's worktree stays on disk, in
# AGENTIC_GIT_HOME: the repository's objects are what fills up).
in_small() {
	unshare -m --propagation private bash -c "
		mount -t tmpfs -o size=$1 tmpfs '$SMALL' &&
		'$REAL_GIT' clone -q '$REPO' '$SMALL/repo' &&
		cd '$SMALL/repo' || exit 1
		fill() { dd if=/dev/zero of='$SMALL/filler' bs=4k 2>/dev/null || true; }
		unfill() { rm -f '$SMALL/filler'; }
		leftovers() { find '$SMALL/repo/.git/objects' -name 'tmp_*' | wc -l; }
		$2"
}

@test "t0802: full disk in a run session: reset --hard, checkout -- . and stash drop are refused, the work stays" {
	run in_small 4m "
		'$AG_BIN' run --agent ag1 --branch feat/one -- true >/dev/null 2>&1
		wt='$AGENTIC_GIT_HOME/worktrees/ag1/feat/one'
		echo stashed >>\"\$wt/README.md\"
		'$AG_BIN' run --agent ag1 --branch feat/one -- git stash -q >/dev/null 2>&1
		head -c 300000 /dev/urandom | base64 >\"\$wt/big.txt\"
		echo precious >>\"\$wt/README.md\"
		before=\$(cd \"\$wt\" && sha256sum README.md big.txt)
		fill
		'$AG_BIN' run --agent ag1 --branch feat/one -- sh -c '
			git reset -q --hard; echo reset=\$?
			git checkout -- .; echo checkout=\$?
			git stash drop; echo drop=\$?
			git clean -fd; echo clean=\$?' 2>&1
		[ \"\$(cd \"\$wt\" && sha256sum README.md big.txt)\" = \"\$before\" ] && echo work-kept
		echo leftovers=\$(leftovers)
		'$AG_BIN' run --agent ag1 --branch feat/one -- git stash list 2>/dev/null | grep -c 'stash@' | sed 's/^/stashes=/'
		# with space again the same command runs, after its snapshot
		unfill
		'$AG_BIN' run --agent ag1 --branch feat/one -- git reset -q --hard >/dev/null 2>&1
		grep -q precious \"\$wt/README.md\" || echo reset-ran
		ref=\$('$REAL_GIT' for-each-ref --sort=refname --format='%(refname)' refs/agentic-git/snapshots/ag1/ | tail -1)
		'$REAL_GIT' show \"\$ref:README.md\" | grep -q precious && echo restorable
		'$REAL_GIT' fsck --no-progress --no-dangling >/dev/null 2>&1 && echo fsck-ok
		jq -c 'select(.event == \"snapshot_failed\") | [.subcommand, .refused, (.space | test(\"needs up to\"))]' '$AGENTIC_GIT_HOME/fleet_events.jsonl'"
	echo "$output"
	assert_success
	assert_output --partial "reset=1"
	assert_output --partial "checkout=1"
	assert_output --partial "drop=1"
	assert_output --partial "clean=1"
	assert_output --partial "git reset refused: its pre-op snapshot FAILED ("
	assert_output --regexp "the disk is full: the snapshot needs up to [0-9]+ KiB \(the changed and untracked files\), the repository's disk has [0-9]+ bytes free"
	assert_output --partial "in a session a destructive command does not run without its safety net"
	refute_output --partial "proceeding without a safety net"
	assert_output --partial "work-kept"
	assert_output --partial "leftovers=0"
	assert_output --partial "stashes=1"
	assert_output --partial "reset-ran"
	assert_output --partial "restorable"
	assert_output --partial "fsck-ok"
	assert_output --partial '["reset",true,true]'
	assert_output --partial '["checkout",true,true]'
	assert_output --partial '["stash",true,true]'
}

@test "t0802: full disk in the embedding mode: the op warns and runs, its failed snapshot leaves no tmp pack" {
	ag_bind ag1 feat/one
	run in_small 4m "
		'$REAL_GIT' worktree add -q -b feat/x '$T/wtx' >/dev/null 2>&1
		printf '{\n  \"version\": 1,\n  \"agent\": \"ag1\",\n  \"task_id\": \"t\",\n  \"branch\": \"feat/x\",\n  \"worktree\": \"$T/wtx\"\n}' >'$AGENTIC_GIT_HOME/runtime/ag1/binding.json'
		'$TEST_TOOL' sign '$AGENTIC_GIT_HOME' '$AGENTIC_GIT_HOME/runtime/ag1/binding.json'
		cd '$T/wtx'
		head -c 300000 /dev/urandom | base64 >big.txt
		'$REAL_GIT' add big.txt
		fill
		PATH='$AGENTIC_GIT_HOME/bin':\$PATH git reset -q --hard 2>&1; echo reset=\$?
		[ -f big.txt ] || echo big-gone
		echo leftovers=\$(leftovers)
		unfill
		head -c 300000 /dev/urandom | base64 >big.txt
		'$REAL_GIT' add big.txt
		fill
		AGENTIC_GIT_FAIL_CLOSED=1 PATH='$AGENTIC_GIT_HOME/bin':\$PATH git reset -q --hard 2>&1; echo optin-reset=\$?
		[ -f big.txt ] && echo optin-kept
		echo leftovers=\$(leftovers)"
	echo "$output"
	assert_success
	# the original's contract: loud, and the op runs
	assert_output --partial "pre-op snapshot FAILED ("
	assert_output --partial "the disk is full: the snapshot needs up to"
	assert_output --partial "proceeding without a safety net"
	assert_output --partial "big-gone"
	# the operator's opt-in refuses
	assert_output --partial "optin-reset=1"
	assert_output --partial "git reset refused: its pre-op snapshot FAILED"
	assert_output --partial "optin-kept"
	refute_output --partial "leftovers=1"
	refute_output --partial "leftovers=2"
	assert_output --partial "leftovers=0"
}

@test "t0802: one full disk under the home and the repository: run re-enters, the op is refused, nothing is lost unsaid" {
	run in_small 4m "
		export AGENTIC_GIT_HOME='$SMALL/home'
		mkdir -p \"\$AGENTIC_GIT_HOME\"
		'$AG_BIN' run --agent ag1 --branch feat/one -- true >/dev/null 2>&1 || echo first-run-failed
		wt=\$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
		head -c 300000 /dev/urandom | base64 >\"\$wt/big.txt\"
		echo precious >>\"\$wt/README.md\"
		before=\$(cd \"\$wt\" && sha256sum README.md big.txt)
		fill
		# re-entering writes nothing that is already right: it starts
		'$AG_BIN' run --agent ag1 --branch feat/one -- sh -c 'git reset -q --hard; echo reset=\$?' 2>&1
		[ \"\$(cd \"\$wt\" && sha256sum README.md big.txt)\" = \"\$before\" ] && echo work-kept
		echo leftovers=\$(leftovers)
		# every record is in the journal, or was said and counted
		lost=\$(cat \"\$AGENTIC_GIT_HOME/fleet_events.lost\" 2>/dev/null || echo 0)
		echo lost=\$((10#\$lost))
		jq -c . \"\$AGENTIC_GIT_HOME/fleet_events.jsonl\" >/dev/null && echo journal-whole
		'$REAL_GIT' fsck --no-progress --no-dangling >/dev/null 2>&1 && echo fsck-ok"
	echo "$output"
	assert_success
	refute_output --partial "first-run-failed"
	assert_output --partial "reset=1"
	assert_output --partial "git reset refused: its pre-op snapshot FAILED"
	assert_output --partial "work-kept"
	assert_output --partial "leftovers=0"
	assert_output --partial "journal-whole"
	assert_output --partial "fsck-ok"
	# a record that did not fit was said on stderr, with the count
	lost=$(echo "$output" | sed -n 's/^lost=//p')
	if [ "$lost" -gt 0 ]; then
		assert_output --partial "lost so far, counted in"
	fi
}
