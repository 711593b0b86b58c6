#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch with agent profiles from config.yaml: resolution and env
# scoping. Sandboxed profiles (run in the sandbox, refused per target,
# warn-run) are t0709-t0711.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
}

# config BODY: writes $AGENTIC_GIT_HOME/config.yaml (0600).
config() {
	printf '%s\n' "$1" >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

@test "t0706.1 a custom profile (default_agent) runs with its env allowlist and pushes" {
	config "default_agent: scripted
agents:
  scripted:
    command: [$AGENTS/resolve.sh]
    prompt_via: stdin
    env: [REAL_GIT, GH_TOKEN, GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME, GIT_COMMITTER_EMAIL]"
	GH_TOKEN=secret SECRET_THING=x run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_success
	m=$(run_dir)/repo-feat-a.meta.yaml
	grep -q 'profile: "scripted"' "$m"
	grep -q '^  - "REAL_GIT"$' "$m"
	# the allowlist never brings credentials into dispatch, nor what is not listed
	! grep -q 'GH_TOKEN\|SECRET_THING' "$m"
	[ "$(meta repo-feat-a status)" = pushed ]
}

@test "t0706.2 --profile and a target's profile: pick the agent; unknown names fail before anything runs" {
	config "agents:
  good:
    command: [$AGENTS/resolve.sh]
    prompt_via: stdin
  esc:
    command: [$AGENTS/escalate.sh]
    prompt_via: stdin"
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: a, profile: esc}\n' "$REPO" >$T/t.yaml
	run dispatch --profile good --targets $T/t.yaml --task resolve-conflicts
	[ "$status" -eq 3 ]
	grep -q 'profile: "esc"' "$(run_dir)/a.meta.yaml"
	must_fail dispatch --profile nosuch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_output --partial "nosuch"
	[ "$(ls "$AGENTIC_GIT_HOME/runs" | grep -vc latest)" -eq 1 ]
}
