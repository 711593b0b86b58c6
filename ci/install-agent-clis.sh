#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the agent CLIs whose flags the presets bake in (src/agents/presets.c)
# into a project-local npm prefix, never globally, so `agentic-git agents
# check` and tests/e2e/t0530-agents-check.bats can run them. Idempotent: a
# package already at the prefix is not reinstalled unless AG_CLIS_UPDATE=1.
# Needs node and npm (ci/install-deps.sh); gemini-cli needs node >= 20 (Debian
# 12's nodejs is 18: use NodeSource's, as this machine does, or gemini's check
# is skipped). cursor-agent is not on npm and is not installed here.
#
#   ci/install-agent-clis.sh            # installs into $AG_CLIS_PREFIX
#   PATH="$AG_CLIS_PREFIX/node_modules/.bin:$PATH" agentic-git agents check
set -eu

PREFIX=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}
PKGS="@anthropic-ai/claude-code @openai/codex @google/gemini-cli @github/copilot"

command -v npm >/dev/null 2>&1 || {
	echo "install-agent-clis: npm not found (run ci/install-deps.sh)" >&2
	exit 1
}
mkdir -p "$PREFIX"
missing=""
for p in $PKGS; do
	if [ "${AG_CLIS_UPDATE:-}" = 1 ] || [ ! -f "$PREFIX/node_modules/$p/package.json" ]; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "install-agent-clis: installing into $PREFIX:$missing" >&2
	# shellcheck disable=SC2086
	npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error $missing
fi
for p in $PKGS; do
	v=$(node -p "require('$PREFIX/node_modules/$p/package.json').version")
	echo "$p $v"
done
echo "bin: $PREFIX/node_modules/.bin"
