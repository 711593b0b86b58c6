#!/bin/bash
# Scripted agent: resolves like resolve.sh, commits a note through the
# shim (`git` on its PATH) and one with real git and none of the session's
# variables, then tries, with real git and none of the
# session's variables, the ref moves only the reference-transaction hook
# can stop, reporting each as "MOVED <ref>" or "REFUSED <ref>: <why>"; and
# whether it could open its session's hook and binding for writing
# ("WRITABLE <what>"). With ATTRIB_TAMPER=1 it then rewrites its session
# marker to name no session and tries a new branch again.
set -u
"${0%/*}/resolve.sh" >/dev/null || exit 1
real=${AGENTIC_GIT_REAL_GIT:-${REAL_GIT:-git}}
echo "a note" >NOTES.md
git add NOTES.md && git commit -q -m "agent note" || exit 1
# a commit past the shim with the session's variables stripped
env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$real" commit -q --allow-empty -m "stripped" || exit 1
try() {
	local ref=$1 out
	shift
	if out=$(env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$real" "$@" 2>&1); then
		echo "MOVED $ref"
	else
		echo "REFUSED $ref: $out" | head -1
	fi
}
try refs/heads/main update-ref refs/heads/main HEAD
try refs/heads/master fetch -q . HEAD:refs/heads/master
try refs/agentic-git/snapshots/other update-ref refs/agentic-git/snapshots/other/20990101T000000Z-0-forged HEAD
# opened for appending, nothing written: a probe, not a change
hooks=$("$real" config core.hooksPath)
(: >>"$hooks/prepare-commit-msg") 2>/dev/null && echo "WRITABLE hook"
(: >>"$AGENTIC_GIT_HOME/runtime/$AGENTIC_GIT_AGENT/binding.json") 2>/dev/null &&
	echo "WRITABLE binding"
if [ "${ATTRIB_TAMPER:-}" = 1 ]; then
	try refs/heads/before update-ref refs/heads/before HEAD
	echo "agent=nobody" >.agend-managed
	try refs/heads/after update-ref refs/heads/after HEAD
fi
echo "RESOLVED: kept both changelog entries, added a note"
