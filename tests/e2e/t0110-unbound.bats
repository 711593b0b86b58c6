#!/usr/bin/env bats
# Unbound agents (PRODUCT.md §4): only provably read-only forms pass; every
# reason a binding is not valid fails closed (issue 2 acceptance item 2).
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	BINDING=$AGENTIC_GIT_HOME/runtime/ag1/binding.json
	WT_HEAD=$(head_of "$WT")
}

# A mutation that must be refused with the given why-unbound text, leaving
# the worktree untouched.
assert_unbound_commit() {
	local why=$1
	cd "${IN_DIR:-$WT}"
	run agit commit --allow-empty -q -m should-not-happen
	assert_denied unbound
	assert_output --partial "unbound — no active task assignment"
	[ -z "$why" ] || assert_output --partial "$why"
	assert_equal "$(head_of "$WT")" "$WT_HEAD"
	# and the remedy never names the worktree path
	refute_output --partial "your assigned worktree"
}

@test "a valid binding is bound (control for the cases below)" {
	cd "$WT"
	run agit commit --allow-empty -q -m bound
	assert_success
}

@test "no binding: every allowlisted read form passes" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$REPO"
	"$REAL_GIT" tag v0.1
	"$REAL_GIT" notes add -m note HEAD
	"$REAL_GIT" stash list >/dev/null
	local forms=(
		"status" "status --short" "log --oneline" "diff" "diff HEAD"
		"show HEAD" "blame README.md" "annotate README.md" "grep hello"
		"ls-files" "ls-tree HEAD" "cat-file -p HEAD" "rev-parse HEAD"
		"rev-list HEAD" "for-each-ref" "show-ref" "merge-base HEAD HEAD"
		"describe --always" "shortlog -s HEAD" "name-rev HEAD" "version"
		"help -a" "branch" "branch -a" "branch --list" "branch -v"
		"tag" "tag -l" "tag -v v0.1" "remote" "remote -v" "remote show origin"
		"remote get-url origin" "stash list" "worktree list" "config --list"
		"config --get user.name" "config user.name" "config get user.name"
		"reflog" "reflog show" "notes" "notes list" "notes show HEAD"
		"submodule" "submodule status" "symbolic-ref HEAD"
		"hash-object README.md" "count-objects" "check-ignore -v x"
		"ls-remote origin" "fetch origin" "fetch" "format-patch -1 --stdout"
		"cherry origin/main" "show-branch" "var GIT_AUTHOR_IDENT"
		"fsck" "bisect log" "rerere status" "sparse-checkout list"
		"archive --format=tar HEAD"
	)
	local f
	for f in "${forms[@]}"; do
		# shellcheck disable=SC2086
		run agit $f
		if [ "$status" -eq 1 ] && [[ "$output" == *"agentic-git: ERROR"* ]]; then
			fail "read form 'git $f' was denied: $output"
		fi
		assert_not_denied
	done
	# git with no subcommand prints its usage, it is not denied either
	run agit
	assert_not_denied
	assert_events 0
}

@test "no binding: every write form is denied and changes nothing" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$REPO"
	"$REAL_GIT" branch keepme
	echo "untracked" >"$REPO/untracked.txt"
	local before_refs
	before_refs=$("$REAL_GIT" for-each-ref)
	local forms=(
		"clean -fd" "clean -n" "branch -D keepme" "branch newb" "branch -f keepme HEAD"
		"tag x" "tag -d x" "config x.y z" "config --unset user.name" "gc" "prune"
		"reflog expire --all" "reflog delete HEAD@{0}" "update-ref refs/heads/x HEAD"
		"bisect start" "bisect bad" "notes add -m n HEAD" "notes remove HEAD"
		"commit --allow-empty -m x" "stash" "stash push" "stash drop" "init" "init -q x"
		"clone $ORIGIN c" "add -A" "rm README.md" "mv README.md R" "reset --hard"
		"restore --staged README.md" "restore README.md" "checkout -b x" "switch -c x"
		"merge keepme" "rebase keepme" "cherry-pick HEAD" "revert HEAD" "am x"
		"apply x" "pull" "push origin main" "read-tree HEAD" "update-index --refresh"
		"symbolic-ref HEAD refs/heads/keepme" "symbolic-ref -d HEAD" "remote add x /x"
		"remote remove origin" "replace HEAD HEAD~0" "filter-branch" "submodule update"
		"submodule add /x" "hash-object -w README.md" "fsck --lost-found"
		"sparse-checkout set src" "rerere forget x" "frobnicate" "worktree add ../w"
		"interpret-trailers --in-place x" "repack -a" "pack-refs --all" "maintenance run"
		"checkout main"
	)
	local f
	for f in "${forms[@]}"; do
		# shellcheck disable=SC2086
		run agit $f
		[ "$status" -eq 1 ] || fail "write form 'git $f' was not denied (status $status): $output"
		assert_output --partial "agentic-git: ERROR git"
		case "$f" in
		replace* | filter-branch*) assert_output --partial "not allowed" ;;
		worktree*) assert_output --partial "worktree lifecycle" ;;
		*) assert_output --partial "unbound — no active task assignment" ;;
		esac
	done
	assert_equal "$("$REAL_GIT" for-each-ref)" "$before_refs"
	[ -f "$REPO/untracked.txt" ]
	[ ! -e "$REPO/c" ]
	[ ! -e "$REPO/x" ]
	assert_equal "$("$REAL_GIT" config --get x.y || true)" ""
	assert_equal "$(branch_of "$REPO")" main
}

@test "no binding: the deny block has the unbound remedy and the reason" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	assert_unbound_commit "no binding"
	assert_output --partial "ERROR git commit denied"
}

@test "forged binding: one flipped byte in binding.json" {
	# "feat/a" -> "feat/b": same length, signature no longer matches
	sed -i 's#"branch": "feat/a"#"branch": "feat/b"#' "$BINDING"
	assert_unbound_commit "signature does not verify"
}

@test "forged binding: one flipped byte in binding.json.sig" {
	local sig
	sig=$(cat "$BINDING.sig")
	local first=${sig:0:1}
	local flipped=0
	[ "$first" = 0 ] && flipped=1
	printf '%s%s' "$flipped" "${sig:1}" >"$BINDING.sig"
	assert_unbound_commit "signature does not verify"
}

@test "missing signature file" {
	rm "$BINDING.sig"
	assert_unbound_commit "signature does not verify"
}

@test "the ag-hmac-sha256:v1:raw: envelope verifies; another scheme does not" {
	local hex
	hex=$(cat "$BINDING.sig")
	printf 'ag-hmac-sha256:v1:raw:%s\n' "$hex" >"$BINDING.sig"
	cd "$WT"
	run agit commit --allow-empty -q -m envelope
	assert_success
	WT_HEAD=$(head_of "$WT")
	printf 'ag-hmac-sha256:v2:raw:%s' "$hex" >"$BINDING.sig"
	assert_unbound_commit "unsupported signature scheme"
	assert_output --partial "HMAC scheme skew"
}

@test "truncated binding with its original signature" {
	head -c 40 "$BINDING" >"$BINDING.tmp" && mv "$BINDING.tmp" "$BINDING"
	assert_unbound_commit "signature does not verify"
}

@test "truncated binding re-signed (not valid JSON)" {
	head -c 40 "$BINDING" >"$BINDING.tmp" && mv "$BINDING.tmp" "$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	assert_unbound_commit "not valid v1 JSON"
}

@test "oversized binding (> 64 KiB), properly signed" {
	local pad
	pad=$(head -c 70000 /dev/zero | tr '\0' x)
	printf '{"version":1,"agent":"ag1","task_id":"t","branch":"feat/a","worktree":"%s","pad":"%s"}' \
		"$WT" "$pad" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	assert_unbound_commit ""
}

@test "a binding just under the size cap with unknown keys still binds" {
	local pad
	pad=$(head -c 60000 /dev/zero | tr '\0' x)
	printf '{"version":1,"agent":"ag1","task_id":"t","branch":"feat/a","worktree":"%s","pad":"%s"}' \
		"$WT" "$pad" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	cd "$WT"
	run agit commit --allow-empty -q -m big
	assert_success
}

write_version() {
	printf '{"version":%s,"agent":"ag1","task_id":"t","branch":"feat/a","worktree":"%s"}' \
		"$1" "$WT" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
}

@test "version 2 fails closed, loudly" {
	write_version 2
	assert_unbound_commit "version not supported"
	assert_output --partial "binding format version"
}

@test "version \"1\" (a string) fails closed" {
	write_version '"1"'
	assert_unbound_commit "version not supported"
}

@test "version 1.5 fails closed" {
	write_version 1.5
	assert_unbound_commit "version not supported"
}

@test "version 1 in any key order binds; absent version is legacy v1" {
	printf '{"worktree":"%s","task_id":"t","branch":"feat/a","agent":"ag1","version":1}' \
		"$WT" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	cd "$WT"
	run agit commit --allow-empty -q -m order
	assert_success
	printf '{"agent":"ag1","task_id":"t","branch":"feat/a","worktree":"%s"}' "$WT" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	run agit commit --allow-empty -q -m legacy
	assert_success
}

@test "task_id of the wrong type fails closed" {
	printf '{"version":1,"agent":"ag1","task_id":7,"branch":"feat/a","worktree":"%s"}' \
		"$WT" >"$BINDING"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$BINDING"
	assert_unbound_commit ""
}

@test "orphan worktree: the bound path no longer exists" {
	ag_write_binding ag1 feat/a "$T/gone"
	assert_unbound_commit "no longer exists"
}

@test "missing integrity key" {
	rm "$AGENTIC_GIT_HOME/.config-integrity-key"
	assert_unbound_commit "integrity key missing"
}

@test "short integrity key (16 bytes)" {
	head -c 16 /dev/urandom >"$AGENTIC_GIT_HOME/.config-integrity-key"
	assert_unbound_commit "integrity key missing or not 32 bytes"
}

@test "a different 32-byte key does not verify" {
	head -c 32 /dev/urandom >"$AGENTIC_GIT_HOME/.config-integrity-key"
	assert_unbound_commit "signature does not verify"
}

@test "partial binding (no task_id) is unbound and does not name its path" {
	ag_write_binding ag1 feat/a "$WT" ""
	assert_unbound_commit "no task_id"
}

@test "a binding copied from another agent does not bind the copier" {
	ag_bind ag2 feat/b
	export AGENTIC_GIT_AGENT=ag1
	cp "$AGENTIC_GIT_HOME/runtime/ag2/binding.json" "$BINDING"
	cp "$AGENTIC_GIT_HOME/runtime/ag2/binding.json.sig" "$BINDING.sig"
	# ag1 tries to work in ag2's worktree with ag2's binding
	cd "$T"
	run agit -C "$AGENTIC_GIT_HOME/worktrees/ag2/feat/b" commit --allow-empty -q -m stolen
	assert_equal "$status" 1
	assert_equal "$(head_of "$AGENTIC_GIT_HOME/worktrees/ag2/feat/b")" "$WT_HEAD"
	IN_DIR=$REPO assert_unbound_commit "signature does not verify"
	assert_equal "$(head_of "$REPO")" "$WT_HEAD"
}

@test "invalid agent name ../x is unbound and never reads ../x/binding.json" {
	# a perfectly signed binding where ../x would lead
	mkdir -p "$AGENTIC_GIT_HOME/x"
	printf '{"version":1,"agent":"../x","task_id":"t","branch":"feat/a","worktree":"%s"}' \
		"$WT" >"$AGENTIC_GIT_HOME/x/binding.json"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/x/binding.json"
	export AGENTIC_GIT_AGENT=../x
	IN_DIR=$REPO assert_unbound_commit "invalid agent name"
	assert_equal "$(head_of "$REPO")" "$WT_HEAD"
}

@test "other invalid agent names are unbound" {
	local name
	for name in "a/b" ".." "Ag1" "ag 1" "-x"; do
		export AGENTIC_GIT_AGENT=$name
		cd "$REPO"
		run agit commit --allow-empty -q -m x
		assert_equal "$status" 1
		assert_output --partial "invalid agent name"
	done
	assert_equal "$(head_of "$REPO")" "$WT_HEAD"
}

@test "legacy AGEND_INSTANCE_NAME names the agent when AGENTIC_GIT_AGENT is unset" {
	unset AGENTIC_GIT_AGENT
	export AGEND_INSTANCE_NAME=ag1
	cd "$REPO"
	run agit commit --allow-empty -q -m legacy-agent
	assert_success
	assert_equal "$(head_of "$REPO")" "$("$REAL_GIT" rev-parse main)"
	assert_equal "$("$REAL_GIT" -C "$WT" log -1 --format=%s)" legacy-agent
}

@test "unbound deny records one deny event" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$REPO"
	run agit -C "$REPO" gc
	assert_denied unbound
	assert_events 1
	assert_last_event deny gc
}

@test "unbound fetch: only into remote-tracking refs, never into local branches" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	"$REAL_GIT" -C "$REPO" push -q origin main:refs/heads/other
	cd "$REPO"
	run agit fetch origin other:master
	assert_denied unbound
	run agit fetch origin +other:refs/heads/newb
	assert_denied unbound
	run agit fetch origin 'refs/heads/*:refs/heads/*'
	assert_denied unbound
	run "$REAL_GIT" for-each-ref refs/heads/master refs/heads/newb
	assert_output ""
	run agit fetch -q origin other:refs/remotes/origin/other
	assert_success
	run agit fetch -q origin other
	assert_success
	# a shallow fetch rewrites the repository's shared shallow file (I7)
	run agit fetch -q --depth 1 origin
	assert_denied unbound
	[ ! -e "$REPO/.git/shallow" ]
}

# found by the invariant fuzzer (docs/fuzzing.md, I5)
@test "no binding: a read command told to write a file (archive -o, format-patch -o, diff --output) is denied and writes nothing" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$REPO"
	echo "operator's unsaved work" >>README.md
	cp README.md "$T/readme.before"
	local f
	for f in "archive -o $REPO/README.md HEAD" "archive -vo$REPO/README.md HEAD" \
		"format-patch -o $T/patches HEAD~0" "diff --output=$REPO/README.md" \
		"log --output $REPO/README.md -1" "bugreport -o $T/report" \
		"mailinfo $REPO/README.md $T/patch"; do
		# shellcheck disable=SC2086
		run agit $f
		[ "$status" -eq 1 ] || fail "'git $f' was not denied (status $status): $output"
		assert_output --partial "unbound — no active task assignment"
	done
	cmp README.md "$T/readme.before"
	[ ! -e "$T/patches" ]
	[ ! -e "$T/report" ]
	[ ! -e "$T/patch" ]
	# the plain read forms still pass
	run agit archive --format=tar HEAD
	assert_success
	run agit format-patch -1 --stdout
	assert_success
}

# docs/fuzzing.md I21: format-patch with no -o writes its patches into the
# working directory; an unbound agent has no worktree to write them into.
@test "no binding: format-patch without --stdout is denied, names the way out, and writes nothing into the operator's checkout" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	commit_file "$REPO" two.txt
	cd "$REPO"
	local before f
	before=$("$REAL_GIT" status --porcelain --ignored)
	for f in "format-patch -1" "format-patch HEAD~1 HEAD" "format-patch --stdout --no-stdout -1" \
		"format-patch --stdo -1" "format-patch --cover-letter -1" "format-patch -1 -- --stdout"; do
		# shellcheck disable=SC2086
		run agit $f
		[ "$status" -eq 1 ] || fail "'git $f' was not denied (status $status): $output"
		assert_output --partial "unbound — no active task assignment"
		assert_output --partial "writes files"
		assert_output --partial "format-patch --stdout"
	done
	assert_equal "$("$REAL_GIT" status --porcelain --ignored)" "$before"
	[ -z "$(ls "$REPO"/*.patch 2>/dev/null)" ]
	run agit format-patch --no-stdout --stdout -1
	assert_success
	assert_output --partial "Subject:"
}

# Review of d5ccd4a: a read-only form judged by its exact spelling, where
# git expands an abbreviation or takes the flag for the value of the
# option before it; forms that start a program the command line names.
@test "no binding: abbreviations, flags that are an option's value and programs the command line names are no reads" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	commit_file "$REPO" two.txt
	cd "$REPO"
	local before cfg f
	before=$("$REAL_GIT" status --porcelain --ignored)
	cfg=$(cat "$REPO/.git/config")
	echo "a blob no commit holds" >"$T/blob.txt"
	for f in "format-patch --subject-prefix --stdout -1" "format-patch --stdout --no-stdou -1" \
		"interpret-trailers --in-pl --trailer X:y README.md" "config --remove-s remote.origin" \
		"branch --sort -l foo" "branch --format --list foo" "hash-object -wt blob $T/blob.txt"; do
		# shellcheck disable=SC2086
		run agit $f
		[ "$status" -ne 0 ] || fail "'git $f' ran (status 0): $output"
	done
	run agit grep -O'echo x >pwned-grep.txt;:' hello
	assert_output --partial "unbound — no active task assignment"
	run agit ls-remote --upload-pack='echo x >pwned-lsr.txt; git-upload-pack' .
	assert_output --partial "unbound — no active task assignment"
	assert_equal "$("$REAL_GIT" status --porcelain --ignored)" "$before"
	assert_equal "$(cat "$REPO/.git/config")" "$cfg"
	[ -z "$("$REAL_GIT" branch --list foo)" ]
	run "$REAL_GIT" cat-file -e "$("$REAL_GIT" hash-object "$T/blob.txt")"
	assert_failure
	# the plain forms still read
	run agit format-patch --subject-prefix=X --stdout -1
	assert_success
	assert_output --partial "[X"
	run agit branch --sort=refname --list
	assert_success
	run agit grep hello
	assert_success
}
