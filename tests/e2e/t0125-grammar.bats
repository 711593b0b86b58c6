#!/usr/bin/env bats
# git's grammar, not tokens (issue 18; PRODUCT.md §4 "Spellings"): every
# spelling git accepts of an option the policy reasons about is judged as
# git reads it — abbreviated long options are refused by git itself for
# agents, stuck and clustered short options are split as git splits them,
# and config carried in the environment is judged like -c.
load lib
load shimlib

setup() {
	ag_setup
	(
		cd "$REPO"
		"$REAL_GIT" branch other
		"$REAL_GIT" branch master
	)
	ag_bind ag1 feat/a
	WT_HEAD=$(head_of "$WT")
	export AGENTIC_GIT_SNAPSHOTS=1
	cd "$WT"
}

refs_now() { "$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname)'; }

# the command ran nothing that moved a ref or the worktree's branch
unchanged() {
	assert_equal "$(refs_now)" "$REFS"
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "abbreviated long options of destructive commands never run unsnapshotted" {
	echo "precious" >>README.md
	for form in "reset --har" "reset --hard-" "clean --forc -d" "checkout --det" "switch --disc"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_failure
		[ "$(tail -1 README.md)" = precious ] || {
			echo "'$form' destroyed work" >&2
			return 1
		}
	done
	# an abbreviation reads as the option it abbreviates (issue 36: one
	# reading, one verdict): snapshotted like --hard; git itself refuses
	# it for agents, so nothing runs unsnapshotted either way
	echo "precious" >>README.md
	run agit reset --har
	assert_failure
	assert_output --partial "disallowed abbreviated or ambiguous option 'har'"
	[ "$(tail -1 README.md)" = precious ]
	[ -n "$("$REAL_GIT" for-each-ref 'refs/agentic-git/snapshots/ag1/*-reset')" ]
	# a word that abbreviates none of reset's options is unknown: denied
	run agit reset --hardest
	assert_output --partial "option '--hardest' is not one this guard knows"
	# the full spellings still work (and are snapshotted)
	run agit reset -q --hard
	assert_success
	[ "$(tail -1 README.md)" = hello ]
}

@test "abbreviated ref-moving options are refused, nothing moves" {
	REFS=$(refs_now)
	for form in "branch --del other" "branch --del master" "tag --del v9" \
		"update-ref --stdi" "checkout --orph=X" "switch --cre=X" "branch --for master HEAD"; do
		# shellcheck disable=SC2086
		run agit $form </dev/null
		assert_failure
		unchanged
	done
}

@test "stuck and clustered short options are read as git reads them" {
	REFS=$(refs_now)
	for form in "checkout -bX" "checkout -qBX" "checkout -qbX" "switch -cX" "switch -qCX" \
		"checkout -Bmaster" "switch -Cmaster"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_denied bound
		assert_output --partial "cross-branch"
		unchanged
	done
	for form in "branch -qD other master" "branch -qfD master" "branch -Dq master" "branch -fqM other master"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_failure
		unchanged
	done
}

@test "checkout <branch> -- with nothing after -- is a branch switch" {
	REFS=$(refs_now)
	run agit checkout main --
	assert_denied bound
	assert_output --partial "cross-branch"
	unchanged
	# a file checkout with a path after -- still works
	echo changed >>README.md
	run agit checkout main -- README.md
	assert_success
	[ "$(cat README.md)" = hello ]
}

@test "config in the environment is judged like -c" {
	REFS=$(refs_now)
	local hook=$T/hooks
	mkdir -p "$hook"
	printf '#!/bin/sh\ntouch %s/ran\n' "$T" >"$hook/pre-commit"
	chmod +x "$hook/pre-commit"
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0="$hook" \
		run agit commit --allow-empty -qm x
	assert_failure
	assert_output --partial "GIT_CONFIG_KEY_0 'core.hookspath'"
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true \
		run agit push origin
	assert_failure
	assert_output --partial "'remote.origin.mirror'"
	GIT_CONFIG_PARAMETERS="'alias.st'='!touch $T/ran'" run agit status
	assert_failure
	assert_output --partial "GIT_CONFIG_PARAMETERS 'alias.st'"
	GIT_CONFIG_PARAMETERS="'core.hooksPath=$hook'" run agit commit --allow-empty -qm x
	assert_failure
	GIT_CONFIG_PARAMETERS="'broken" run agit status
	assert_failure
	assert_output --partial "cannot be read"
	for var in GIT_CONFIG GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM; do
		env "$var=$T/evil.config" "$REAL_GIT" --version >/dev/null
		printf '[core]\n\thooksPath = %s\n' "$hook" >"$T/evil.config"
		run env "$var=$T/evil.config" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git commit --allow-empty -qm x
		assert_failure
		assert_output --partial "$var"
	done
	run env GIT_EXEC_PATH="$T" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git status
	assert_failure
	assert_output --partial "GIT_EXEC_PATH"
	[ ! -e "$T/ran" ]
	unchanged
	# inert and disabling values pass, as on the command line
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0=true run agit commit --allow-empty -qm ok
	assert_success
	GIT_CONFIG_GLOBAL=/dev/null run agit status
	assert_success
}

# GIT_TRACE=/home/op/.bashrc appends git's trace to any file, on any
# command: for agents, a trace goes to stderr (or a descriptor) only.
@test "a trace variable that names a file, a directory or a socket is denied; stderr traces work" {
	local var
	mkdir "$T/tracedir"
	for var in GIT_TRACE GIT_TRACE_PACKET GIT_TRACE_SETUP GIT_TRACE2_EVENT GIT_TRACE2_PERF; do
		run env "$var=$T/trace" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git status
		assert_failure
		assert_output --partial "$var"
		assert_output --partial "into a file"
		[ ! -e "$T/trace" ]
	done
	GIT_TRACE2_EVENT=$T/tracedir run agit log -1
	assert_failure
	GIT_TRACE2=af_unix:$T/sock run agit rev-parse HEAD
	assert_failure
	[ -z "$(ls -A "$T/tracedir")" ]
	[ ! -e "$T/sock" ]
	# stderr, a descriptor, off: as git reads them
	GIT_TRACE=1 run agit rev-parse HEAD
	assert_success
	assert_output --partial "trace"
	GIT_TRACE_PACKET=2 GIT_TRACE2_EVENT=0 GIT_TRACE_SETUP=false run agit status --short
	assert_success
	# the operator's trace file is the operator's
	AGENTIC_GIT_AGENT= GIT_TRACE=$T/trace run agit rev-parse HEAD
	assert_success
	[ -s "$T/trace" ]
	# agentic-git's own git traces into no file its caller named
	AGENTIC_GIT_AGENT= GIT_TRACE=$T/own GIT_TRACE2_EVENT=$T/tracedir run "$AG_BIN" snapshots list
	assert_success
	[ ! -e "$T/own" ]
	[ -z "$(ls -A "$T/tracedir")" ]
}

@test "disabling hooks or fsmonitor on a read-only command is no threat (agents' own probes)" {
	run agit -c core.hooksPath=/dev/null -c core.fsmonitor= ls-files
	assert_success
	assert_output --partial README.md
	run agit -c core.hooksPath=/dev/null status --porcelain
	assert_success
	run agit -c core.fsmonitor=false -c credential.helper= log -1 --format=%s
	assert_success
	[ "$(events | jq -s '[.[] | select(.disposition == "deny")] | length')" -eq 0 ]
	# but not on a command that moves refs, and never a value that runs code
	run agit -c core.hooksPath=/dev/null commit --allow-empty -qm silent
	assert_failure
	assert_output --partial "core.hookspath"
	run agit -c core.fsmonitor="$T/evil" status
	assert_failure
	run agit -c core.hooksPath="$T" status
	assert_failure
}

@test "values that only take something away pass on writing commands too; turning hooks off does not" {
	# what Copilot CLI's tool shell puts in every command's environment
	GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_0=safe.bareRepository GIT_CONFIG_VALUE_0=explicit \
		GIT_CONFIG_KEY_1=credential.interactive GIT_CONFIG_VALUE_1=never \
		GIT_CONFIG_KEY_2=core.fsmonitor GIT_CONFIG_VALUE_2=false \
		run agit commit --allow-empty -qm hardened
	assert_success
	run agit -c credential.helper= -c core.askPass= -c core.fsmonitor= commit --allow-empty -qm also
	assert_success
	[ "$(events | jq -s '[.[] | select(.disposition == "deny")] | length')" -eq 0 ]
	[ "$("$REAL_GIT" -C "$WT" log -2 --format=%s | tr '\n' ' ')" = "also hardened " ]
	# what turns the hooks off on the command line, or names a program,
	# stays denied
	run agit -c core.hooksPath= commit --allow-empty -qm silent
	assert_failure
	assert_output --partial "-c 'core.hookspath'"
	GIT_CONFIG_PARAMETERS="'core.hooksPath'=''" run agit commit --allow-empty -qm silent
	assert_failure
	assert_output --partial "GIT_CONFIG_PARAMETERS 'core.hookspath'"
	run agit -c credential.interactive=always commit --allow-empty -qm x
	assert_failure
	assert_output --partial "'credential.interactive'"
	run agit -c credential.helper="!$T/evil" commit --allow-empty -qm x
	assert_failure
	assert_output --partial "'credential.helper'"
	run agit -c core.askPass="$T/evil" commit --allow-empty -qm x
	assert_failure
}

@test "plumbing that moves refs outside the guarded paths is denied" {
	REFS=$(refs_now)
	run agit send-pack "$ORIGIN" feat/a:refs/heads/main
	assert_denied bound
	printf 'reset refs/heads/master\nfrom %s\n\n' "$(head_of "$WT")" >"$T/fi"
	run agit fast-import --quiet <"$T/fi"
	assert_denied bound
	# an external command would run its own nested git past the shim
	printf '#!/bin/sh\ngit update-ref refs/heads/master HEAD\n' >"$T/git-sneak"
	chmod +x "$T/git-sneak"
	PATH="$T:$PATH" run agit sneak
	assert_denied bound
	assert_output --partial "external"
	unchanged
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse main)" = "$("$REAL_GIT" -C "$REPO" rev-parse main)" ]
}

@test "an option the guard does not know is denied on mutating commands, not passed" {
	echo "precious" >>README.md
	for form in "checkout --no-such-option -- README.md" "reset --hardest" \
		"branch --frobnicate x" "clean --wipe -f" "stash push --sneaky" \
		"tag --evil t1" "update-ref --batch refs/heads/feat/a HEAD"; do
		# shellcheck disable=SC2086
		run agit $form
		assert_failure
		assert_output --partial "is not one this guard knows"
		assert_output --partial "-h\` lists"
	done
	[ "$(tail -1 README.md)" = precious ]
	[ "$(branch_of "$WT")" = feat/a ]
	[ -z "$("$REAL_GIT" for-each-ref refs/tags)" ]
	# a read-only form is not judged by the table
	run agit log --oneline --no-such-log-option
	refute_output --partial "not one this guard knows"
}

@test "the options agents use every day pass: long, short, clustered, negated, hidden, with values" {
	echo "more" >>README.md
	run agit add -A
	assert_success
	run agit commit -q -m "one" --no-verify
	assert_success
	run agit commit -q --amend --no-edit
	assert_success
	echo "x" >x.txt
	run agit stash push -u -m "wip"
	assert_success
	run agit stash pop -q
	assert_success
	run agit add x.txt
	assert_success
	run agit restore --staged x.txt
	assert_success
	run agit branch -vv
	assert_success
	run agit tag -a v1 -m "release"
	assert_success
	run agit tag -n5 -l
	assert_success
	run agit reset -q --soft HEAD~1
	assert_success
	run agit checkout --no-guess -q feat/a
	assert_success
	run agit clean -fdxq
	assert_success
	[ ! -e x.txt ]
}

@test "the option table is git's own: regenerating it from the installed git changes nothing" {
	local ver
	ver=$("$REAL_GIT" version | sed 's/^git version //')
	prereq "git $ver, the one src/git/optable-data.c was read from" \
		grep -q "from git $ver:" "$BATS_TEST_DIRNAME/../../src/git/optable-data.c"
	run "$BATS_TEST_DIRNAME/../../src/git/gen-optable.sh" "$REAL_GIT"
	assert_success
	diff <(printf '%s\n' "$output") "$BATS_TEST_DIRNAME/../../src/git/optable-data.c"
}
