#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the agent CLIs whose flags the presets bake in (src/agents/presets.c)
# into a project-local npm prefix, never globally, so `agentic-git agents
# check` (t0531) and the end-to-end tests with the real CLIs (t0535) can run
# them. Versions are pinned: the presets and tests/helper/model-server.mjs
# were checked against exactly these (docs/configuration.md "Presets").
# Idempotent: a package already at its pinned version is not reinstalled.
# Needs node and npm (ci/install-deps.sh); gemini-cli needs node >= 20 (Debian
# 12's nodejs is 18: use NodeSource's, or gemini's check is skipped).
# cursor-agent is not on npm and is not installed here.
#
#   ci/install-agent-clis.sh            # installs into $AG_CLIS_PREFIX
#   PATH="$AG_CLIS_PREFIX/node_modules/.bin:$PATH" agentic-git agents check
set -eu

PREFIX=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}
# package@version, one per CLI; bump together with the presets' "checked" notes
PINS="@anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0
@google/gemini-cli@0.61.0 @github/copilot@1.0.102"
# the whole install is bounded: a registry that hangs fails the run
TIMEOUT=${AG_CLIS_TIMEOUT:-600}

command -v npm >/dev/null 2>&1 || {
	echo "install-agent-clis: npm not found (run ci/install-deps.sh)" >&2
	exit 1
}

installed() { # package: its version at the prefix, or nothing
	node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
		"$PREFIX/node_modules/$1/package.json"
}

mkdir -p "$PREFIX"
missing=""
for pin in $PINS; do
	pkg=${pin%@*}
	[ "$(installed "$pkg")" = "${pin##*@}" ] || missing="$missing $pin"
done
if [ -n "$missing" ]; then
	echo "install-agent-clis: installing into $PREFIX:$missing" >&2
	log=$PREFIX/npm-install.log
	# shellcheck disable=SC2086
	if ! timeout "$TIMEOUT" npm install --prefix "$PREFIX" --no-audit \
		--no-fund --loglevel=error --save-exact $missing >"$log" 2>&1; then
		echo "install-agent-clis: npm install of$missing failed or took over ${TIMEOUT}s (registry unreachable?); see $log" >&2
		exit 1
	fi
fi
for pin in $PINS; do
	pkg=${pin%@*}
	v=$(installed "$pkg")
	[ "$v" = "${pin##*@}" ] || {
		echo "install-agent-clis: $pkg is '$v' at $PREFIX, not the pinned ${pin##*@}" >&2
		exit 1
	}
	echo "$pkg $v"
done
echo "bin: $PREFIX/node_modules/.bin"
