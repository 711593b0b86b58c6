# SPDX-License-Identifier: Apache-2.0
# Helpers for the dispatch tests (t07xx): a repository whose feature
# branches conflict with main in a CHANGELOG, and scripted agents.
#
#   load lib; load dispatch
#   setup() { ag_setup; dsp_setup; }
#   dsp_branch feat/a          # a branch that conflicts with main
#   run dispatch --repo "$REPO" --head feat/a --base main -- "$AGENTS/resolve.sh"

AGENTS=${AGENTS:-$BATS_TEST_DIRNAME/agents}
export AGENTS

dsp_setup() {
	(
		cd "$REPO"
		printf 'line 1\nline 2\n' >CHANGELOG
		"$REAL_GIT" add CHANGELOG
		"$REAL_GIT" commit -q -m "add changelog"
		"$REAL_GIT" push -q origin main
	)
	DSP_GRACE=1
	export DSP_GRACE
}

# dsp_branch NAME [FILE]: a branch on origin adding an entry that conflicts
# with an entry dsp_advance_main adds to main.
dsp_branch() {
	local name=$1
	(
		cd "$REPO"
		"$REAL_GIT" checkout -q -b "$name" main
		printf 'line 1\nfeature %s\nline 2\n' "$name" >CHANGELOG
		"$REAL_GIT" commit -q -am "feature $name"
		"$REAL_GIT" push -q origin "$name"
		"$REAL_GIT" checkout -q main
	)
}

# dsp_advance_main: main gains a conflicting CHANGELOG entry on origin.
dsp_advance_main() {
	(
		cd "$REPO"
		printf 'line 1\nmain entry\nline 2\n' >CHANGELOG
		"$REAL_GIT" commit -q -am "main entry"
		"$REAL_GIT" push -q origin main
	)
}

# origin_sha BRANCH
origin_sha() {
	"$REAL_GIT" --git-dir="$ORIGIN" rev-parse "refs/heads/$1"
}

# dispatch ARGS...: the command with a short grace for the tests.
dispatch() {
	"$AG_BIN" dispatch --grace "$DSP_GRACE" "$@"
}

# run_dir: the latest run directory.
run_dir() {
	echo "$AGENTIC_GIT_HOME/runs/$(readlink "$AGENTIC_GIT_HOME/runs/latest")"
}

# meta KEY FIELD: a top-level scalar of KEY's meta.yaml (quotes removed).
meta() {
	sed -n "s/^$2: //p" "$(run_dir)/$1.meta.yaml" | tr -d '"'
}
