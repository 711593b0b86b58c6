#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 37 point 3: dispatch keeps N runs or D days (config.yaml
# dispatch.keep_runs / keep_days) and caps each agent log at
# dispatch.log_cap_mib, saying in the log where it was cut
# (fleet/rundir.h; docs/dispatch.md, "Run directories").
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
}

@test "t0337: runs older than keep_days go when a dispatch starts, unless a workspace is kept" {
	printf 'dispatch:\n  keep_days: 2\n  keep_runs: 10\n' >"$AGENTIC_GIT_HOME/config.yaml"
	mkdir -p "$AGENTIC_GIT_HOME/runs"
	old=$(date -u -d '-3 days' +%Y%m%dT%H%M%SZ)-000001
	kept=$(date -u -d '-4 days' +%Y%m%dT%H%M%SZ)-000002
	recent=$(date -u -d '-1 days' +%Y%m%dT%H%M%SZ)-000003
	mkdir -p "$AGENTIC_GIT_HOME/runs/$old" "$AGENTIC_GIT_HOME/runs/$recent" \
		"$AGENTIC_GIT_HOME/runs/$kept/work/x"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_equal "$status" 3
	[ ! -e "$AGENTIC_GIT_HOME/runs/$old" ]
	[ -d "$AGENTIC_GIT_HOME/runs/$recent" ]
	[ -d "$AGENTIC_GIT_HOME/runs/$kept/work/x" ]
	[ -d "$(run_dir)" ]
}

@test "t0337: keep_runs counts the runs, the new one included" {
	printf 'dispatch:\n  keep_runs: 2\n' >"$AGENTIC_GIT_HOME/config.yaml"
	mkdir -p "$AGENTIC_GIT_HOME/runs"
	for m in 3 2 1; do
		mkdir "$AGENTIC_GIT_HOME/runs/$(date -u -d "-$m min" +%Y%m%dT%H%M%SZ)-00000$m"
	done
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_equal "$status" 3
	n=$(find "$AGENTIC_GIT_HOME/runs" -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l)
	assert_equal "$n" 2
	[ -n "$(find "$AGENTIC_GIT_HOME/runs" -maxdepth 1 -name '*-000001')" ]
}

@test "t0337: a log over log_cap_mib is cut, and says at which byte" {
	printf 'dispatch:\n  log_cap_mib: 1\n' >"$AGENTIC_GIT_HOME/config.yaml"
	cat >"$T/loud.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	echo "first line of the agent"
	head -c 3145728 /dev/zero | tr '\0' 'x'
	echo
	echo "ESCALATED: too loud to decide"
	SH
	chmod +x "$T/loud.sh"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$T/loud.sh"
	assert_equal "$status" 3
	log=$(run_dir)/repo-feat-a.stdout.log
	[ "$(stat -c %s "$log")" -le $((1048576 + 300)) ]
	assert_equal "$(head -1 "$log")" "first line of the agent"
	grep -q '^\[agentic-git: log cut at byte 131072: [0-9]* bytes removed here' "$log"
	assert_equal "$(tail -1 "$log")" "ESCALATED: too loud to decide"
	[[ "$(meta repo-feat-a note)" == *"stdout.log capped: "*" bytes cut"* ]]
}

@test "t0337: run retention keys that do not parse are refused" {
	printf 'dispatch:\n  keep_runs: 0\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_failure
	assert_output --partial "dispatch.keep_runs"
	printf 'dispatch:\n  log_cap_mib: lots\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_failure
	assert_output --partial "dispatch.log_cap_mib: expected a positive integer"
}
