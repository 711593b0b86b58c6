#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Fault injection (docs/threat-model.md): the shim killed midway, a
# read-only or full AGENTIC_GIT_HOME, a missing real git, a corrupt key.
#
# Killing "midway" is deterministic: AGENTIC_GIT_REAL_GIT points at a small
# wrapper that, when the shim spawns it for the named git subcommand, sends
# SIGKILL to its parent (the shim) and then runs the real git unchanged. The
# git child finishes on its own, as it would after a real crash.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	KILLER=$T/killer-git
	cat >"$KILLER" <<EOS
#!/bin/bash
# the subcommand: the first word that is not an option, -c/-C's value or a path
sub() { local skip= a; for a; do if [ -n "\$skip" ]; then skip=; continue; fi
	case "\$a" in -c|-C) skip=1 ;; -*|*/*) ;; *) echo "\$a"; return ;; esac; done; }
if [ -n "\${KILL_ON:-}" ] && [ "\$KILL_ON" = "\$(sub "\$@")" ] &&
	mkdir "$T/killed" 2>/dev/null; then
	echo \$\$ >"$T/killed/pid"
	kill -KILL \$PPID
fi
exec "$REAL_GIT" "\$@"
EOS
	chmod +x "$KILLER"
}

# wait_killed_child: waits for the git child that outlived the shim.
wait_killed_child() {
	[ -f "$T/killed/pid" ] || return 0
	local pid
	pid=$(cat "$T/killed/pid")
	while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}

# repo_sane DIR: fsck clean, every ref parses, no lock files, status works.
repo_sane() {
	local dir=$1 common
	common=$("$REAL_GIT" -C "$dir" rev-parse --path-format=absolute --git-common-dir)
	run "$REAL_GIT" -C "$dir" fsck --no-dangling --no-progress
	assert_success
	run "$REAL_GIT" -C "$dir" for-each-ref --format='%(objectname) %(objecttype) %(refname)'
	assert_success
	refute_output --partial "missing"
	run find "$common" -name '*.lock'
	assert_output ""
	run "$REAL_GIT" -C "$dir" status --porcelain
	assert_success
}

# events_parse: every line of the audit log is one JSON object.
events_parse() {
	[ -f "$AGENTIC_GIT_HOME/fleet_events.jsonl" ] || return 0
	run jq -e -c 'select(type == "object" and (.event | type) == "string")' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_success
	[ "$(wc -l <"$AGENTIC_GIT_HOME/fleet_events.jsonl")" -eq "${#lines[@]}" ]
}

# bind_outside AGENT BRANCH: like ag_bind, with the worktree outside
# AGENTIC_GIT_HOME (so that remounting the home leaves the worktree alone).
bind_outside() {
	local agent=$1 branch=$2
	WT=$T/wt/$agent
	mkdir -p "$T/wt"
	"$REAL_GIT" -C "$REPO" worktree add -q -b "$branch" "$WT" main
	printf 'agent=%s\nleased_at=now\n' "$agent" >"$WT/.agend-managed"
	echo ".agend-managed" >>"$REPO/.git/info/exclude"
	ag_write_binding "$agent" "$branch" "$WT"
	export WT AGENTIC_GIT_AGENT=$agent
}

# in_ns SCRIPT: runs SCRIPT in a private mount namespace (mounts vanish
# with it).
in_ns() {
	unshare -m --propagation private bash -c "$1"
}

@test "t0800: the shim killed during a conflict-guidance rebase leaves the repository usable" {
	ag_bind ag1 feat/one
	(cd "$WT" && echo one >a.txt && "$REAL_GIT" add a.txt && "$REAL_GIT" commit -qm one)
	(cd "$REPO" && echo two >b.txt && "$REAL_GIT" add b.txt && "$REAL_GIT" commit -qm two)
	cd "$WT"
	KILL_ON=rebase AGENTIC_GIT_REAL_GIT=$KILLER run agit rebase main
	[ "$status" -eq 137 ]
	[ -f "$T/killed/pid" ]
	wait_killed_child
	repo_sane "$WT"
	repo_sane "$REPO"
	# the rebase itself finished: feat/one is main + one
	run "$REAL_GIT" -C "$WT" log --format=%s main..feat/one
	assert_output "one"
	[ "$(branch_of "$WT")" = feat/one ]
	# and the shim still works afterwards
	run agit commit --allow-empty -qm after
	assert_success
}

@test "t0800: the shim killed during a push guard pushes nothing and leaves the repository usable" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo work >w.txt
	"$REAL_GIT" add w.txt
	"$REAL_GIT" commit -qm work
	KILL_ON=for-each-ref AGENTIC_GIT_REAL_GIT=$KILLER run agit push origin feat/one
	[ "$status" -eq 137 ]
	[ -f "$T/killed/pid" ]
	wait_killed_child
	run "$REAL_GIT" -C "$ORIGIN" rev-parse --verify -q refs/heads/feat/one
	assert_failure
	repo_sane "$WT"
	run agit push -q origin feat/one
	assert_success
	[ "$("$REAL_GIT" -C "$ORIGIN" rev-parse feat/one)" = "$(head_of "$WT")" ]
}

@test "t0800: a snapshot killed midway leaves no half-written ref, no torn event and the work in place" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo "precious edit" >>README.md
	# (after add -A the snapshot runs no git: its trees, commit and ref
	# are written in-process, pack first, ref last; see the next test)
	for step in rev-parse add; do
		rm -rf "$T/killed"
		KILL_ON=$step AGENTIC_GIT_REAL_GIT=$KILLER run agit reset --hard
		[ "$status" -eq 137 ]
		wait_killed_child
		# the destructive command never ran: the edit is still there
		grep -q "precious edit" README.md
		repo_sane "$WT"
		events_parse
		# every snapshot ref that exists is a whole commit
		for ref in $("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/); do
			run "$REAL_GIT" cat-file -t "$ref"
			assert_output commit
		done
	done
	# the killed snapshots left their private index names (and git's
	# lock) beside the index
	gd=$("$REAL_GIT" rev-parse --absolute-git-dir)
	ls "$gd" | grep -q '^agentic-git-snapshot-index-'
	# with the fault gone, the snapshot and the reset both happen, and the
	# dead snapshots' names are reclaimed
	run agit reset --hard
	assert_success
	run ls "$gd"
	refute_output --partial agentic-git-snapshot-index-
	run "$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/
	[ "${#lines[@]}" -ge 1 ]
	ref=${lines[${#lines[@]}-1]}
	run "$REAL_GIT" show "$ref:README.md"
	assert_output --partial "precious edit"
}

@test "t0800: the snapshot's pack cannot be written: no ref, a warning and an event, the op still runs" {
	load snapshot-lib
	ag_bind ag1 feat/one
	cd "$WT"
	# work whose blobs all exist (a deletion), so add -A writes no pack and
	# the first write to objects/pack is the snapshot's own trees
	# (files older than the index: add -A hashes none of them again)
	"$REAL_GIT" ls-files -z | xargs -0 touch -d "@$(($(date +%s) - 100))"
	"$REAL_GIT" add -u
	rm src/main.c
	pack=$("$REAL_GIT" rev-parse --git-common-dir)/objects/pack
	no_links "$pack"
	run agit reset -q --hard
	allow_links "$pack"
	assert_success
	assert_output --partial "pre-op snapshot FAILED (cannot"
	[ -f src/main.c ] # the reset ran
	run "$REAL_GIT" for-each-ref refs/agentic-git/
	assert_output ""
	run sh -c "jq -r 'select(.event == \"snapshot_failed\") | .reason' '$AGENTIC_GIT_HOME/fleet_events.jsonl'"
	assert_output --partial "cannot"
	run ls "$pack"
	refute_output --partial tmp_
	repo_sane "$WT"
}

@test "t0800: a read-only AGENTIC_GIT_HOME: commits still run, denies still deny, nothing is lost" {
	prereq mount-namespace unshare -m --propagation private true
	bind_outside ag1 feat/one
	cd "$WT"
	echo data >d.txt
	run in_ns "mount --bind '$AGENTIC_GIT_HOME' '$AGENTIC_GIT_HOME' &&
		mount -o remount,bind,ro '$AGENTIC_GIT_HOME' &&
		! touch '$AGENTIC_GIT_HOME/probe' 2>/dev/null &&
		PATH='$AGENTIC_GIT_HOME/bin':\$PATH git add d.txt &&
		PATH='$AGENTIC_GIT_HOME/bin':\$PATH git commit -qm data &&
		{ PATH='$AGENTIC_GIT_HOME/bin':\$PATH git checkout main; echo \"deny-rc=\$?\"; }"
	assert_success
	assert_output --partial "deny-rc=1"
	assert_output --partial "git checkout denied"
	run "$REAL_GIT" -C "$WT" show --format=%s -s HEAD
	assert_output data
	[ "$(branch_of "$WT")" = feat/one ]
	repo_sane "$WT"
	events_parse
}

@test "t0800: a full AGENTIC_GIT_HOME: operations run, events stay whole, clean -x is refused rather than lose ignored files" {
	prereq mount-namespace unshare -m --propagation private true
	bind_outside ag1 feat/one
	cd "$WT"
	echo "build output" >cache.bin
	echo "cache.bin" >.gitignore
	"$REAL_GIT" add .gitignore
	"$REAL_GIT" commit -qm ignore
	full=$T/fullhome
	mkdir -p "$full"
	run in_ns "set -e
		mount -t tmpfs -o size=256k,mode=0700 tmpfs '$full'
		cp -a '$AGENTIC_GIT_HOME/.' '$full/'
		dd if=/dev/zero of='$full/filler' bs=4k 2>/dev/null || true
		export AGENTIC_GIT_HOME='$full' PATH='$full/bin':\$PATH
		cd '$WT'
		for i in 1 2 3 4 5; do git checkout main >/dev/null 2>&1 || true; done
		echo more >>README.md
		git commit -qam more
		git clean -fdx || echo clean-refused=\$?
		echo cache-left=\$(cat cache.bin 2>/dev/null)
		if [ -s '$full/fleet_events.jsonl' ]; then jq -c . '$full/fleet_events.jsonl' >/dev/null || echo torn-events; fi
		echo done"
	assert_success
	assert_output --partial "done"
	refute_output --partial "torn-events"
	# clean -x could not quarantine the ignored file: refused, file kept
	assert_output --partial "clean-refused=1"
	assert_output --partial "git clean refused: what it would delete and no snapshot can hold (ignored files, nested repositories) could not be quarantined"
	assert_output --partial "cache-left=build output"
	# the commit ran
	run "$REAL_GIT" -C "$WT" show --format=%s -s HEAD
	assert_output more
	[ -f "$WT/cache.bin" ]
	repo_sane "$WT"
}

@test "t0800: a missing real git exits 127 with a clear message" {
	prereq mount-namespace unshare -m --propagation private true
	ag_bind ag1 feat/one
	cd "$WT"
	run -127 in_ns "mount --bind /dev/null /usr/bin/git &&
		AGENTIC_GIT_REAL_GIT=/nonexistent/git PATH='$AGENTIC_GIT_HOME/bin:/usr/bin:/bin' '$AGENTIC_GIT_HOME/bin/git' status"
	assert_output --partial "agentic-git: exec failed: cannot find the real git"
	assert_output --partial "AGENTIC_GIT_REAL_GIT"
	# AGENTIC_GIT_REAL_GIT naming a directory or a non-executable is refused too
	chmod -x "$KILLER"
	run -127 in_ns "mount --bind /dev/null /usr/bin/git &&
		AGENTIC_GIT_REAL_GIT='$KILLER' PATH='$AGENTIC_GIT_HOME/bin:/usr/bin:/bin' '$AGENTIC_GIT_HOME/bin/git' status"
	run -127 in_ns "mount --bind /dev/null /usr/bin/git &&
		AGENTIC_GIT_REAL_GIT='$T' PATH='$AGENTIC_GIT_HOME/bin:/usr/bin:/bin' '$AGENTIC_GIT_HOME/bin/git' status"
}

@test "t0800: a corrupt integrity key makes the agent unbound: mutations denied, reads pass" {
	ag_bind ag1 feat/one
	cd "$WT"
	key=$AGENTIC_GIT_HOME/.config-integrity-key
	for size in 0 31 33 64; do
		head -c "$size" /dev/urandom >"$key"
		echo "x$size" >>README.md
		run agit commit -qam "size $size"
		[ "$status" -eq 1 ]
		assert_output --partial "unbound"
		assert_output --partial "integrity key"
		run agit status --short
		assert_success
	done
	# a key replaced by a directory or a symlink to a good key is refused too
	rm -f "$key"
	mkdir -p "$T/otherhome"
	"$TEST_TOOL" key "$T/otherhome"
	ln -s "$T/otherhome/.config-integrity-key" "$key"
	run agit commit -qam symlinked
	[ "$status" -eq 1 ]
	assert_output --partial "unbound"
	repo_sane "$WT"
	# every deny was recorded as a whole event line
	events_parse
	[ "$(events | jq -r 'select(.event=="deny") | .event' | wc -l)" -eq 5 ]
}

@test "t0800: a config.yaml with invalid UTF-8 is refused with its position, not a hang" {
	printf 'default_agent: codex\n%%\x95\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run timeout 20 "$AG_BIN" agents list
	[ "$status" -eq 1 ]
	assert_output --partial "config.yaml:2:2: not valid UTF-8"
}
