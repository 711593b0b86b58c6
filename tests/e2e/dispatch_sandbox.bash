# SPDX-License-Identifier: Apache-2.0
# Helpers for the sandboxed dispatch tests (t0709, t0710): a private key in
# the operator's HOME, a directory outside every workspace, and a config
# whose default profile `boxed` asks for a sandbox.
#
#   load lib; load dispatch; load sandbox_cases; load dispatch_sandbox
#   setup() { dsb_setup; }
#   boxed_config bwrap fs+no-net "$AGENTS/resolve.sh" ["extra top-level YAML"]

dsb_setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
	mkdir -p "$HOME/.ssh" "$T/outside"
	echo "-----BEGIN OPENSSH PRIVATE KEY----- dsb-test-key" >"$HOME/.ssh/id_rsa"
	chmod 600 "$HOME/.ssh/id_rsa"
	MARK=agtest-$$-$RANDOM
	export MARK
}

# boxed_config BACKEND POLICY COMMAND [EXTRA]: default_agent `boxed`, plus
# an unsandboxed `plain` profile running the same command; $DSB_ENV
# overrides their env allowlist.
boxed_config() {
	local backend=$1 policy=$2 cmd=$3 extra=${4-}
	local env=${DSB_ENV:-"[REAL_GIT, GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME, GIT_COMMITTER_EMAIL, SBX_TOKEN, ESC_KEY, ESC_REPO, ESC_ORIGIN, ESC_OUT, ESC_PORT, ESC_HELPER, MARK, HANG_DAEMON]"}
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-YAML
	default_agent: boxed
	sandbox_backend: $backend
	$extra
	agents:
	  boxed:
	    command: [$cmd]
	    prompt_via: stdin
	    env: $env
	    ro_binds: [$AGENTS, $SBX_HELPER_DIR]
	    sandbox: $policy
	  plain:
	    command: [$cmd]
	    prompt_via: stdin
	    env: $env
	    sandbox: none
	YAML
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

# survivors: processes whose command line carries $MARK.
survivors() {
	pgrep -f -- "$MARK" || true
}
