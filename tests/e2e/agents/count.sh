#!/bin/bash
# Scripted agent for the concurrency test: records start and end in a
# shared log under flock, then escalates (nothing to push).
set -u
exec 9>>"$COUNT_LOG"
flock 9; echo "start $AGENTIC_GIT_TARGET_KEY" >&9; flock -u 9
sleep 0.3
flock 9; echo "end $AGENTIC_GIT_TARGET_KEY" >&9; flock -u 9
echo "ESCALATED: counted"
