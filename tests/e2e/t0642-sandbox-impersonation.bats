#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Impersonation (docs/fuzzing.md I3, docs/threat-model.md): an agent that
# names another agent in AGENTIC_GIT_AGENT acts as that agent as far as the
# shim can tell (identity comes from the environment). Without a sandbox
# same-uid agents are not separated anyway (one's shell can rm the other's
# files); the control is the sandbox: the other session's workspace and
# binding are not in the cage, so nothing of it can be changed.
load lib
load sandbox_cases

setup() {
	sbx_setup
	sbx_feature_repo
	"$AG_BIN" sandbox workspace --from "$REPO" --head feat --base main "$T/pws"
	ag_write_binding a1 feat "$T/pws"
	"$REAL_GIT" -C "$REPO" branch feat2 main
	"$AG_BIN" sandbox workspace --from "$REPO" --head feat2 --base main "$T/pws2"
	ag_write_binding a2 feat2 "$T/pws2"
	echo "a2 unsaved work" >>"$T/pws2/README.md"
	A2_STATE=$(cat "$T/pws2/README.md")
	A2_REFS=$("$REAL_GIT" -C "$T/pws2" for-each-ref)
	A2_HEAD=$("$REAL_GIT" -C "$T/pws2" rev-parse HEAD)
}

# as_a1_naming_a2 BACKEND: a1, caged in its own workspace, runs git as a2
# against a2's workspace, every way it can name it.
as_a1_naming_a2() {
	sbx_as_agent "$1" a1 "$T/pws" "
		AGENTIC_GIT_AGENT=a2 git -C '$T/pws2' reset -q --hard; echo reset-rc=\$?
		AGENTIC_GIT_AGENT=a2 git -C '$T/pws2' update-ref refs/heads/feat2 HEAD~1; echo update-rc=\$?
		AGENTIC_GIT_AGENT=a2 git --git-dir='$T/pws2/.git' --work-tree='$T/pws2' checkout -- .; echo checkout-rc=\$?
		AGENTIC_GIT_AGENT=a2 \"\$AGENTIC_GIT_REAL_GIT\" -C '$T/pws2' reset -q --hard; echo real-rc=\$?
		echo x >'$T/pws2/README.md'; echo write-rc=\$?
		echo sbx-script-done"
	sbx_ran
	for op in reset update checkout real write; do
		refute_line "$op-rc=0"
	done
	assert_equal "$(cat "$T/pws2/README.md")" "$A2_STATE"
	assert_equal "$("$REAL_GIT" -C "$T/pws2" for-each-ref)" "$A2_REFS"
	assert_equal "$("$REAL_GIT" -C "$T/pws2" rev-parse HEAD)" "$A2_HEAD"
}

@test "bwrap: an agent naming another agent cannot change that session's workspace or refs" {
	as_a1_naming_a2 bwrap
}

@test "landlock: an agent naming another agent cannot change that session's workspace or refs" {
	as_a1_naming_a2 landlock
}

@test "control: outside the sandbox the same command as the other agent does change its workspace (the limit)" {
	cd "$T"
	AGENTIC_GIT_AGENT=a2 PATH="$AGENTIC_GIT_HOME/bin:$PATH" git -C "$T/pws2" reset -q --hard
	[ "$(cat "$T/pws2/README.md")" != "$A2_STATE" ]
}
