#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32, W4: a sandboxed agent writes a snapshot ref in its own
# namespace whose message names another agent's worktree (and agent);
# `run`'s sync imports it. The operator's documented recovery of that
# other worktree (`snapshots restore --repo <it> --since 1h`) must never
# write the attacker's files: what the sync files is a commit agentic-git
# writes, attributed to the session's own agent and workspace
# (fleet/snapshot-bind.h; threat-model T88). Both backends.
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin"
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	# $2: the task; $3: the other worktree
	case $2 in
	forge)
		stamp=$(date -u +%Y%m%dT%H%M%SZ)
		tree=$(printf 'ATTACKER\n' | git hash-object -w --stdin)
		tree=$(printf '100644 blob %s\tREADME.md\n100644 blob %s\tb.txt\n' "$tree" "$tree" | git mktree)
		msg=$(printf 'reset-hard snapshot\n\nAgentic-Snapshot-Op: reset-hard\nAgentic-Snapshot-Agent: ag2\nAgentic-Snapshot-Worktree: %s\nAgentic-Snapshot-Head: %s\nAgentic-Snapshot-Branch: refs/heads/feat/b\n' "$3" "$(git rev-parse HEAD)")
		c=$(printf '%s\n' "$msg" | git commit-tree "$tree" -p HEAD)
		mkdir -p .git/refs/agentic-git/snapshots/a1 .git/refs/agentic-git/snapshots/ag2
		echo "$c" >".git/refs/agentic-git/snapshots/a1/$stamp-0-reset-hard"
		# one in another agent's namespace, one that is no snapshot name
		echo "$c" >".git/refs/agentic-git/snapshots/ag2/$stamp-0-reset-hard"
		echo "$c" >.git/refs/agentic-git/snapshots/a1/garbage
		echo FORGED
		;;
	genuine)
		echo mine >>README.md && git reset -q --hard && echo GENUINE
		;;
	flood)
		# one real snapshot, then its commit under many names: from the
		# future, and from now
		echo mine >>README.md && git checkout -- README.md
		d=.git/refs/agentic-git/snapshots/a1
		c=$(cat "$d"/* | head -1)
		now=$(date -u +%Y%m%dT%H%M%SZ)
		i=0
		while [ $i -lt 40 ]; do
			echo "$c" >"$d/20991231T235959Z-$i-reset"
			echo "$c" >"$d/$now-$((i + 100))-reset"
			i=$((i + 1))
		done
		echo FLOODED
		;;
	esac
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
	# the other session: real work, committed and not
	run "$AG_BIN" run --agent ag2 --branch feat/b -- sh -c \
		'echo b >b.txt && git add b.txt && git commit -qm b && echo "b wip" >>README.md'
	assert_success
	WT2=$AGENTIC_GIT_HOME/worktrees/ag2/feat/b
	WS=$AGENTIC_GIT_HOME/worktrees/a1/feat/x
	[ -d "$WT2" ]
}

config() {
	sbx_prereq "$1"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: $1
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}", "$WT2"]
	    env: []
	    sandbox: $2
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

check_forged() {
	local ref msg
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt forge
	assert_success
	assert_output --partial FORGED
	assert_output --partial "snapshot ref 'refs/agentic-git/snapshots/a1/garbage' of the private workspace is not a snapshot of agent 'a1': not imported"
	# only its own namespace came back, and only snapshot names
	ref=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/a1/)
	[ -n "$ref" ]
	[ "$(printf '%s\n' "$ref" | wc -l)" -eq 1 ]
	[ -z "$("$REAL_GIT" -C "$REPO" for-each-ref refs/agentic-git/snapshots/ag2/ --contains "$ref")" ]
	# filed as the session's: its agent, its workspace, agentic-git's
	msg=$("$REAL_GIT" -C "$REPO" log -1 --format='%an|%cn%n%B' "$ref")
	[[ $msg == "agentic-git|agentic-git"* ]]
	[[ $msg == *"Agentic-Snapshot-Agent: a1"* ]]
	[[ $msg == *"Agentic-Snapshot-Worktree: $WS"* ]]
	[[ $msg != *"$WT2"* ]]
	[[ $msg != *"Agent: ag2"* ]]
	# the same files and parents as the agent's commit
	assert_equal "$("$REAL_GIT" -C "$REPO" rev-parse "$ref^{tree}")" \
		"$("$REAL_GIT" -C "$WS" rev-parse "refs/agentic-git/snapshots/a1/garbage^{tree}")"
	assert_equal "$("$REAL_GIT" -C "$REPO" rev-parse "$ref^")" "$(head_of "$WS")"
	# the operator's recovery of ag2's worktree: never the attacker's files
	run "$AG_BIN" snapshots list --repo "$WT2"
	refute_output --partial "snapshots/a1/"
	run "$AG_BIN" snapshots restore --repo "$WT2" --since 1h
	refute_output --partial "snapshots/a1/"
	run grep -r ATTACKER "$WT2" --exclude-dir=.git
	assert_failure
	assert_equal "$(cat "$WT2/b.txt")" b
	# listed in the clone as the session's, taken in its workspace
	run "$AG_BIN" snapshots list --repo "$REPO" --all --json
	assert_success
	assert_equal "$(jq -c --arg r "$ref" '[.[] | select(.ref == $r) | [.agent, .worktree]]' <<<"$output")" \
		"[[\"a1\",\"$WS\"]]"
}

@test "bwrap: a forged snapshot is bound to the session, never restored into another worktree" {
	config bwrap fs+no-net
	check_forged
}

@test "landlock: a forged snapshot is bound to the session, never restored into another worktree" {
	config landlock fs-only
	check_forged
}

@test "a genuine snapshot taken in the cage comes back, restorable in the session's workspace" {
	local b=bwrap p=fs+no-net ref
	"$AG_BIN" sandbox probe --json | jq -e .bwrap.works >/dev/null || b=landlock p=fs-only
	config "$b" "$p"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt genuine
	assert_success
	assert_output --partial GENUINE
	ref=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/a1/)
	[ -n "$ref" ]
	assert_equal "$("$REAL_GIT" -C "$REPO" show "$ref:README.md" | tail -1)" mine
	run "$AG_BIN" snapshots restore --repo "$WS" --since 1h
	assert_success
	assert_equal "$(tail -1 "$WS/README.md")" mine
}

@test "a flood of snapshot names from the cage, future-stamped or not, evicts no other session's snapshots (retention after the run)" {
	local b=bwrap p=fs+no-net ag2snaps
	"$AG_BIN" sandbox probe --json | jq -e .bwrap.works >/dev/null || b=landlock p=fs-only
	config "$b" "$p"
	cat >>"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	snapshots:
	  keep_per_worktree: 10
	  keep_per_repository: 20
	EOF
	# two snapshots of ag2's, the older one not its newest
	run "$AG_BIN" run --agent ag2 --branch feat/b -- sh -c \
		'echo l1 >>README.md && git checkout -- README.md && echo l2 >>README.md && git checkout -- README.md'
	assert_success
	ag2snaps=$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag2/)
	[ "$(printf '%s\n' "$ag2snaps" | wc -l)" -ge 2 ]
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt flood
	assert_success
	assert_output --partial FLOODED
	assert_output --partial "snapshot ref 'refs/agentic-git/snapshots/a1/20991231T235959Z-0-reset' of the private workspace is stamped in the future: not imported"
	# nothing from the future came in; the flood kept its worktree's cap
	[ -z "$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/a1/ | grep 2099)" ]
	[ "$("$REAL_GIT" -C "$REPO" for-each-ref refs/agentic-git/snapshots/a1/ | wc -l)" -le 10 ]
	# every snapshot of ag2's is still there
	assert_equal "$("$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag2/)" "$ag2snaps"
}
