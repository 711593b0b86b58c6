#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch: a resolved conflict is pushed with the lease; an escalation
# pushes nothing and its note is salvaged; a concurrent push to the branch
# makes the lease refuse.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
}

@test "t0701.1 a resolved rebase conflict is verified and pushed with the lease" {
	old=$(origin_sha feat/a)
	main=$(origin_sha main)
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/resolve.sh"
	assert_success
	assert_output --partial "pushed        repo-feat-a"
	new=$(origin_sha feat/a)
	[ "$new" != "$old" ]
	# origin's branch now sits on main and holds both entries
	"$REAL_GIT" --git-dir="$ORIGIN" merge-base --is-ancestor "$main" "$new"
	run "$REAL_GIT" --git-dir="$ORIGIN" show "$new:CHANGELOG"
	assert_output "$(printf 'line 1\nmain entry\nfeature feat/a\nline 2')"
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a exit_code)" = 0 ]
	grep -q "sha: \"$new\"" "$(run_dir)/repo-feat-a.meta.yaml"
	grep -q 'passed: true' "$(run_dir)/repo-feat-a.meta.yaml"
	# the agent got the prompt on stdin, and the audit names only env keys
	grep -q '^  - "AGENTIC_GIT_TARGET_HEAD"$' "$(run_dir)/repo-feat-a.meta.yaml"
	! grep -q 'AGENTIC_GIT_TARGET_HEAD=' "$(run_dir)/repo-feat-a.meta.yaml"
	# the workspace and the session binding are gone; the logs stay
	[ ! -e "$(run_dir)/work/repo-feat-a" ]
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime")" ]
	grep -q "RESOLVED: kept both" "$(run_dir)/repo-feat-a.stdout.log"
	grep -q "pushed" "$(run_dir)/summary.md"
	# the operator's clone was not touched
	[ "$("$REAL_GIT" -C "$REPO" rev-parse feat/a)" = "$old" ]
	# run files are owner-only
	[ "$(stat -c %a "$(run_dir)")" = 700 ]
	[ "$(stat -c %a "$(run_dir)/repo-feat-a.meta.yaml")" = 600 ]
}

@test "t0701.2 an escalation pushes nothing and its note is salvaged" {
	old=$(origin_sha feat/a)
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	[ "$status" -eq 3 ]
	assert_output --partial "escalated     repo-feat-a"
	[ "$(origin_sha feat/a)" = "$old" ]
	[ "$(meta repo-feat-a status)" = escalated ]
	[ "$(meta repo-feat-a verdict_line)" = "ESCALATED: CHANGELOG needs a human" ]
	grep -q "conflict: CHANGELOG" "$(run_dir)/escalations/repo-feat-a.md"
	grep -q "escalations/repo-feat-a.md" "$(run_dir)/summary.md"
	[ ! -e "$(run_dir)/work/repo-feat-a" ]
}

@test "t0701.3 someone else pushing meanwhile makes the lease refuse; the workspace is kept" {
	"$REAL_GIT" clone -q "$ORIGIN" $T/other
	(cd $T/other && "$REAL_GIT" checkout -q feat/a && echo x >other.txt &&
		"$REAL_GIT" add other.txt && "$REAL_GIT" commit -q -m "someone else")
	theirs=$("$REAL_GIT" -C $T/other rev-parse HEAD)
	export OTHER_CLONE=$T/other
	run dispatch --json --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/other-pusher.sh"
	[ "$status" -eq 4 ]
	assert_output --partial '"status":"lease-refused"'
	[ "$(origin_sha feat/a)" = "$theirs" ]
	ws=$(run_dir)/work/repo-feat-a
	[ -d "$ws" ]
	grep -q "the push failed" "$ws/AGENTIC-GIT-NOTE.md"
	grep -q "rm -rf" "$ws/AGENTIC-GIT-NOTE.md"
	[ "$(meta repo-feat-a workspace_kept)" = true ]
	grep -q 'status: lease-refused' "$(run_dir)/repo-feat-a.meta.yaml"
}

@test "t0701.4 a branch already on its base is no-change (exit 0); targets file with per-target prompt" {
	dsp_branch feat/b
	printf 'targets:\n  - repo: %s\n    head: feat/b\n    base: main\n    key: b\n' "$REPO" >$T/t.yaml
	run dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/resolve.sh"
	assert_success
	[ "$(meta b status)" = no-change ]
	grep -q "HEAD unchanged" "$(run_dir)/b.meta.yaml"
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: a}\n  - {repo: %s, head: feat/a, base: main, key: a2, prompt: p.md}\n' "$REPO" "$REPO" >$T/t.yaml
	echo "custom prompt" >$T/p.md
	run dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/escalate.sh"
	[ "$status" -eq 3 ]
	[ "$(meta a status)" = escalated ]
	[ "$(meta a2 status)" = escalated ]
	# the per-target prompt file reached that agent only
	run dispatch --targets $T/t.yaml --task resolve-conflicts -- /bin/cat
	grep -q "custom prompt" "$(run_dir)/a2.stdout.log"
	grep -q "Goal: rebase the checked-out branch" "$(run_dir)/a.stdout.log"
	! grep -q "custom prompt" "$(run_dir)/a.stdout.log"
}
