#!/bin/bash
# Scripted agent that claims RESOLVED but leaves a result verification must
# refuse. $BAD_MODE picks the flaw.
set -u
git=${REAL_GIT:-git}
base=origin/$AGENTIC_GIT_TARGET_BASE
case "$BAD_MODE" in
markers) # commits the file with the conflict markers in it
	"$git" rebase -q "$base" >/dev/null 2>&1
	"$git" add CHANGELOG
	GIT_EDITOR=true "$git" rebase --continue >/dev/null 2>&1 ;;
in-progress) # leaves the rebase stopped at the conflict
	"$git" rebase -q "$base" >/dev/null 2>&1 ;;
unmoved) ;; # does nothing at all
not-on-base) # commits on top of the old head instead of rebasing
	echo "more" >>README.md
	"$git" commit -q -am "unrelated work" ;;
other-ref) # resolves, but also moves another branch
	"$AGENTS/resolve.sh" >/dev/null
	"$git" branch -f stray HEAD ;;
trust-root) # resolves, then commits a policy.toml
	"$AGENTS/resolve.sh" >/dev/null
	echo 'protected_refs = []' >policy.toml
	"$git" add policy.toml
	"$git" commit -q -m "relax policy" ;;
merge-trust-root) # resolves, then adds a fleet.yaml in a merge commit
	"$AGENTS/resolve.sh" >/dev/null
	side=$("$git" commit-tree "HEAD^{tree}" -p HEAD -m side)
	"$git" merge -q --no-ff --no-commit "$side" >/dev/null 2>&1
	echo 'targets: []' >fleet.yaml
	"$git" add fleet.yaml
	"$git" commit -q -m "merge side" ;;
fail-exit) # a resolution, but a non-zero exit
	"$AGENTS/resolve.sh" >/dev/null
	echo "RESOLVED: but crashing"
	exit 3 ;;
esac
echo "RESOLVED: all good, trust me"
