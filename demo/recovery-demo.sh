#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The recovery demo: two guarded sessions on a scratch repository; the demo
# agent (demo-agent.sh) tries to leave its branch, to read another agent's
# worktree, and wipes its own work with `reset --hard` and `clean -fdx`;
# then the operator gets every byte back. Every step is asserted; the exit
# status is 0 only if everything held.
#
#   demo/recovery-demo.sh <agentic-git binary>
set -eu

[ $# -eq 1 ] && [ -x "$1" ] || {
	echo "usage: demo/recovery-demo.sh <agentic-git binary>" >&2
	exit 2
}
AG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DEMO=$(cd "$(dirname "$0")" && pwd)
REAL_GIT=$(command -v git)
W=$(mktemp -d "${TMPDIR:-/tmp}/agentic-git-demo.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

# A world of its own: nothing of the user's git config or agentic-git home.
export HOME="$W/home"
export AGENTIC_GIT_HOME="$W/agentic-git"
export GIT_CONFIG_NOSYSTEM=1
unset AGENTIC_GIT_AGENT AGEND_INSTANCE_NAME AGEND_HOME AGENTIC_GIT_SNAPSHOTS \
	AGEND_GIT_SNAPSHOTS AGENTIC_GIT_REAL_GIT AGEND_REAL_GIT \
	GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR 2>/dev/null || true
mkdir -p "$HOME"
"$REAL_GIT" config --global user.name "Demo Operator"
"$REAL_GIT" config --global user.email operator@example.com
"$REAL_GIT" config --global init.defaultBranch main
"$REAL_GIT" config --global advice.detachedHead false

failures=0
say() { printf '\n== %s\n' "$*"; }
ok() { printf '   ok    %s\n' "$*"; }
bad() {
	printf '   FAIL  %s\n' "$*"
	failures=$((failures + 1))
}
check() { # DESCRIPTION CMD…
	d=$1
	shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}
contains() { grep -q -- "$2" "$1"; }
rc_is() { [ "$(cat "$1")" = "$2" ]; }

say "a scratch repository with a bare origin ($W)"
"$REAL_GIT" init -q --bare "$W/origin.git"
"$REAL_GIT" init -q "$W/repo"
cd "$W/repo"
mkdir src
printf '# demo app\n' >README.md
printf 'int main(void) { return 0; }\n' >src/app.c
printf '.env\n' >.gitignore
"$REAL_GIT" add -A
"$REAL_GIT" commit -q -m "initial import"
"$REAL_GIT" remote add origin "$W/origin.git"
"$REAL_GIT" push -q origin main
ok "repo at $W/repo, origin at $W/origin.git"

say "session 1: the other agent (agentic-git run --agent other --branch feat/other)"
"$AG" run --agent other --branch feat/other -- true 2>"$W/other.log"
OTHER=$AGENTIC_GIT_HOME/worktrees/other/feat/other
check "its worktree is $OTHER" [ -d "$OTHER" ]

say "session 2: the demo agent (agentic-git run --agent demo --branch feat/demo -- demo-agent.sh)"
LOG=$W/log
mkdir -p "$LOG"
set +e
"$AG" run --agent demo --branch feat/demo -- \
	"$DEMO/demo-agent.sh" "$OTHER" "$LOG" 2>"$W/session.log"
rc=$?
set -e
WT=$AGENTIC_GIT_HOME/worktrees/demo/feat/demo
check "the session ran and ended with the agent's status (0)" [ "$rc" = 0 ]
check "the agent's git was the shim ($AGENTIC_GIT_HOME/bin/git)" \
	contains "$LOG/git-path" "$AGENTIC_GIT_HOME/bin/git"
check "the session summary says how to end it" \
	contains "$W/session.log" "agentic-git end --agent demo"

say "the agent tried: git checkout main"
sed -n '1,2p' "$LOG/checkout-main.err" | sed 's/^/   | /'
check "denied (exit 1)" rc_is "$LOG/checkout-main.rc" 1
check "the reason is cross-branch" contains "$LOG/checkout-main.err" "cross-branch"
check "it names the assigned worktree" contains "$LOG/checkout-main.err" "$WT"
check "the demo worktree is still on feat/demo" \
	[ "$("$REAL_GIT" -C "$WT" branch --show-current)" = feat/demo ]

say "the agent tried: git -C <other agent's worktree> status"
sed -n '1p' "$LOG/cross-agent.err" | cut -c1-150 | sed 's/^/   | /'
check "denied (exit 1)" rc_is "$LOG/cross-agent.rc" 1
check "as a cross-agent access" contains "$LOG/cross-agent.err" "DENIED"

say "the agent wrote real work, then ran git reset --hard and git clean -fdx"
sed 's/^/   before: /' "$LOG/before"
check "reset --hard ran (exit 0)" rc_is "$LOG/reset-hard.rc" 0
check "clean -fdx ran (exit 0)" rc_is "$LOG/clean-fdx.rc" 0
check "the tracked edits are gone" \
	[ -z "$("$REAL_GIT" -C "$WT" status --porcelain --untracked-files=all)" ]
check "the new file is gone" [ ! -e "$WT/notes/plan.md" ]
check "the ignored .env is gone" [ ! -e "$WT/.env" ]
check "every fingerprint changed" sh -c "! grep -Fxf '$LOG/after' '$LOG/before'"
nsnap=$("$REAL_GIT" -C "$WT" for-each-ref --format='%(refname)' \
	"refs/agentic-git/snapshots/demo/" | wc -l)
check "the shim took snapshots before each wipe ($nsnap)" [ "$nsnap" -ge 2 ]
"$AG" sessions | sed 's/^/   | /'

say "the operator, one command: agentic-git snapshots restore --repo $WT --since 1h"
# As the operator (no agent variable): every snapshot taken in this work
# tree in the last hour, newest first: the clean snapshot (the new file; its
# quarantine holds the ignored .env), then the reset snapshot (the tracked
# edits), whose older state wins.
"$AG" snapshots restore --repo "$WT" --since 1h 2>&1 | sed 's/^/   | /'
cd "$WT"
for f in README.md src/app.c notes/plan.md .env; do
	if [ -f "$f" ]; then
		printf '%s %s\n' "$f" "$(cksum <"$f")"
	else
		printf '%s missing\n' "$f"
	fi
done >"$LOG/restored"
cd "$W"
sed 's/^/   after:  /' "$LOG/restored"
check "every byte came back (tracked edits, new file, ignored .env)" \
	cmp -s "$LOG/before" "$LOG/restored"
check "the restored work is left unstaged" \
	[ -z "$("$REAL_GIT" -C "$WT" diff --cached --name-only)" ]
check "the branch never moved off feat/demo" \
	[ "$("$REAL_GIT" -C "$WT" branch --show-current)" = feat/demo ]

say "cleaning up"
"$AG" end --agent other >/dev/null
"$AG" end --agent demo --force >/dev/null
check "both sessions ended (agentic-git end)" \
	[ "$("$REAL_GIT" -C "$W/repo" worktree list | wc -l)" = 1 ]

if [ "$failures" -ne 0 ]; then
	printf '\nrecovery demo: %d check(s) FAILED\n' "$failures"
	exit 1
fi
printf '\nrecovery demo: every check held; every byte of the wiped work came back\n'
