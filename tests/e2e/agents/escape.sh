#!/bin/bash
# Scripted agent that tries to get out of its sandbox, then resolves
# normally. Paths come from the profile's env allowlist: ESC_KEY (a private
# key in the operator's HOME), ESC_REPO (the operator's clone), ESC_ORIGIN
# (the bare origin), ESC_OUT (a directory outside the workspace), ESC_PORT
# (a loopback listener), ESC_HELPER (sbx-helper). Every attempt prints
# "rc-<what>=N" so the test can see it failed rather than not run.
set -u
cat "$ESC_KEY" 2>&1; echo "rc-read-key=$?"
# the fleet's integrity key never enters the cage (a key of this session does)
cat "$AGENTIC_GIT_HOME/.config-integrity-key" >/dev/null 2>&1; echo "rc-read-fleet-key=$?"
cat "$ESC_REPO/README.md" "$ESC_REPO/.git/config" 2>&1; echo "rc-read-clone=$?"
# bwrap: these may "succeed" on the sandbox's own throwaway root; the test
# checks that nothing appears on the host.
(echo x >"$ESC_REPO/planted") 2>&1; echo "rc-write-clone=$?"
(echo x >"$ESC_OUT/planted") 2>&1; echo "rc-write-outside=$?"
"$REAL_GIT" push "$ESC_ORIGIN" HEAD:refs/heads/evil 2>&1; echo "rc-push=$?"
"$ESC_HELPER" connect "$ESC_PORT" 2>&1; echo "rc-connect=$?"
git checkout -q main 2>&1; echo "rc-checkout=$?"   # the shim denies it
echo "== escape-done"
exec "${0%/*}/resolve.sh"
