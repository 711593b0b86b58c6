# SPDX-License-Identifier: Apache-2.0
# Sourced by bench/shim-bench.sh and bench/shim-order.sh: a small repository
# (200 files) and an agent's bound worktree in it, provisioned like an
# orchestrator provisions one (signed binding, session marker).
# Needs: W (a scratch directory), BIN (the agentic-git binary), SHIM (what
# <home>/bin/git points at). Sets: GIT, HOME, AGENTIC_GIT_*, WT.
GIT=$(command -v git)
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name b; git config --global user.email b@b
git config --global init.defaultBranch main

git init -q "$W/repo"
( cd "$W/repo"; for i in $(seq 1 200); do echo "$i" >"f$i"; done
  git add -A; git commit -qm init; git remote add origin "$W/origin.git" )
export AGENTIC_GIT_HOME=$W/ag AGENTIC_GIT_AGENT=bench AGENTIC_GIT_REAL_GIT=$GIT
mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime/bench"
ln -s "$SHIM" "$AGENTIC_GIT_HOME/bin/git"
TT=$(dirname "$BIN")/../tests/helper/test-tool
"$TT" key "$AGENTIC_GIT_HOME"
WT=$AGENTIC_GIT_HOME/worktrees/bench/feat/bench
git -C "$W/repo" worktree add -q -b feat/bench "$WT"
# the session marker, as `agentic-git run` writes it (the sibling boundary)
printf 'agent=bench\nleased_at=now\n' >"$WT/.agend-managed"
echo /.agend-managed >>"$W/repo/.git/info/exclude"
printf '{"version":1,"agent":"bench","task_id":"t","branch":"feat/bench","worktree":"%s"}' "$WT" \
	>"$AGENTIC_GIT_HOME/runtime/bench/binding.json"
"$TT" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/bench/binding.json"
