#!/bin/bash
# Scripted agent: meets a conflict, aborts the rebase and escalates.
set -u
git=${REAL_GIT:-git}
if ! "$git" rebase -q "origin/$AGENTIC_GIT_TARGET_BASE" >/dev/null 2>&1; then
	"$git" rebase --abort
	printf 'status: ESCALATED\nhead: %s\nbase: %s\nconflict: CHANGELOG\n' \
		"$AGENTIC_GIT_TARGET_HEAD" "$AGENTIC_GIT_TARGET_BASE" >ESCALATION.md
	echo "\`ESCALATED: CHANGELOG needs a human\`"
	exit 0
fi
echo "RESOLVED: no conflict"
