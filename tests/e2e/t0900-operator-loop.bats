#!/usr/bin/env bats
# Issue 35, acceptance 1: the operator's loop as a user drives it. Two
# agents in two sessions on one repository; one wipes its work and it is
# restored; the operator reviews both, merges one (which ends it), and
# resumes the other on its existing branch after `end`. (The page step is
# issue 35's `report`, added with it.)
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/loop-home
	cd "$REPO"
	WT_A=$AGENTIC_GIT_HOME/worktrees/a/feat/a
	WT_B=$AGENTIC_GIT_HOME/worktrees/b/feat/b
}

@test "the operator's loop: run two agents, restore, review, merge one, resume the other" {
	# 1. two agents; a commits, then wipes its commit and its edit
	run "$AG_BIN" run --agent a --branch feat/a -- sh -c '
		echo one >a.txt && git add a.txt && git commit -qm "a: one" &&
		echo wip >>a.txt && git reset -q --hard HEAD~1 &&
		git push -q --force origin main; true'
	assert_success
	[ ! -e "$WT_A/a.txt" ]
	run "$AG_BIN" run --agent b --branch feat/b -- sh -c '
		echo two >b.txt && git add b.txt && git commit -qm "b: two"'
	assert_success

	# 2. the wiped work comes back: files, then the branch
	run "$AG_BIN" snapshots restore --repo "$WT_A" --since 1h
	assert_success
	assert_equal "$(cat "$WT_A/a.txt")" "$(printf 'one\nwip')"
	head_cmd=$(echo "$output" | sed -n 's/^ *agentic-git snapshots restore \(.*--head .*\)$/\1/p')
	[ -n "$head_cmd" ]
	# shellcheck disable=SC2086
	run "$AG_BIN" snapshots restore $head_cmd
	assert_success
	assert_equal "$("$REAL_GIT" log -1 --format=%s feat/a)" "a: one"

	# 3. review both: what each did, what the guard denied and kept
	run "$AG_BIN" review --agent a --json
	assert_success
	a=$output
	assert_equal "$(jq -r '.base + " " + (.ahead|tostring)' <<<"$a")" "main 1"
	assert_equal "$(jq -r '.commits[0].subject' <<<"$a")" "a: one"
	assert_equal "$(jq -r '.commits[0].trailers[] | select(.key=="Agentic-Agent") | .value' <<<"$a")" a
	assert_equal "$(jq -r '.denies[0].event' <<<"$a")" deny_force_no_lease
	[ "$(jq -r '.snapshots | length' <<<"$a")" -ge 1 ]
	run "$AG_BIN" review --agent b --json --patch
	assert_success
	b=$output
	assert_equal "$(jq -r '.diffstat.files[0].path' <<<"$b")" b.txt
	assert_equal "$(jq -r '.denies | length' <<<"$b")" 0
	[[ "$(jq -r .patch <<<"$b")" == *"+two"* ]]
	task_a=$(jq -r '.commits[0].trailers[] | select(.key=="Agentic-Task") | .value' <<<"$a")
	task_b=$(jq -r '.commits[0].trailers[] | select(.key=="Agentic-Task") | .value' <<<"$b")
	[ "$task_a" != "$task_b" ]

	# 4. merge b: into main in the operator's checkout; the session ends
	run "$AG_BIN" merge --agent b
	assert_success
	assert_equal "$(cat "$REPO/b.txt")" two
	assert_equal "$("$REAL_GIT" rev-parse main^2)" "$("$REAL_GIT" rev-parse feat/b)"
	[ ! -e "$AGENTIC_GIT_HOME/runtime/b" ]
	[ ! -e "$WT_B" ]
	assert_equal "$("$AG_BIN" sessions --json | jq -r '[.[].agent] | join(",")')" a

	# 5. end a (its edit is unsaved: refused, then --force snapshots it)
	run "$AG_BIN" end --agent a
	assert_equal "$status" 1
	run "$AG_BIN" end --agent a --force
	assert_success
	back=$(echo "$output" | sed -n 's/^  get back:  //p')
	restore=$(echo "$output" | sed -n 's/^ *then: agentic-git //p')
	assert_equal "$back" "cd $REPO && agentic-git run --agent a --branch feat/a -- <cmd>"
	[ ! -e "$WT_A" ]

	# 6. resume a on its existing branch, exactly as end said, and go on
	cd "$T"
	(cd "$REPO" && "$AG_BIN" run --agent a --branch feat/a -- true) 2>/dev/null
	assert_equal "$("$REAL_GIT" -C "$WT_A" rev-parse HEAD)" "$("$REAL_GIT" -C "$REPO" rev-parse feat/a)"
	# shellcheck disable=SC2086
	run "$AG_BIN" $restore
	assert_success
	assert_equal "$(cat "$WT_A/a.txt")" "$(printf 'one\nwip')"
	cd "$REPO"
	run "$AG_BIN" run --agent a --branch feat/a -- sh -c 'git commit -qam "a: wip"'
	assert_success
	run "$AG_BIN" review --agent a --json
	assert_equal "$(jq -r '.ahead' <<<"$output")" 2
	assert_equal "$(jq -r '.behind' <<<"$output")" 2
	assert_equal "$(jq -r '[.commits[].subject] | join(",")' <<<"$output")" "a: wip,a: one"

	# 7. the page of the whole loop: a's session with its commits, the
	# force-push deny with its reason, a's snapshots with the command that
	# restores them, b's merge in the timeline (t0920 checks the page in
	# Chromium)
	run "$AG_BIN" report -o "$T/loop.html"
	assert_success
	page=$(cat "$T/loop.html")
	[[ "$page" == *"feat/a"* ]]
	[[ "$page" == *"a: wip"* && "$page" == *"a: one"* ]]
	reason=$(jq -r 'select(.event=="deny_force_no_lease") | .reason' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl" | head -1)
	[ -n "$reason" ]
	# the reason as the page escapes it for HTML
	esc=$(sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
		-e "s/'/\&#39;/g" -e 's/"/\&quot;/g' <<<"$reason")
	[[ "$page" == *"$esc"* ]] || fail "the deny's reason is not on the page"
	[[ "$page" == *"agentic-git snapshots restore"* ]]
	[[ "$page" != *"<script"* ]]
}
