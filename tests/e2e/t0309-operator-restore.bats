#!/usr/bin/env bats
# The operator's one-command recovery (issue 17; PRODUCT.md §5 "who
# restores what"): the README's "session from start to end" exactly as
# written, from the operator's shell with no agent variables and the
# default home, and every bad input of operator list/restore.
load lib

setup() {
	ag_setup
	# the operator's shell: no agentic-git variables at all
	unset AGENTIC_GIT_HOME AGENTIC_GIT_REAL_GIT AGENTIC_GIT_AGENT
	PATH="$(dirname "$AG_BIN"):$PATH"
	echo "*.env" >"$REPO/.gitignore"
	"$REAL_GIT" -C "$REPO" add .gitignore
	"$REAL_GIT" -C "$REPO" commit -qm ignore
	# the scripted agent: real work of every kind, then a wipe, then a
	# newer edit of its own (what an undo of the restore brings back)
	cat >"$T/agent.sh" <<-'EOS'
	#!/bin/sh
	set -e
	echo edited >>README.md
	echo "int helper(void);" >>src/main.c && git add src/main.c
	echo staged >staged.txt && git add staged.txt
	echo notes >notes.txt
	mkdir -p build && echo obj >build/out.o && echo "*.o" >build/.gitignore
	echo "API_TOKEN=secret" >local.env
	sha256sum README.md src/main.c staged.txt notes.txt build/out.o build/.gitignore local.env >"$T/before.sum"
	git reset -q --hard
	git clean -fdxq
	echo "agent v2" >README.md
	EOS
	chmod +x "$T/agent.sh"
	WT=$HOME/.agentic-git/worktrees/ag1/feat/login
	cd "$REPO"
}

repo_state() { # the operator's checkout, byte for byte
	(cd "$REPO" && "$REAL_GIT" status --porcelain --ignored && find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
}

@test "README flow: the operator restores a wiped session with one command, and undoes it from anywhere" {
	run agentic-git run --agent ag1 --branch feat/login -- "$T/agent.sh"
	assert_success
	[ -d "$WT" ]
	[ ! -e "$WT/notes.txt" ]
	[ ! -e "$WT/local.env" ]
	# run's own hints are the README's commands, with the real path
	local list_hint restore_hint before_repo
	list_hint=$(echo "$output" | sed -n 's/^    list:    //p')
	restore_hint=$(echo "$output" | sed -n 's/^    restore: //p')
	assert_equal "$list_hint" "agentic-git snapshots list --repo $WT"
	assert_equal "$restore_hint" "agentic-git snapshots restore --repo $WT --since 1h"
	before_repo=$(repo_state)
	run agentic-git sessions
	assert_success
	assert_line --regexp "^ag1 +feat/login +dirty +2 "
	# list --repo <wt> shows both snapshots, whoever took them
	run agentic-git snapshots list --repo "$WT"
	assert_success
	assert_line --regexp "^refs/agentic-git/snapshots/ag1/[^ ]+-reset .* reset +ag1 +$WT\$"
	assert_line --regexp "^refs/agentic-git/snapshots/ag1/[^ ]+-clean .* clean +ag1 +$WT\$"
	# the README's command as run printed it, from the operator's checkout
	# shellcheck disable=SC2086
	run $restore_hint
	assert_success
	(cd "$WT" && sha256sum -c --quiet "$T/before.sum")
	# restores land unstaged
	assert_equal "$("$REAL_GIT" -C "$WT" diff --cached --name-only)" ""
	# the undo hint names --repo and works as printed from elsewhere
	local undo
	undo=$(echo "$output" | sed -n 's/^ *agentic-git snapshots restore //p' | tail -1)
	[[ "$undo" == "--repo $WT refs/agentic-git/snapshots/noagent/"*-restore ]]
	cd "$T"
	# shellcheck disable=SC2086
	run agentic-git snapshots restore $undo
	assert_success
	assert_equal "$(cat "$WT/README.md")" "agent v2"
	# restores never delete: what the first one brought back stays
	[ -f "$WT/notes.txt" ]
	[ -f "$WT/local.env" ]
	# the operator's own checkout was never touched
	assert_equal "$(repo_state)" "$before_repo"
	# and the restores are in the audit log of the default home
	run agentic-git events --event snapshot_restored --json
	assert_success
	[ "$(echo "$output" | jq -s 'length')" -ge 3 ]
}

@test "operator restore: several agents' snapshots in one work tree need --yes, --agent narrows" {
	run agentic-git run --agent ag1 --branch feat/login -- "$T/agent.sh"
	assert_success
	# the operator's own restore leaves a "noagent" snapshot in this tree
	run agentic-git snapshots restore --repo "$WT" --since 1h
	assert_success
	echo "operator edit" >"$WT/README.md"
	run agentic-git snapshots restore --repo "$WT"
	assert_failure 2
	assert_output --partial "refusing to guess"
	assert_output --partial "agentic-git snapshots restore --repo $WT --yes"
	assert_equal "$(cat "$WT/README.md")" "operator edit"
	# --agent narrows to that agent's snapshots in this tree: still two
	run agentic-git snapshots restore --repo "$WT" --agent ag1
	assert_failure 2
	refute_output --partial "agent noagent"
	run agentic-git snapshots restore --repo "$WT" --agent ag1 --yes
	assert_success
	assert_output --partial "-clean"
	# the clean snapshot was taken after the reset: README as at HEAD
	assert_equal "$(cat "$WT/README.md")" "hello"
	run agentic-git snapshots list --repo "$WT" --agent noagent --json
	assert_success
	[ "$(echo "$output" | jq -r '.[].agent' | sort -u)" = noagent ]
	# an agent still sees only its own
	run env AGENTIC_GIT_AGENT=ag2 agentic-git snapshots list --repo "$WT" --agent ag1
	assert_failure 2
	assert_output --partial "may only see its own snapshots"
	run env AGENTIC_GIT_AGENT=ag2 agentic-git snapshots restore --repo "$WT" --since 1h
	assert_failure 1
	assert_output --partial "no snapshots to restore from (agent 'ag2'"
}

@test "operator list: the main checkout has none of the session's, and says where they are" {
	run agentic-git run --agent ag1 --branch feat/login -- "$T/agent.sh"
	assert_success
	run agentic-git snapshots list
	assert_success
	assert_output --partial "(no snapshots)"
	assert_output --partial "2 in other work trees of the repository: agentic-git snapshots list --repo $REPO --all"
	run agentic-git snapshots list --all --agent ag1 --json
	assert_success
	assert_equal "$(echo "$output" | jq length)" 2
}

@test "operator bad input: one clear line each, nothing changed" {
	run agentic-git run --agent ag1 --branch feat/login -- "$T/agent.sh"
	assert_success
	local refs wt_state ref
	refs=$("$REAL_GIT" for-each-ref)
	wt_state=$(cd "$WT" && "$REAL_GIT" status --porcelain --ignored)
	before_repo=$(repo_state)
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/ag1/*-reset')
	# an agent nobody knows
	run agentic-git snapshots restore --repo "$WT" --agent nobody
	assert_failure 1
	assert_output "agentic-git: snapshots restore: no snapshots to restore from (agent 'nobody', work tree '$WT'); see: agentic-git snapshots list --all"
	run agentic-git snapshots list --repo "$WT" --agent nobody
	assert_failure 1
	assert_output "agentic-git: snapshots list: agent 'nobody' has no snapshots in this repository"
	run agentic-git snapshots restore --repo "$WT" --agent "../x"
	assert_failure 2
	# a --repo that is no work tree
	mkdir -p "$T/plain"
	run agentic-git snapshots restore --repo "$T/plain" --since 1h
	assert_failure 1
	assert_output --partial "snapshots restore: '$T/plain' is not a git work tree"
	[ "${#lines[@]}" -eq 1 ]
	run agentic-git snapshots list --repo "$T/missing"
	assert_failure 1
	assert_output --partial "is not a git work tree"
	# a snapshot restored into a checkout that is not its work tree
	run agentic-git snapshots restore --repo "$REPO" "$ref"
	assert_failure 1
	assert_output --partial "was taken in work tree '$WT', not in '$REPO'; nothing was changed. Restore it there: agentic-git snapshots restore --repo $WT $ref"
	[ "${#lines[@]}" -eq 1 ]
	# --agent must match a named ref
	run agentic-git snapshots show --repo "$WT" --agent ag2 "$ref"
	assert_failure 1
	assert_output --partial "belongs to agent 'ag1', not to 'ag2'"
	assert_equal "$("$REAL_GIT" for-each-ref)" "$refs"
	assert_equal "$(cd "$WT" && "$REAL_GIT" status --porcelain --ignored)" "$wt_state"
	assert_equal "$(repo_state)" "$before_repo"
	# --any-worktree is the explicit way into another checkout
	"$REAL_GIT" -C "$REPO" worktree add -q --detach "$T/other" feat/login
	run agentic-git snapshots restore --repo "$T/other" --any-worktree "$ref"
	assert_success
	assert_equal "$(cat "$T/other/staged.txt")" staged
}

@test "a directory named git on PATH is not taken for real git" {
	run agentic-git run --agent ag1 --branch feat/login -- "$T/agent.sh"
	assert_success
	mkdir -p "$T/trap/git"
	PATH="$T/trap:$PATH" run agentic-git snapshots list --repo "$WT"
	assert_success
	assert_output --partial "-reset"
	# nor a non-executable file
	mkdir -p "$T/trap2" && echo "#!/bin/sh" >"$T/trap2/git"
	PATH="$T/trap2:$PATH" run agentic-git snapshots list --repo "$WT"
	assert_success
	assert_output --partial "-clean"
}
