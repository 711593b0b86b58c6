#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The real sandbox, backend landlock, both policies: what an agent cannot do
# (read ~/.ssh, write outside its workspace, see the operator's clone or
# another workspace, read the parent's secrets, reach the network under
# fs+no-net, inject into the terminal) and what it can (build, commit,
# rebase in a private workspace, write its cache). See sandbox_cases.bash.
load lib
load sandbox_cases

BACKEND=landlock

setup() {
	sbx_setup
	sbx_prereq "$BACKEND"
}

teardown() { sbx_unlisten; }

@test "landlock: cannot read ~/.ssh or other home files" {
	case_home_hidden fs-only
	case_home_hidden fs+no-net
}

@test "landlock: cannot write outside the workspace" {
	case_no_write_outside fs-only
	case_no_write_outside fs+no-net
}

@test "landlock: cannot see the operator's clone or another workspace" {
	case_no_operator_clone fs-only
	case_no_operator_clone fs+no-net
}

@test "landlock: does not get secrets from the parent environment" {
	case_env_secret fs-only
	case_env_secret fs+no-net
}

@test "landlock: fs+no-net cannot open a connection, fs-only can" {
	case_network
}

@test "landlock: cannot inject keystrokes into the terminal (TIOCSTI)" {
	case_tiocsti fs-only
	case_tiocsti fs+no-net
}

@test "landlock: can build and write its cache" {
	case_build_and_cache fs-only
	case_build_and_cache fs+no-net
}

@test "landlock: git commit and rebase work in a private workspace" {
	sbx_feature_repo
	case_git_in_private_workspace fs-only
	case_git_in_private_workspace fs+no-net
}

@test "landlock: a workspace and cache under HOME work, the rest of HOME stays hidden" {
	case_workspace_under_home fs-only
	case_workspace_under_home fs+no-net
}
