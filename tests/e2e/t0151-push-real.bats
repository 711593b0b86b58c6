#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The push guards judge what git really pushes (issue 18 point 4,
# docs/policy.md "Push guards" 5-6): git's own refspec expansion, the
# remote's real tips, every commit and tag pushed, merges and non-ASCII
# names included. A real bare origin throughout.
load lib
load shimlib

setup() {
	ag_setup
	push_fixture
}

teardown() {
	[ -z "${WEB_PID:-}" ] || kill "$WEB_PID" 2>/dev/null || true
}

# web_origin: a bare repository served by git http-backend over smart HTTP
# (python's CGI handler, no fork: the script runs as this user); sets WEB.
web_origin() {
	local port= i
	prereq python3-cgi python3 -c 'import http.server; http.server.CGIHTTPRequestHandler'
	prereq git-http-backend test -x "$("$REAL_GIT" --exec-path)/git-http-backend"
	mkdir -p "$T/web/cgi-bin"
	"$REAL_GIT" init -q --bare "$T/web/o.git"
	"$REAL_GIT" -C "$T/web/o.git" config http.receivepack true
	printf '#!/bin/sh\nGIT_PROJECT_ROOT=%s GIT_HTTP_EXPORT_ALL=1 exec %s http-backend\n' \
		"$T/web" "$REAL_GIT" >"$T/web/cgi-bin/git"
	chmod +x "$T/web/cgi-bin/git"
	(cd "$T/web" && exec python3 -c '
import http.server
class H(http.server.CGIHTTPRequestHandler):
    have_fork = False
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()' >"$T/web.port" 2>"$T/web.log") &
	WEB_PID=$!
	for i in $(seq 1 200); do # wait for the port line (not a timed assertion)
		port=$(head -n 1 "$T/web.port")
		[ -n "$port" ] && break
		sleep 0.05
	done
	[ -n "$port" ] || fail "the HTTP server did not start: $(cat "$T/web.log")"
	WEB=http://127.0.0.1:$port/cgi-bin/git/o.git
}

# evil_merge PATH: a merge commit on HEAD that adds PATH, which neither of
# its parents has.
evil_merge() {
	local side
	side=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p HEAD -m side)
	"$REAL_GIT" merge -q --no-ff --no-commit "$side" >/dev/null
	mkdir -p "$(dirname "$1")"
	echo key >"$1"
	"$REAL_GIT" add -- "$1"
	"$REAL_GIT" commit -q -m "merge side"
}

@test "a trust-root file under a non-ASCII directory is denied" {
	commit_file "$WT" "déjà vu/.config-integrity-key"
	run agit push origin feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "déjà vu/.config-integrity-key"
	"$REAL_GIT" reset -q --hard HEAD~1
	commit_file "$WT" $'tab\there/fleet.yaml'
	run agit push origin HEAD
	assert_push_denied deny_trust_root
}

@test "a trust-root file added by a merge commit is denied" {
	evil_merge conf/policy.toml
	run agit push origin feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "conf/policy.toml"
}

@test "a clean merge of what the remote has, trust-root files included, pushes" {
	commit_file "$REPO" config/fleet.yaml
	"$REAL_GIT" -C "$REPO" push -q origin main
	"$REAL_GIT" merge -q --no-edit main
	[ "$("$REAL_GIT" rev-list --count --merges HEAD)" = 1 ]
	run agit push -q origin feat/a
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
}

@test "--tags: an annotated tag on a commit that adds a key file is denied" {
	local c
	"$REAL_GIT" push -q origin feat/a
	ORIGIN_REFS=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	commit_file "$WT" keys/.config-integrity-key
	"$REAL_GIT" tag -a -m "release" v9
	"$REAL_GIT" reset -q --hard HEAD~1
	run agit push --tags origin
	assert_push_denied deny_trust_root
	assert_output --partial "keys/.config-integrity-key"
	run agit push origin refs/tags/v9
	assert_push_denied deny_trust_root
	# a clean annotated tag still pushes with --tags
	"$REAL_GIT" tag -d v9 >/dev/null
	"$REAL_GIT" tag -a -m ok v10
	run agit push -q --tags origin
	assert_success
	run "$REAL_GIT" -C "$ORIGIN" tag
	assert_output v10
}

@test "a tag of a tree is denied: its files are in no commit" {
	commit_file "$WT" fleet.yaml
	"$REAL_GIT" tag treetag "HEAD^{tree}"
	"$REAL_GIT" reset -q --hard HEAD~1
	run agit push origin refs/tags/treetag
	assert_push_denied deny_trust_root
	assert_output --partial "is a tree, not a commit"
}

@test "an empty range after the agent moved a remote-tracking ref over HEAD is no way round" {
	commit_file "$WT" policy.toml
	"$REAL_GIT" update-ref refs/remotes/origin/feat/a HEAD
	"$REAL_GIT" update-ref refs/remotes/origin/main HEAD
	run agit push origin feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "policy.toml"
}

@test "a commit on top of a snapshot is denied, not only the snapshot's tip" {
	local snap child
	snap=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p HEAD -m "agentic-git snapshot")
	"$REAL_GIT" update-ref refs/agentic-git/snapshots/ag1/s1 "$snap"
	child=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p "$snap" -m "on top")
	"$REAL_GIT" reset -q --hard "$child"
	run agit push origin feat/a
	assert_push_denied deny_snapshot_ref_push
	assert_output --partial "SNAPSHOT_REF_PUSH"
}

@test "--mirror and --all are denied" {
	local f
	for f in --mirror --all --mirr; do
		run agit push "$f" origin
		assert_push_denied deny_protected_ref
	done
}

@test "remote.origin.mirror=true in .git/config: a bare push to origin is denied" {
	"$REAL_GIT" config remote.origin.mirror true
	run agit push origin
	assert_push_denied deny_protected_ref
	# the agent's -q, -n's opposite or --porcelain cannot blind or arm the guard's dry run
	run agit push -q origin
	assert_push_denied deny_protected_ref
	run agit push --no-dry-run --no-porcelain origin
	assert_push_denied deny_protected_ref
}

@test "remote.origin.mirror or remote.origin.push from the environment is judged" {
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true \
		run agit push origin
	assert_equal "$status" 1
	origin_unchanged
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=HEAD:refs/heads/main \
		run agit push origin
	assert_equal "$status" 1
	origin_unchanged
	GIT_CONFIG_PARAMETERS="'remote.origin.push'=':'" run agit push origin
	assert_equal "$status" 1
	origin_unchanged
}

@test "config-borne remote.origin.push refspecs: matching, another branch, a deletion" {
	local spec
	for spec in : refs/heads/feat/a:refs/heads/other :refs/heads/other 'refs/heads/*:refs/heads/*'; do
		"$REAL_GIT" config remote.origin.push "$spec"
		run agit push origin
		assert_equal "$status" 1
		assert_output --partial "ERROR git push denied"
		origin_unchanged
	done
	"$REAL_GIT" config remote.origin.push :
	run agit push origin
	assert_push_denied deny_protected_ref
	assert_output --partial "would update 'refs/heads/main'"
	"$REAL_GIT" config remote.origin.push :refs/heads/other
	run agit push origin
	assert_push_denied deny_cross_branch_push
	assert_output --partial "would delete 'refs/heads/other'"
}

@test "matching ':', HEAD:refs/heads/main, ':main' and --delete are denied" {
	run agit push origin :
	assert_push_denied deny_cross_branch_push
	run agit push origin HEAD:refs/heads/main
	assert_push_denied deny_protected_ref
	run agit push origin :main
	assert_push_denied deny_cross_branch_push
	run agit push --delete origin main
	assert_push_denied deny_cross_branch_push
	run agit push origin --delete other
	assert_push_denied deny_cross_branch_push
}

@test "--receive-pack and --exec are denied" {
	run agit push --receive-pack=git-receive-pack origin feat/a
	assert_push_denied deny_cross_branch_push
	assert_output --partial "program of your choosing"
	run agit push --exec git-receive-pack origin feat/a
	assert_push_denied deny_cross_branch_push
}

@test "a push git itself refuses is denied with git's reason, nothing pushed" {
	run agit push origin nosuchbranch:feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "src refspec nosuchbranch does not match any"
}

@test "a push the guard expands to the own branch only still pushes: -u, bare, HEAD, explicit" {
	run agit push -q -u origin HEAD
	assert_success
	commit_file "$WT" two.txt
	run agit push -q
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	commit_file "$WT" three.txt
	"$REAL_GIT" config remote.origin.push refs/heads/feat/a:refs/heads/feat/a
	run agit push -q origin
	assert_success
	assert_equal "$(origin_sha feat/a)" "$(head_of "$WT")"
	assert_no_deny_events
}

@test "over smart HTTP: the own branch pushes, a trust-root file and main are denied" {
	web_origin
	"$REAL_GIT" -C "$REPO" remote add web "$WEB"
	"$REAL_GIT" -C "$REPO" push -q web main
	run agit push -q web feat/a
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/web/o.git" rev-parse feat/a)" "$WT_HEAD"
	evil_merge "ünï/fleet.yaml"
	run agit push web feat/a
	assert_denied bound
	assert_last_event deny_trust_root push
	assert_equal "$("$REAL_GIT" -C "$T/web/o.git" rev-parse feat/a)" "$WT_HEAD"
	"$REAL_GIT" config remote.web.push HEAD:refs/heads/main
	run agit push web
	assert_denied bound
	assert_last_event deny_protected_ref push
}

@test "protocol v1 and a remote named by path push and are judged" {
	"$REAL_GIT" config protocol.version 1
	run agit push -q origin feat/a
	assert_success
	ORIGIN_REFS=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	commit_file "$WT" x/.config-integrity-key
	run agit push "$ORIGIN" feat/a
	assert_push_denied deny_trust_root
}

@test "a replace ref cannot hide a trust-root file from the scan" {
	local clean
	commit_file "$WT" policy.toml
	clean=$("$REAL_GIT" commit-tree "HEAD~1^{tree}" -p HEAD~1 -m "add policy.toml")
	"$REAL_GIT" replace HEAD "$clean"
	[ -z "$("$REAL_GIT" log --name-only --format= HEAD~1..HEAD)" ]
	run agit push origin feat/a
	assert_push_denied deny_trust_root
	assert_output --partial "policy.toml"
}
