#!/usr/bin/env bats
# agentic-git review (PRODUCT.md §13; fleet/review.h invariants).
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/loop-home
	cd "$REPO"
}

# session AGENT SCRIPT: a session on agent/AGENT that runs SCRIPT with the
# shim as git.
session() {
	"$AG_BIN" run --agent "$1" --branch "agent/$1" -- sh -c "$2" 2>/dev/null
}

@test "review: --help, and bad usage changes nothing" {
	run "$AG_BIN" review --help
	assert_success
	assert_output --partial "usage: agentic-git review --agent NAME [--patch] [--json]"
	run "$AG_BIN" review
	assert_equal "$status" 2
	assert_output --partial "review: --agent NAME is required"
	run "$AG_BIN" review --agent 'Bad Name'
	assert_equal "$status" 2
	assert_output --partial "invalid agent name"
	run "$AG_BIN" review --agent nobody
	assert_equal "$status" 1
	assert_output --partial "no session for agent 'nobody'"
	run "$AG_BIN" review --agent nobody --frob
	assert_equal "$status" 2
}

@test "review: commits with trailers, diffstat, patch, denies and snapshots" {
	session r1 'echo more >>README.md && git commit -qam "extend readme" &&
		echo x >new.txt && git add new.txt && git commit -qm "add new" &&
		git reset -q --hard HEAD~1; git push -q --force origin main; true'
	run "$AG_BIN" review --agent r1
	assert_success
	assert_output --partial "base:      main"
	assert_output --partial "1 ahead, 0 behind"
	assert_output --partial "extend readme"
	assert_output --partial "Agentic-Task: run-session-"
	assert_output --partial "+1      -0      README.md"
	assert_output --partial "denies (1):"
	assert_output --partial "git push: bare force-push denied"
	assert_output --partial "snapshots (1):"
	assert_output --partial "restore: agentic-git snapshots restore --repo"
	refute_output --partial "new.txt"
	run "$AG_BIN" review --agent r1 --json --patch
	assert_success
	j=$output
	assert_equal "$(jq -r .base <<<"$j")" main
	assert_equal "$(jq -r .ahead <<<"$j")" 1
	assert_equal "$(jq -r .head_oid <<<"$j")" "$("$REAL_GIT" rev-parse agent/r1)"
	assert_equal "$(jq -r '.commits[0].subject' <<<"$j")" "extend readme"
	assert_equal "$(jq -r '.commits[0].trailers[] | select(.key=="Agentic-Agent") | .value' <<<"$j")" r1
	assert_equal "$(jq -r '.diffstat.files[0].path' <<<"$j")" README.md
	assert_equal "$(jq -r '.denies[0].event' <<<"$j")" deny_force_no_lease
	assert_equal "$(jq -r '.snapshots | length' <<<"$j")" 1
	[[ "$(jq -r .patch <<<"$j")" == *"+more"* ]]
	# nothing was written: the operator's checkout and refs are as they were
	assert_equal "$("$REAL_GIT" status --porcelain)" ""
}

@test "review: agent-written names and subjects stay inert; JSON keeps them exact" {
	esc=$(printf '\033')
	session r2 "printf x >\"evil${esc}[2J.txt\" && git add -A &&
		git commit -qm \"subject ${esc}]0;owned${esc}\\\\ done\""
	run "$AG_BIN" review --agent r2 --patch
	assert_success
	[[ "$output" != *"$esc"* ]]
	assert_output --partial 'evil\x1b[2J.txt'
	assert_output --partial 'subject \x1b]0;owned\x1b\\ done'
	run "$AG_BIN" review --agent r2 --json
	assert_success
	assert_equal "$(jq -r '.diffstat.files[0].path' <<<"$output")" "evil${esc}[2J.txt"
	assert_equal "$(jq -r '.commits[0].subject' <<<"$output")" "subject ${esc}]0;owned${esc}\\ done"
}

@test "review: no repository driver, textconv or external diff runs (issue 32 boundary)" {
	session r3 'printf "*.txt diff=evil\n" >.gitattributes && echo a >a.txt &&
		git add -A && git commit -qm attrs'
	"$REAL_GIT" config diff.evil.textconv "sh -c 'touch $T/pwned-textconv; cat \"\$0\"'"
	"$REAL_GIT" config diff.external "sh -c 'touch $T/pwned-external'"
	echo '* diff=evil' >"$REPO/.git/info/attributes"
	# the trap is armed: plain git runs it
	"$REAL_GIT" diff main agent/r3 >/dev/null 2>&1 || true
	"$REAL_GIT" diff --no-ext-diff main agent/r3 >/dev/null
	[ -e "$T/pwned-external" ] && [ -e "$T/pwned-textconv" ]
	rm -f "$T"/pwned-*
	GIT_EXTERNAL_DIFF="sh -c 'touch $T/pwned-env'" run "$AG_BIN" review --agent r3 --patch
	assert_success
	assert_output --partial "+a"
	[ ! -e "$T/pwned-textconv" ]
	[ ! -e "$T/pwned-external" ]
	[ ! -e "$T/pwned-env" ]
}

@test "review: files another live session also changed" {
	session o1 'echo one >>README.md && git commit -qam one'
	session o2 'echo two >>README.md && echo s >solo.txt && git add -A && git commit -qm two'
	run "$AG_BIN" review --agent o1 --json
	assert_success
	assert_equal "$(jq -c .overlap <<<"$output")" '[{"path":"README.md","agents":["o2"]}]'
	run "$AG_BIN" review --agent o2
	assert_output --partial "also changed by another live session (1):"
	assert_output --partial "README.md  (o1)"
	refute_output --partial "solo.txt  ("
}

@test "review: a forged binding is not acted on" {
	session f1 'echo f >>README.md && git commit -qam f'
	sed -i 's/agent\/f1/main/' "$AGENTIC_GIT_HOME/runtime/f1/binding.json"
	run "$AG_BIN" review --agent f1
	assert_equal "$status" 1
	assert_output --partial "forged"
}
