#!/usr/bin/env bats
# Issue 37 point 2, bounded storage: snapshots add packs and loose refs; a
# detached consolidation after the snapshot (git/snapshot-compact.h) keeps
# their number bounded, and every snapshot still restores.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/one
	GD=$("$REAL_GIT" rev-parse --git-common-dir)
	GD=$(cd "$GD" && pwd)
}

packs() {
	find "$GD/objects/pack" -name '*.pack' | wc -l
}

loose_snapshot_refs() {
	find "$GD/refs/agentic-git/snapshots" -type f 2>/dev/null | wc -l
}

# settle: wait until no consolidation holds the lock (it is taken before
# the shim execs git, so it is held by now if one was started)
settle() {
	flock "$GD/agentic-git-compact.mutex" true
}

# snap_n N: N snapshots, each of an edit and a new untracked file
snap_n() {
	local i
	for i in $(seq 1 "$1"); do
		echo "edit $i" >>README.md
		echo "new $i" >"u$i.txt"
		agit reset -q --hard
	done
}

@test "t0330: after 60 snapshots packs and loose snapshot refs stay bounded" {
	snap_n 60
	settle
	run "$REAL_GIT" for-each-ref refs/agentic-git/snapshots/
	[ "${#lines[@]}" -eq 60 ]
	# without consolidation: two packs and one loose ref per snapshot
	[ "$(packs)" -le 10 ]
	[ "$(loose_snapshot_refs)" -le 33 ]
	# every snapshot's objects are all there
	run bash -c "'$REAL_GIT' for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ |
		'$REAL_GIT' rev-list --objects --stdin --missing=print | grep -c '^?'"
	[ "$output" = 0 ]
	"$REAL_GIT" fsck --no-dangling --connectivity-only
}

@test "t0330: a snapshot taken before the consolidation restores after it" {
	snap_n 45
	settle
	[ "$(packs)" -le 10 ]
	first=$("$REAL_GIT" for-each-ref --sort=refname --format='%(refname)' refs/agentic-git/snapshots/ | head -n1)
	rm -f u*.txt
	run "$AG_BIN" snapshots restore "$first" --repo "$WT" --yes
	assert_success
	[ "$(cat u1.txt)" = "new 1" ]
	grep -qx "edit 1" README.md
	! grep -qx "edit 2" README.md
}

@test "t0330: a consolidation already running is not started twice" {
	snap_n 10
	settle
	n=$(packs)
	# held elsewhere: the snapshots go on, nothing is consolidated
	exec 9>"$GD/agentic-git-compact.mutex"
	flock 9
	snap_n 4
	[ "$(packs)" -gt "$n" ]
	exec 9>&-
	snap_n 1
	settle
	[ "$(packs)" -le 10 ]
}
