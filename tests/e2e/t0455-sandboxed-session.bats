#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Sandboxed sessions behave like plain ones (issue 17): the same --base
# default, the marker kept out of commits, the identity git resolves
# outside, the branch brought back at exit, re-entry, and nothing the
# agent wrote into its workspace's config ever runs outside the sandbox
# (fleet/session-sync.h invariants 1-6). Every case runs on bubblewrap and
# on Landlock.
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin"
	# the operator's identity comes only from the environment (a CI
	# machine): nothing in any config file
	[ -z "$("$REAL_GIT" config --global user.name)" ]
	[ -z "$("$REAL_GIT" config --global user.email)" ]
	export GIT_AUTHOR_NAME="Env Author" GIT_AUTHOR_EMAIL=env-author@example.com
	export GIT_COMMITTER_NAME="Env Committer" GIT_COMMITTER_EMAIL=env-committer@example.com
	# the scripted agent: its task is its second argument
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	case $2 in
	noop) ;;
	commit*)
		echo "$2" >>work.txt
		git add -A && git commit -q -m "$2" && echo "COMMIT:ok"
		git log -1 --format='IDENT:%an <%ae>|%cn <%ce>'
		git log --format='LOG:%s'
		git ls-files | sed 's/^/FILE:/'
		;;
	plant*)
		# what a hostile agent leaves for whoever runs git here next:
		# snapshot refs (its own, another agent's), then hooks and config
		set -- $2
		mark=$2
		shift 2
		head=$(git rev-parse HEAD)
		for r in "$@"; do
			mkdir -p "$(dirname ".git/refs/agentic-git/snapshots/$r")"
			echo "$head" >".git/refs/agentic-git/snapshots/$r"
		done
		printf '#!/bin/sh\necho "$0 $*" >>"%s"\nexit 0\n' "$mark" >.git/evil.sh
		chmod +x .git/evil.sh
		mkdir -p .git/evil-hooks
		for h in reference-transaction post-update post-checkout pre-commit post-commit post-index-change; do
			cp .git/evil.sh ".git/evil-hooks/$h"
		done
		e=$PWD/.git/evil.sh
		printf '[core]\n\tfsmonitor = %s\n\thooksPath = %s\n\tsshCommand = %s\n\tpager = %s\n[diff]\n\texternal = %s\n[filter "evil"]\n\tclean = %s\n\tsmudge = %s\n\trequired = true\n[uploadpack]\n\tpackObjectsHook = %s\n' \
			"$e" "$PWD/.git/evil-hooks" "$e" "$e" "$e" "$e" "$e" "$e" >.git/evil.config
		cat .git/evil.config >>.git/config
		echo '* filter=evil' >.git/info/attributes
		echo "PLANTED:ok"
		;;
	esac
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

# use_backend BACKEND: skip (AG_MUST_WORK=1: fail) unless the host runs it,
# and write a config whose profiles are sandboxed by it (fs+no-net for
# bwrap, fs-only for Landlock) next to a plain one.
use_backend() {
	sbx_scripted_config "$1"
	BACKEND=$1
	cat >>"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	  plain:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}"]
	    env: []
	    sandbox: none
	EOF
	WS=$AGENTIC_GIT_HOME/worktrees/a1/feat/x
}

# agent TASK [run options]: the scripted sandboxed agent as a1 on feat/x
agent() {
	local task=$1
	shift
	run "$AG_BIN" run --agent a1 --branch feat/x "$@" --profile scripted --prompt "$task"
}

# rev REV: what REV names in the operator's clone.
rev() {
	"$REAL_GIT" -C "$REPO" rev-parse "$@"
}

# no_ref REF: the operator's clone has no such ref.
no_ref() {
	if "$REAL_GIT" -C "$REPO" rev-parse -q --verify "$1"; then
		fail "'$1' exists in the operator's clone"
	fi
}

# The whole state a refused run must leave as it was.
state() {
	"$REAL_GIT" -C "$REPO" for-each-ref
	"$REAL_GIT" -C "$REPO" worktree list --porcelain
	[ ! -d "$WS/.git" ] || "$REAL_GIT" -C "$WS" for-each-ref
	find "$AGENTIC_GIT_HOME/runtime" "$AGENTIC_GIT_HOME/worktrees" -maxdepth 3 2>/dev/null | sort
}

case_starts_and_comes_back() {
	local head
	head=$(rev HEAD)
	# no --base: the session starts at the repository's HEAD, as a plain one
	agent "commit one"
	assert_success
	assert_output --partial "COMMIT:ok"
	[ -d "$WS/.git" ] # a private workspace, not a linked worktree
	assert_equal "$("$REAL_GIT" -C "$WS" rev-parse HEAD~1)" "$head"
	# git add -A did not commit the session marker
	[ -f "$WS/.agend-managed" ]
	assert_output --partial "FILE:work.txt"
	refute_output --partial "FILE:.agend-managed"
	assert_equal "$("$REAL_GIT" -C "$WS" ls-tree -r --name-only HEAD)" "README.md
src/main.c
work.txt"
	# at exit the operator's clone has the branch at the agent's commit
	assert_equal "$(rev feat/x)" "$(head_of "$WS")"
	"$REAL_GIT" -C "$REPO" fsck --no-dangling --connectivity-only
	# any commit-ish is a base: a tag
	"$REAL_GIT" -C "$REPO" tag v1 HEAD
	run "$AG_BIN" run --agent a2 --branch feat/y --base v1 --profile scripted --prompt "commit two"
	assert_success
	assert_equal "$(rev feat/y~1)" "$head"
}

case_identity_from_env() {
	agent "commit with env identity"
	assert_success
	assert_output --partial "IDENT:Env Author <env-author@example.com>|Env Committer <env-committer@example.com>"
	assert_equal "$("$REAL_GIT" -C "$REPO" log -1 --format='%an <%ae>|%cn <%ce>' feat/x)" \
		"Env Author <env-author@example.com>|Env Committer <env-committer@example.com>"
}

case_reentry() {
	local first
	agent "commit first"
	assert_success
	first=$(head_of "$WS")
	agent "commit second"
	assert_success
	assert_output --partial "LOG:commit first"
	assert_equal "$("$REAL_GIT" -C "$WS" rev-parse HEAD~1)" "$first"
	# fast-forwarded in the operator's clone
	assert_equal "$(rev feat/x)" "$(head_of "$WS")"
	assert_equal "$(rev feat/x~1)" "$first"
}

case_kind_mismatch() {
	local before
	# a private workspace re-entered with a plain command
	agent "commit one"
	assert_success
	before=$(state)
	run "$AG_BIN" run --agent a1 --branch feat/x -- true
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_output --partial "is a sandboxed one (a private workspace)"
	assert_output --partial "end it first: agentic-git end --agent a1"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile plain --prompt noop
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_equal "$(state)" "$before"
	# a plain session re-entered with a sandboxed profile
	run "$AG_BIN" run --agent b1 --branch feat/b -- true
	assert_success
	before=$(state)
	run "$AG_BIN" run --agent b1 --branch feat/b --profile scripted --prompt noop
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_output --partial "is a plain worktree, and a sandboxed profile needs a private workspace"
	assert_output --partial "End it first: agentic-git end --agent b1"
	assert_equal "$(state)" "$before"
}

case_diverged() {
	local op ws_tip
	agent "commit one"
	assert_success
	# the operator moves the branch on in the clone meanwhile
	"$REAL_GIT" -C "$REPO" checkout -q feat/x
	echo operator >operator.txt
	"$REAL_GIT" -C "$REPO" add operator.txt
	"$REAL_GIT" -C "$REPO" commit -q -m "operator work"
	"$REAL_GIT" -C "$REPO" checkout -q main
	op=$(rev feat/x)
	agent "commit two"
	assert_success
	ws_tip=$(head_of "$WS")
	assert_output --partial "branch 'feat/x' in '$REPO' has commits the private workspace lacks"
	assert_output --partial "kept as refs/agentic-git/sessions/a1/feat/x"
	# the operator's branch is kept, the tip is under the named ref
	assert_equal "$(rev feat/x)" "$op"
	assert_equal "$(rev refs/agentic-git/sessions/a1/feat/x)" "$ws_tip"
	"$REAL_GIT" -C "$REPO" cat-file -e "$ws_tip^{tree}"
	# a branch checked out in the clone is not moved from under its files
	"$REAL_GIT" -C "$REPO" checkout -q feat/x
	"$REAL_GIT" -C "$REPO" reset -q --hard "$ws_tip"
	agent "commit three"
	assert_success
	assert_output --partial "branch 'feat/x' in '$REPO' is checked out in a worktree of that clone"
	assert_equal "$(rev feat/x)" "$ws_tip"
	assert_equal "$(rev refs/agentic-git/sessions/a1/feat/x)" "$(head_of "$WS")"
	assert_equal "$("$REAL_GIT" -C "$REPO" status --porcelain)" ""
}

case_quiet_stdout() {
	# run prints nothing of its own on stdout, sandboxed or not
	"$AG_BIN" run --agent q1 --branch feat/q1 -- true >"$T/out" 2>"$T/err"
	assert_equal "$(cat "$T/out")" ""
	"$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt noop >"$T/out" 2>"$T/err"
	assert_equal "$(cat "$T/out")" ""
	grep -q "session ended (exit 0)" "$T/err"
}

# keep_plant: a copy of what the agent planted, outside the workspace.
keep_plant() {
	mkdir -p "$T/plant"
	cp -r "$WS/.git/evil.sh" "$WS/.git/evil-hooks" "$T/plant/"
	sed "s|$WS/.git|$T/plant|" "$WS/.git/evil.config" >"$T/plant/config"
	grep -q fsmonitor "$T/plant/config"
}

# Control: that plant runs when git runs with it (in a clone of ours).
plant_would_run() {
	"$REAL_GIT" clone -q "$REPO" "$T/control"
	cat "$T/plant/config" >>"$T/control/.git/config"
	echo x >>"$T/control/README.md"
	"$REAL_GIT" -C "$T/control" commit -qam control
	[ -s "$T/pwned" ]
}

# bound REF COMMIT: REF in the clone is agentic-git's commit for the
# agent's COMMIT: its tree and parents, the session's agent and workspace
# (fleet/snapshot-bind.h, issue 32 W4)
bound() {
	assert_equal "$(rev "$1^{tree}")" "$(rev "$2^{tree}")"
	assert_equal "$("$REAL_GIT" -C "$REPO" log -1 --format='%P|%an' "$1")" \
		"$("$REAL_GIT" -C "$REPO" log -1 --format=%P "$2")|agentic-git"
	"$REAL_GIT" -C "$REPO" log -1 --format=%B "$1" | grep -qx 'Agentic-Snapshot-Agent: a1'
	"$REAL_GIT" -C "$REPO" log -1 --format=%B "$1" | grep -qx "Agentic-Snapshot-Worktree: $WS"
}

case_plants_never_run() {
	# snapshot names of now: end prunes old ones in the workspace
	local clash tip now mine later packed
	now=$(date -u +%Y%m%dT%H%M%SZ)
	mine=a1/$now-901-mine later=a1/$now-902-later packed=a1/$now-903-packed
	"$REAL_GIT" -C "$REPO" update-ref refs/agentic-git/snapshots/a1/clash HEAD
	clash=$(rev refs/agentic-git/snapshots/a1/clash)
	agent "commit one"
	assert_success
	agent "plant $T/pwned $mine a1/mine a1/clash other/planted"
	assert_success
	assert_output --partial "PLANTED:ok"
	[ ! -e "$T/pwned" ] # invariant 1: not at exit
	# invariant 6: the config is provisioning's again
	cmp "$WS/.git/config" "$AGENTIC_GIT_HOME/runtime/a1/workspace.config"
	assert_equal "$(rev feat/x)" "$(head_of "$WS")"
	# invariant 4: only a1's own new snapshot refs came back, bound to
	# the session; a name that is no snapshot's stays behind
	bound "refs/agentic-git/snapshots/$mine" "$(head_of "$WS")"
	assert_output --partial "snapshot ref 'refs/agentic-git/snapshots/a1/mine' of the private workspace is not a snapshot of agent 'a1': not imported"
	no_ref refs/agentic-git/snapshots/a1/mine
	no_ref refs/agentic-git/snapshots/other/planted
	assert_equal "$(rev refs/agentic-git/snapshots/a1/clash)" "$clash"
	# something left running in the workspace plants it all again, and
	# packs refs (read from packed-refs, never by git there)
	tip=$(head_of "$WS")
	(cd "$WS" && "$T/bin/agent.sh" --task "plant $T/pwned $later other/later")
	printf '%s refs/agentic-git/snapshots/%s\n' "$tip" "$packed" "$tip" other/packed \
		>>"$WS/.git/packed-refs"
	keep_plant
	echo wip >"$WS/wip.txt"
	# the operator's own looks at the workspace run none of it either
	run "$AG_BIN" sessions
	assert_success
	run "$AG_BIN" snapshots list --repo "$WS"
	assert_success
	run "$AG_BIN" snapshots restore --repo "$WS" --since 1h
	assert_output --partial "no snapshots to restore from"
	[ ! -e "$T/pwned" ]
	run "$AG_BIN" end --agent a1 --force
	assert_success
	[ ! -e "$T/pwned" ] # nor by end (status, snapshot, sync)
	[ ! -e "$WS" ]
	"$REAL_GIT" -C "$REPO" for-each-ref refs/agentic-git/snapshots/a1/ | grep -q -- '-end$'
	bound "refs/agentic-git/snapshots/$later" "$tip"
	bound "refs/agentic-git/snapshots/$packed" "$tip"
	no_ref refs/agentic-git/snapshots/other/planted
	no_ref refs/agentic-git/snapshots/other/later
	no_ref refs/agentic-git/snapshots/other/packed
	assert_equal "$(rev refs/agentic-git/snapshots/a1/clash)" "$clash"
	plant_would_run
}

@test "bwrap: a session without --base starts at HEAD, commits no marker, its branch comes back at exit" {
	use_backend bwrap
	case_starts_and_comes_back
}

@test "landlock: a session without --base starts at HEAD, commits no marker, its branch comes back at exit" {
	use_backend landlock
	case_starts_and_comes_back
}

@test "bwrap: an identity only in the environment commits inside the sandbox" {
	use_backend bwrap
	case_identity_from_env
}

@test "landlock: an identity only in the environment commits inside the sandbox" {
	use_backend landlock
	case_identity_from_env
}

@test "bwrap: re-entry sees the earlier commit and fast-forwards the branch" {
	use_backend bwrap
	case_reentry
}

@test "landlock: re-entry sees the earlier commit and fast-forwards the branch" {
	use_backend landlock
	case_reentry
}

@test "bwrap: a plain session and a private workspace are not re-entered as each other" {
	use_backend bwrap
	case_kind_mismatch
}

@test "landlock: a plain session and a private workspace are not re-entered as each other" {
	use_backend landlock
	case_kind_mismatch
}

@test "bwrap: a diverged or checked-out operator branch is kept, the tip lands under the session ref" {
	use_backend bwrap
	case_diverged
}

@test "landlock: a diverged or checked-out operator branch is kept, the tip lands under the session ref" {
	use_backend landlock
	case_diverged
}

@test "bwrap: a clone with an extension we do not know: its refs and worktrees come from git" {
	# the format gate (docs/architecture.md) leaves such a clone's refs
	# and HEAD files to git; git 2.39 ignores the extension at version 0
	use_backend bwrap
	"$REAL_GIT" -C "$REPO" config extensions.laterFeature true
	case_diverged
}

@test "bwrap: run prints nothing on stdout" {
	use_backend bwrap
	case_quiet_stdout
}

@test "landlock: run prints nothing on stdout" {
	use_backend landlock
	case_quiet_stdout
}

@test "bwrap: planted fsmonitor, hooks, ssh, pager, external diff, filter or upload-pack hook never run at exit, by the operator or by end" {
	use_backend bwrap
	case_plants_never_run
}

@test "landlock: planted fsmonitor, hooks, ssh, pager, external diff, filter or upload-pack hook never run at exit, by the operator or by end" {
	use_backend landlock
	case_plants_never_run
}
