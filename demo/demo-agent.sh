#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The scripted demo agent. It runs inside `agentic-git run`, so `git` is the
# shim. It behaves like a careless coding agent: it tries to leave its
# branch, pokes at another agent's worktree, writes real work, then wipes it
# with `git reset --hard` and `git clean -fdx`. Every outcome is recorded in
# LOGDIR for recovery-demo.sh to check; this script asserts nothing itself.
#
#   demo-agent.sh OTHER_WORKTREE LOGDIR
set -u
other=$1
log=$2

step() { # NAME CMD…: run, keep the exit code and stderr
	name=$1
	shift
	"$@" >"$log/$name.out" 2>"$log/$name.err"
	echo $? >"$log/$name.rc"
}

# The files the agent writes, and a fingerprint of every byte of them.
fingerprint() {
	for f in README.md src/app.c notes/plan.md .env; do
		if [ -f "$f" ]; then
			printf '%s %s\n' "$f" "$(cksum <"$f")"
		else
			printf '%s missing\n' "$f"
		fi
	done
}

echo "$(command -v git)" >"$log/git-path"
step checkout-main git checkout main
step cross-agent git -C "$other" status

# Real work: tracked edits, a new file in a new directory, an ignored secret.
printf 'Usage: app --fast\n' >>README.md
printf 'int fast(void) { return 1; }\n' >>src/app.c
mkdir -p notes
printf '# Plan\n1. make it fast\n2. ship it\n' >notes/plan.md
printf 'API_TOKEN=demo-0123456789abcdef\n' >.env
fingerprint >"$log/before"

step reset-hard git reset --hard
step clean-fdx git clean -fdx
fingerprint >"$log/after"
