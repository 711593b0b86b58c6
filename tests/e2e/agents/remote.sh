#!/bin/bash
# Scripted agent that tries to reach the remote itself, through the git on
# its PATH (the shim) and through real git, then resolves normally.
set -u
{
	echo "== git fetch origin"; git fetch origin 2>&1; echo "rc=$?"
	echo "== git push origin"; git push origin HEAD:refs/heads/evil 2>&1; echo "rc=$?"
	echo "== git push own branch"; git push --force-with-lease origin "HEAD:$AGENTIC_GIT_TARGET_HEAD" 2>&1; echo "rc=$?"
	echo "== real git push origin"; "$REAL_GIT" push origin HEAD:refs/heads/evil 2>&1; echo "rc=$?"
	echo "== remotes"; "$REAL_GIT" remote -v; echo "rc=$?"
	echo "== credentials"; env | grep -E '^(SSH_AUTH_SOCK|GH_TOKEN|GITHUB_TOKEN|GIT_ASKPASS)=' ; echo "rc=$?"
} >"$PROBE_LOG"
"$AGENTS/resolve.sh"
