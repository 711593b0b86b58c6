#!/bin/bash
# Scripted agent: rebases onto origin/<base> and resolves the CHANGELOG
# conflict mechanically (keeping both entries), like a careful agent would.
set -u
git=${REAL_GIT:-git}
"$git" rebase -q "origin/$AGENTIC_GIT_TARGET_BASE" >/dev/null 2>&1
if [ -d "$("$git" rev-parse --git-path rebase-merge)" ]; then
	{ echo "line 1"; echo "main entry"; grep '^feature' <("$git" show REBASE_HEAD:CHANGELOG); echo "line 2"; } >CHANGELOG.new
	mv CHANGELOG.new CHANGELOG
	"$git" add CHANGELOG
	GIT_EDITOR=true "$git" rebase --continue >/dev/null 2>&1 || exit 1
fi
echo "thinking..."
echo "RESOLVED: kept both changelog entries"
