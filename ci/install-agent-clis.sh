#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the agent CLIs whose flags the presets bake in (src/agents/presets.c)
# into a project-local npm prefix, never globally, so `agentic-git agents
# check` (t0531) and the end-to-end tests with the real CLIs (t0535) can run
# them. Versions are pinned: the presets and tests/helper/model-server.mjs
# were checked against exactly these (docs/configuration.md "Presets").
# Idempotent: a package already at its pinned version is not reinstalled.
# Needs node and npm (ci/install-deps.sh). gemini-cli needs node >= 20 and
# Debian 12's nodejs is 18: when the node on PATH is older, a pinned node 20
# is installed into the same prefix from the npm registry (the official
# binary, packaged as node-linux-<arch>), and its bin/node is linked into
# node_modules/.bin, where the tests put it first on PATH (so every CLI's
# `#!/usr/bin/env node` runs with it). cursor-agent is not on npm and is not
# installed here.
#
#   ci/install-agent-clis.sh            # installs into $AG_CLIS_PREFIX
#   PATH="$AG_CLIS_PREFIX/node_modules/.bin:$PATH" agentic-git agents check
set -eu

PREFIX=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}
# package@version, one per CLI; bump together with the presets' "checked" notes
PINS="@anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0
@google/gemini-cli@0.61.0 @github/copilot@1.0.102"
# the node the CLIs need at least, and the one installed when PATH's is older
NODE_MIN=20
NODE_PIN=20.20.2
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

node_major() { # node binary: its major version, or 0
	"$1" -e 'console.log(process.versions.node.split(".")[0])' 2>/dev/null || echo 0
}

# npm_install WHAT…: one bounded npm install into the prefix, or one line.
# One quick retry: npm's default backoff spends over a minute on a registry
# that refuses connections before it says so.
npm_install() {
	log=$PREFIX/npm-install.log
	if ! timeout "$TIMEOUT" npm install --prefix "$PREFIX" --no-audit \
		--no-fund --loglevel=error --save-exact --fetch-retries=1 \
		--fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000 \
		"$@" >"$log" 2>&1; then
		echo "install-agent-clis: npm install of $* failed or took over ${TIMEOUT}s (registry unreachable?); see $log" >&2
		exit 1
	fi
}

mkdir -p "$PREFIX"
# node >= NODE_MIN: PATH's, else the pinned one in the prefix
if [ "$(node_major node)" -lt "$NODE_MIN" ]; then
	case $(uname -m) in
	x86_64) arch=x64 ;;
	aarch64) arch=arm64 ;;
	*) echo "install-agent-clis: no node package for $(uname -m) on npm; install node >= $NODE_MIN yourself" >&2
	   exit 1 ;;
	esac
	nodepkg=node-linux-$arch
	if [ "$(installed "$nodepkg")" != "$NODE_PIN" ]; then
		echo "install-agent-clis: node on PATH is older than $NODE_MIN: installing $nodepkg@$NODE_PIN into $PREFIX" >&2
		npm_install "$nodepkg@$NODE_PIN"
	fi
	nodebin=$PREFIX/node_modules/.bin/node
	[ "$(node_major "$nodebin")" = "${NODE_PIN%%.*}" ] || {
		echo "install-agent-clis: $nodepkg@$NODE_PIN at $PREFIX has no working bin/node" >&2
		exit 1
	}
	echo "node $("$nodebin" --version) ($nodepkg, npm registry)"
fi
missing=""
for pin in $PINS; do
	pkg=${pin%@*}
	[ "$(installed "$pkg")" = "${pin##*@}" ] || missing="$missing $pin"
done
if [ -n "$missing" ]; then
	echo "install-agent-clis: installing into $PREFIX:$missing" >&2
	# shellcheck disable=SC2086
	npm_install $missing
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
