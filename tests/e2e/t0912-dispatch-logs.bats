#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 35 frictions: dispatch keeps a bounded agent stdout (cap + note)
# and prunes old run directories (docs/dispatch.md, "Run directory").
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	cat >"$T/loud.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	echo "first line of the agent"
	head -c 12582912 /dev/zero | tr '\0' 'x'
	echo
	echo "ESCALATED: too loud to decide"
	SH
	chmod +x "$T/loud.sh"
}

@test "a 12 MiB agent stdout is kept bounded: head, a cut note, the tail with the verdict" {
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$T/loud.sh"
	assert_equal "$status" 3 # escalated: the verdict in the tail was read
	log=$(run_dir)/repo-feat-a.stdout.log
	[ "$(stat -c %s "$log")" -le $((8 * 1048576 + 200)) ]
	assert_equal "$(head -1 "$log")" "first line of the agent"
	grep -q '^\[agentic-git: log cut at byte 1048576: [0-9]* bytes removed here' "$log"
	assert_equal "$(tail -1 "$log")" "ESCALATED: too loud to decide"
	[[ "$(meta repo-feat-a note)" == *"stdout.log capped: "*" bytes cut"* ]]
	assert_equal "$(meta repo-feat-a status)" escalated
}

@test "runs/ keeps the 50 newest runs, and never one with a kept workspace" {
	mkdir -p "$AGENTIC_GIT_HOME/runs"
	# 55 runs of the last hours (within the default 30 days), the oldest
	# first: the count decides
	for i in $(seq -w 1 55); do
		id=$(date -u -d "-$((60 - 10#$i)) min" +%Y%m%dT%H%M%SZ)-0000$i
		mkdir "$AGENTIC_GIT_HOME/runs/$id"
		ids[10#$i]=$id
	done
	# the oldest one holds a workspace kept for a human
	mkdir -p "$AGENTIC_GIT_HOME/runs/${ids[1]}/work/x"
	mkdir "$AGENTIC_GIT_HOME/runs/not-a-run"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_equal "$status" 3
	n=$(find "$AGENTIC_GIT_HOME/runs" -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l)
	assert_equal "$n" 51 # 50 newest (the new run among them) + the kept one
	[ -d "$AGENTIC_GIT_HOME/runs/${ids[1]}/work/x" ]
	[ ! -e "$AGENTIC_GIT_HOME/runs/${ids[2]}" ]
	[ -d "$AGENTIC_GIT_HOME/runs/not-a-run" ]
	[ -d "$(run_dir)" ]
}
