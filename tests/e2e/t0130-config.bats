#!/usr/bin/env bats
# Config and hooks (PRODUCT.md §4): keys that run code, redirect git or
# silence the hooks can be neither passed with -c/--config-env nor persisted.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	WT_HEAD=$(head_of "$WT")
	cd "$WT"
}

assert_config_denied() {
	assert_denied bound
	assert_output --partial "agents may not set it"
	assert_equal "$(head_of "$WT")" "$WT_HEAD"
}

@test "dangerous -c keys are denied, even on a read" {
	local kv
	for kv in core.hooksPath=/tmp/hooks core.fsmonitor=/bin/sh core.sshCommand=ssh-evil \
		core.pager=less core.editor=vim core.askPass=/bin/echo credential.helper=store \
		credential.https://x.helper=store alias.st=status include.path=/tmp/x \
		includeIf.gitdir:/x.path=/tmp/x filter.lfs.clean=evil diff.foo.textconv=evil \
		remote.origin.url=/tmp/elsewhere remote.origin.pushurl=/tmp/elsewhere \
		url./tmp/x.insteadOf=/tmp/y gpg.program=evil protocol.ext.allow=always \
		Core.HooksPath=/tmp/hooks CORE.EDITOR=vim; do
		run agit -c "$kv" commit --allow-empty -q -m x
		assert_config_denied
		run agit -c "$kv" status
		assert_config_denied
	done
	assert_events 40
	assert_last_event deny status
	# a value that only switches hooks off is still denied where hooks
	# are the audit: on any command that writes (an empty core.fsmonitor,
	# which leaves the hooks alone, passes there: t0125)
	for kv in core.hooksPath=/dev/null Core.HooksPath=/dev/null core.hooksPath=; do
		run agit -c "$kv" commit --allow-empty -q -m x
		assert_config_denied
	done
}

@test "a glued -c<key>=<value> is still seen" {
	run agit -ccore.hooksPath=/dev/null commit --allow-empty -q -m x
	# git itself rejects -c glued; either way nothing may run unguarded
	assert_equal "$status" 1
	assert_equal "$(head_of "$WT")" "$WT_HEAD"
}

@test "--config-env with a dangerous key is denied (both spellings)" {
	export EVIL=/dev/null
	run agit --config-env=core.hooksPath=EVIL commit --allow-empty -q -m x
	assert_config_denied
	assert_output --partial "--config-env"
	run agit --config-env core.hooksPath=EVIL commit --allow-empty -q -m x
	assert_config_denied
}

@test "--config-env names a variable, not a value: an inert-looking name is no way round" {
	# core.pager=cat is inert with -c, but here `cat` is the name of a
	# variable holding a program
	cat=$T/evil-pager
	printf '#!/bin/sh\ntouch %s/pager-ran\ncat\n' "$T" >"$cat"
	chmod +x "$cat"
	export cat
	run agit --config-env=core.pager=cat -p log -1
	assert_config_denied
	run agit --config-env=core.editor=true commit --allow-empty -q -m x
	assert_config_denied
	[ ! -e "$T/pager-ran" ]
}

@test "a config key too long to judge is denied, not truncated into a harmless one" {
	long=$(printf 'x%.0s' $(seq 300))
	# truncated at 255 characters this would lose its dangerous `.url`
	run agit -c "remote.$long.url=$T/evil.git" fetch "$long"
	assert_denied bound
	assert_output --partial "too long to judge"
	run agit config "remote.$long.url" "$T/evil.git"
	assert_denied bound
	run agit --config-env="remote.$long.url=HOME" status
	assert_denied bound
	run "$REAL_GIT" config --get-regexp '^remote\.x'
	assert_failure
}

@test "inert editor and pager values are allowed; ordinary -c keys too" {
	run agit -c core.editor=true commit --allow-empty -q -m inert
	assert_success
	run agit -c core.pager=cat log -1
	assert_success
	run agit -c core.abbrev=12 log -1 --format=%h
	assert_success
	assert_equal "${#output}" 12
	run agit --config-env=user.email=HOME commit --allow-empty -q -m env-mail
	assert_success
	assert_no_deny_events
}

@test "-c core.editor=true rebase --continue finishes a real rebase" {
	commit_file "$WT" README.md "agent line"
	commit_file "$REPO" README.md "operator line"
	run agit rebase main
	[ "$status" -ne 0 ] || fail "expected a conflict"
	printf 'resolved\n' >README.md
	"$REAL_GIT" add README.md
	run agit -c core.editor=true rebase --continue
	assert_success
	assert_equal "$(cat README.md)" resolved
	run "$REAL_GIT" merge-base --is-ancestor main HEAD
	assert_success
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "config writes of dangerous keys are denied and not written" {
	local k
	for k in core.hooksPath core.fsmonitor core.sshCommand core.pager core.editor \
		alias.co credential.helper include.path filter.x.smudge remote.origin.url \
		remote.origin.pushurl diff.x.textconv; do
		run agit config "$k" /tmp/evil
		assert_config_denied
		run "$REAL_GIT" config --get "$k"
		[ "$output" != /tmp/evil ] || fail "$k was written"
	done
	run agit config --add alias.x status
	assert_config_denied
	run agit config --replace-all core.hooksPath /tmp/evil
	assert_config_denied
	run agit config set core.hooksPath /tmp/evil
	assert_config_denied
	run agit config --unset remote.origin.url
	assert_config_denied
	assert_equal "$("$REAL_GIT" config --get remote.origin.url)" "$ORIGIN"
}

@test "config --global, --system, --file, -e and rename-section are denied" {
	run agit config --global user.name Evil
	assert_denied bound
	assert_output --partial "--global"
	run "$REAL_GIT" config --global --get user.name
	[ "$output" != Evil ]
	run agit config --system user.name Evil
	assert_denied bound
	run agit config --file "$T/f" a.b c
	assert_denied bound
	[ ! -e "$T/f" ]
	run agit config -f "$T/f" a.b c
	assert_denied bound
	run agit config -e
	assert_denied bound
	run agit config --rename-section remote.origin remote.x
	assert_denied bound
	assert_equal "$("$REAL_GIT" config --get remote.origin.url)" "$ORIGIN"
}

@test "ordinary config writes and all reads are allowed" {
	run agit config user.name "Agent One"
	assert_success
	assert_equal "$("$REAL_GIT" config --get user.name)" "Agent One"
	run agit config --unset user.name
	assert_success
	run agit config branch.feat/a.description "my work"
	assert_success
	run agit config --get core.hooksPath
	assert_not_denied
	run agit config --get-regexp '^remote\.'
	assert_success
	assert_output --partial "$ORIGIN"
	run agit config --list
	assert_success
	run agit config --global --get user.name
	assert_not_denied
	assert_no_deny_events
}

@test "push/fetch refspec config cannot redirect a push or fetch (-c or persisted)" {
	"$REAL_GIT" -C "$REPO" branch other
	"$REAL_GIT" -C "$REPO" push -q origin other
	local before
	before=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	run agit -c remote.origin.push=+refs/heads/feat/a:refs/heads/other push origin
	assert_config_denied
	run agit -c remote.origin.mirror=true push origin
	assert_config_denied
	run agit -c push.default=matching push
	assert_config_denied
	run agit config remote.origin.push '+refs/heads/*:refs/heads/*'
	assert_config_denied
	run agit config remote.origin.fetch '+refs/heads/*:refs/heads/*'
	assert_config_denied
	run agit config push.default matching
	assert_config_denied
	assert_equal "$("$REAL_GIT" -C "$ORIGIN" for-each-ref)" "$before"
	# harmless push.default values on the command line are fine
	run agit -c push.default=current push -q origin
	assert_success
	assert_equal "$(origin_sha feat/a)" "$WT_HEAD"
}

@test "push.default: a harmless value may be persisted, a harmful one or its removal may not" {
	for v in simple current nothing; do
		run agit config push.default "$v"
		assert_success
		assert_equal "$("$REAL_GIT" config push.default)" "$v"
	done
	# (`git config set` is git >= 2.46; its harmful form is denied before
	# git runs, below)
	for v in upstream tracking matching; do
		run agit config push.default "$v"
		assert_config_denied
		run agit config --add push.default "$v"
		assert_config_denied
		run agit config set push.default "$v"
		assert_config_denied
	done
	# removing it would let the operator's own default (maybe upstream) back
	run agit config --unset push.default
	assert_config_denied
	run agit config --unset push.default current
	assert_config_denied
	run agit config --unset-all push.default
	assert_config_denied
	assert_equal "$("$REAL_GIT" config push.default)" "nothing"
	# other dangerous keys stay denied whatever the value
	run agit config core.hooksPath /dev/null
	assert_config_denied
	run agit config core.editor vim
	assert_config_denied
}

@test "git remote cannot rewrite, add, rename or remove remotes" {
	run agit remote set-url origin "$T/elsewhere.git"
	assert_denied bound
	run agit remote set-url --push origin "$T/elsewhere.git"
	assert_denied bound
	run agit remote add evil "$T/evil.git"
	assert_denied bound
	run agit remote rename origin old
	assert_denied bound
	run agit remote remove origin
	assert_denied bound
	assert_equal "$("$REAL_GIT" config --get remote.origin.url)" "$ORIGIN"
	run "$REAL_GIT" remote
	assert_output origin
	run agit remote -v
	assert_success
	run agit remote update
	assert_not_denied
}
