#!/usr/bin/env bats
# agents check against the real agent CLIs installed by
# ci/install-agent-clis.sh (npm, project-local prefix). Each test skips,
# saying why, when its CLI is absent; AG_MUST_WORK=1 makes that a failure.
# Slow by nature: each CLI's --help starts a large node program.
load lib

setup() {
	CLIS=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}/node_modules/.bin
	T=$BATS_TEST_TMPDIR
	export HOME=$T/home AGENTIC_GIT_HOME=$T/aghome
	mkdir -p "$HOME" "$AGENTIC_GIT_HOME"
}

real_check() {
	local name=$1 bin=$2
	prereq "agent-cli-$bin (run ci/install-agent-clis.sh; looked in $CLIS)" test -x "$CLIS/$bin"
	PATH="$CLIS:/usr/bin:/bin" run "$AG_BIN" agents check "$name"
	assert_success
	assert_line --index 0 --regexp "^$name: ok: $CLIS/$bin accepts [0-9]+ flags \(checked 2026-11-29 against .*\)$"
	# claude, codex, gemini: git in their tool shell, run as they run it
	case $name in
	claude|codex|gemini) assert_line --index 1 "$name: ok: git in its tool shell ('/bin/bash -c') is the shim" ;;
	*) assert_equal "${#lines[@]}" 1 ;;
	esac
}

@test "agents check claude passes against the real claude CLI" { real_check claude claude; }
@test "agents check codex passes against the real codex CLI" { real_check codex codex; }
@test "agents check gemini passes against the real gemini CLI" {
	# gemini-cli 0.61 declares node >= 20; Debian 12's nodejs is 18, and
	# ci/install-agent-clis.sh then puts a node 20 beside the CLIs
	PATH="$CLIS:$PATH" prereq "node>=20 (gemini-cli needs it; run ci/install-agent-clis.sh)" \
		node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'
	real_check gemini gemini
}
@test "agents check copilot passes against the real copilot CLI" { real_check copilot copilot; }

