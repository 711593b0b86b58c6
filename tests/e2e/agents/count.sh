#!/bin/bash
# Scripted agent for the concurrency test: records start and end in a
# shared log under flock, then escalates (nothing to push). The first
# target (k01) waits until the second has started, which only happens if
# the pool really runs agents side by side (capped at 60 s).
set -u
exec 9>>"$COUNT_LOG"
flock 9; echo "start $AGENTIC_GIT_TARGET_KEY" >&9; flock -u 9
if [ "$AGENTIC_GIT_TARGET_KEY" = k01 ]; then
	for _ in $(seq 600); do
		grep -q '^start k02$' "$COUNT_LOG" && break
		sleep 0.1
	done
	grep -q '^start k02$' "$COUNT_LOG" && echo "barrier ok" >>"$COUNT_LOG.barrier"
fi
sleep 0.2
flock 9; echo "end $AGENTIC_GIT_TARGET_KEY" >&9; flock -u 9
echo "ESCALATED: counted"
