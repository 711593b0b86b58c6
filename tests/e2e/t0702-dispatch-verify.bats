#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch: an agent that says RESOLVED but leaves a result that fails any
# PRODUCT.md §9 check gets nothing pushed, and the reason is recorded.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
	OLD=$(origin_sha feat/a)
}

# blocked MODE CHECK TEXT: run bad.sh in MODE, expect `blocked`, nothing
# pushed, CHECK failed with TEXT in meta.yaml.
blocked() {
	BAD_MODE=$1 run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/bad.sh"
	[ "$status" -eq 4 ]
	assert_output --partial "blocked       repo-feat-a"
	[ "$(origin_sha feat/a)" = "$OLD" ]
	m=$(run_dir)/repo-feat-a.meta.yaml
	grep -A2 -- "- name: $2" "$m" | grep -q "result: fail"
	grep -q "$3" "$m"
	grep -q 'passed: false' "$m"
	grep -q 'status: none' "$m"
	grep -q "$3" "$(run_dir)/summary.md"
}

@test "t0702.1 conflict markers committed: blocked" {
	blocked markers conflict_markers "conflict markers in CHANGELOG"
}

@test "t0702.2 a rebase left in progress: blocked, workspace kept with a note" {
	blocked in-progress operation_in_progress "rebase still in progress"
	grep -A2 -- "- name: unmerged_paths" "$(run_dir)/repo-feat-a.meta.yaml" | grep -q "result: fail"
	ws=$(run_dir)/work/repo-feat-a
	[ -d "$ws" ]
	grep -q "in conflict" "$ws/AGENTIC-GIT-NOTE.md"
	[ "$(meta repo-feat-a workspace_kept)" = true ]
}

@test "t0702.3 HEAD unmoved while base moved on: blocked" {
	blocked unmoved head_moved "HEAD unchanged"
	grep -A2 -- "- name: base_is_ancestor" "$(run_dir)/repo-feat-a.meta.yaml" | grep -q "result: fail"
}

@test "t0702.4 HEAD moved but not onto base: blocked" {
	blocked not-on-base base_is_ancestor "HEAD does not descend from base"
}

@test "t0702.5 another branch moved: blocked" {
	blocked other-ref other_refs_unchanged "other refs changed: refs/heads/stray"
}

@test "t0702.6 a trust-root file in the pushed range: blocked" {
	blocked trust-root no_trust_root_files "trust-root file 'policy.toml'"
}

@test "t0702.11 a trust-root file added by a merge commit: blocked" {
	blocked merge-trust-root no_trust_root_files "trust-root file 'fleet.yaml'"
}

@test "t0702.7 RESOLVED with a non-zero exit: blocked" {
	blocked fail-exit exit "did not exit 0"
}

@test "t0702.8 verify_command runs in the workspace; failing blocks, passing pushes" {
	printf '#!/bin/sh\ngrep -q "main entry" CHANGELOG && [ -z "$SSH_AUTH_SOCK" ] && echo ok >"%s/verify-ran"\n' "$T" >$T/check.sh
	chmod +x $T/check.sh
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: v, verify_command: [/bin/false]}\n' "$REPO" >$T/t.yaml
	SSH_AUTH_SOCK=/tmp/fake run dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/resolve.sh"
	[ "$status" -eq 4 ]
	[ "$(meta v status)" = blocked ]
	grep -q "'/bin/false' exited 1" "$(run_dir)/v.meta.yaml"
	[ "$(origin_sha feat/a)" = "$OLD" ]
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: v, verify_command: ["%s"]}\n' "$REPO" "$T/check.sh" >$T/t.yaml
	SSH_AUTH_SOCK=/tmp/fake run dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/resolve.sh"
	assert_success
	[ -f $T/verify-ran ]
	[ "$(origin_sha feat/a)" != "$OLD" ]
}

@test "t0702.9 no verdict line, or a failing agent: nothing verified or pushed" {
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- /bin/true
	[ "$status" -eq 4 ]
	[ "$(meta repo-feat-a status)" = no-verdict ]
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- /bin/false
	[ "$status" -eq 4 ]
	[ "$(meta repo-feat-a status)" = failed ]
	[ "$(meta repo-feat-a exit_code)" = 1 ]
	[ "$(origin_sha feat/a)" = "$OLD" ]
}

@test "t0702.10 config the agent planted in its workspace never runs in verification or push" {
	export PLANT_MARKS=$T/marks
	mkdir -p "$PLANT_MARKS"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/plant.sh"
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(origin_sha feat/a)" != "$OLD" ]
	# the control: the agent's own plain git ran the plant
	[ -e "$PLANT_MARKS/agent-fsmonitor" ]
	# agentic-git's verification and push ran none of it
	run ls "$PLANT_MARKS"
	refute_output --partial "after-"
}
