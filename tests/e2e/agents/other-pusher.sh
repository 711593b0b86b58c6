#!/bin/bash
# Scripted agent that resolves while "someone else" pushes to the same
# branch on origin from another clone (the lease must refuse our push).
set -u
"$REAL_GIT" -C "$OTHER_CLONE" push -q origin "HEAD:refs/heads/$AGENTIC_GIT_TARGET_HEAD" >&2
"$AGENTS/resolve.sh"
