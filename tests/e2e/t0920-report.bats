#!/usr/bin/env bats
# agentic-git report: the fleet page (fleet/report.h invariants 1-4),
# checked as text and in a real headless Chromium (threats T105, T106).
load lib

setup() {
	ag_setup
	cd "$REPO"
}

# chromium_dom FILE: the page's DOM after Chromium loaded and laid it out.
chromium_dom() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$T/chromium" \
		--dump-dom "file://$1" 2>/dev/null
}

# The text of a journal string as the DOM serializer writes a text node.
dom_text() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
}

# Two sessions through `run`: a1 commits twice (one file named as markup),
# is denied a checkout of main and drops its last commit (a snapshot); a2
# commits once.
two_sessions() {
	"$AG_BIN" run --agent a1 --branch feat/a -- sh -c '
		echo x >"<img src=x onerror=alert(1)>"
		git add -A && git commit -qm "add <b>bold</b> file"
		echo y >>README.md && git commit -qam second
		git checkout main
		git reset -q --hard HEAD~1
		true' 2>/dev/null
	"$AG_BIN" run --agent a2 --branch feat/b -- sh -c '
		echo z >z.txt && git add z.txt && git commit -qm zed' 2>/dev/null
}

@test "report: --help, bad usage and an unwritable target change nothing" {
	run "$AG_BIN" report --help
	assert_success
	assert_output --partial "usage: agentic-git report [-o FILE]"
	run "$AG_BIN" report --bogus
	assert_equal "$status" 2
	assert_output --partial "report: unknown option '--bogus'"
	run "$AG_BIN" report extra
	assert_equal "$status" 2
	run "$AG_BIN" report -o ''
	assert_equal "$status" 2
	assert_output --partial "needs a non-empty value"
	mkdir "$T/adir"
	must_fail "$AG_BIN" report -o "$T/adir"
	assert_output --partial "report: cannot write '$T/adir'"
	assert_equal "$(ls -A "$T/adir")" ""
	must_fail "$AG_BIN" report -o "$T/no/such/dir/page.html"
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$T/no" ]
	[ ! -e fleet-report.html ]
}

@test "report: with no session, the default file in the current directory" {
	run "$AG_BIN" report
	assert_success
	assert_output --partial "report: wrote fleet-report.html (0 sessions"
	grep -q "(no sessions)" fleet-report.html
	grep -q "(no dispatch runs)" fleet-report.html
	[ "$(stat -c %a fleet-report.html)" = 600 ]
}

@test "report: sessions, commits, diffstat, denies, snapshots and restore command" {
	two_sessions
	run "$AG_BIN" report -o -
	assert_success
	page=$output
	# invariant 2: nothing to load, no script
	! grep -qiE '<script|<img|<iframe|<link|<object|src=|https?:' <<<"$page"
	grep -q '<tr class="session" id="s0"><td><a href="#a0">a1</a>' <<<"$page"
	grep -q 'a2</a>' <<<"$page"
	# invariant 1: markup from the agent is text
	grep -qF '&lt;img src=x onerror=alert(1)&gt;' <<<"$page"
	grep -qF 'add &lt;b&gt;bold&lt;/b&gt; file' <<<"$page"
	grep -qF '<td class="n ahead">1</td>' <<<"$page"
	grep -qF 'zed' <<<"$page"
	grep -qF '1 file, <span class="add">+1</span>' <<<"$page"
	# the deny and its reason
	grep -qF 'cross-branch' <<<"$page"
	# the snapshot's restore command restores it
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/a1/)
	[ -n "$ref" ]
	wt=$AGENTIC_GIT_HOME/worktrees/a1/feat/a
	grep -qF "agentic-git snapshots restore &#39;$ref&#39; --repo &#39;$wt&#39; --head" <<<"$page"
	run "$AG_BIN" snapshots restore "$ref" --repo "$wt" --head --yes
	assert_success
	[ "$("$REAL_GIT" -C "$wt" log -1 --format=%s)" = second ]
}

@test "report: git reads the operator's repository only, with no driver of the branch" {
	two_sessions
	# agent-written attributes (on its branch, and left in the operator's
	# checkout) asking for a textconv and an external diff
	wt=$AGENTIC_GIT_HOME/worktrees/a2/feat/b
	echo '* diff=evil' >"$wt/.gitattributes"
	"$REAL_GIT" -C "$wt" add .gitattributes
	"$REAL_GIT" -C "$wt" -c core.hooksPath=/dev/null commit -qm attrs
	echo '* diff=evil' >"$REPO/.gitattributes"
	echo '* diff=evil' >"$T/attributes"
	"$REAL_GIT" config core.attributesFile "$T/attributes"
	"$REAL_GIT" config diff.evil.textconv "touch $T/textconv-ran; cat"
	"$REAL_GIT" config diff.evil.command "$T/extdiff"
	"$REAL_GIT" config diff.external "$T/extdiff"
	printf '#!/bin/sh\ntouch %s/extdiff-ran\n' "$T" >"$T/extdiff"
	chmod +x "$T/extdiff"
	# a signed commit on the branch, and a verifier in the repository's config
	printf '#!/bin/sh\ncase "$*" in *--verify*) touch %s/gpg-ran; exit 0;; esac\ncat >/dev/null\nprintf "\\n[GNUPG:] SIG_CREATED D 1 8 00 0 0\\n" >&2\nprintf -- "-----BEGIN PGP SIGNATURE-----\\n\\nx\\n-----END PGP SIGNATURE-----\\n"\n' "$T" >"$T/gpg"
	chmod +x "$T/gpg"
	echo s >"$wt/signed.txt"
	"$REAL_GIT" -C "$wt" add signed.txt
	"$REAL_GIT" -C "$wt" -c core.hooksPath=/dev/null -c gpg.program="$T/gpg" commit -S -qm signed
	"$REAL_GIT" config log.showSignature true
	"$REAL_GIT" config gpg.program "$T/gpg"
	"$REAL_GIT" log -1 feat/b >/dev/null
	[ -e "$T/gpg-ran" ] # the verifier does run for plain git here
	rm "$T/gpg-ran"
	run "$AG_BIN" report -o "$T/page.html"
	assert_success
	[ ! -e "$T/gpg-ran" ]
	[ ! -e "$T/textconv-ran" ]
	[ ! -e "$T/extdiff-ran" ]
	grep -qF '3 commits on no other branch; 3 files' "$T/page.html"
	# the agents' worktrees keep no lock of ours and no index refresh
	[ ! -e "$REPO/.git/index.lock" ]
}

@test "report: the journal is bounded and a broken line is counted, not fatal" {
	two_sessions
	printf 'not json\n{"event":"x"}\n' >>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	for i in $(seq 1 600); do
		printf '{"event":"ref_update","disposition":"info","agent":"a2","timestamp":"2026-12-06T08:00:00Z","ref":"r%d"}\n' "$i"
	done >>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	run "$AG_BIN" report -o -
	assert_success
	grep -qF ', 1 unreadable' <<<"$output"
	grep -qF 'the newest 500 of' <<<"$output"
	[ "$(grep -c '<tr class="ev ' <<<"$output")" -eq 500 ]
}

@test "report: dispatch runs are listed from their meta files" {
	run_dir=$AGENTIC_GIT_HOME/runs/20261206T080000Z-abcdef
	mkdir -p "$run_dir"
	cat >"$run_dir/svc-a.meta.yaml" <<'YAML'
key: svc-a
repo: /src/a
head: "fix/<img src=x>"
base: main
status: pushed
exit_code: 0
duration_seconds: 1.500000
verdict: RESOLVED
push:
  status: pushed
YAML
	echo 'key: [broken' >"$run_dir/svc-b.meta.yaml"
	run "$AG_BIN" report -o -
	assert_success
	grep -qF 'run 20261206T080000Z-abcdef (1 target)' <<<"$output"
	grep -qF '<td>svc-a</td><td>/src/a</td><td>fix/&lt;img src=x&gt;</td>' <<<"$output"
	grep -qF "cannot read &#39;svc-b.meta.yaml&#39;" <<<"$output"
}

@test "report: the page in headless Chromium holds what the journal holds, markup stays text" {
	prereq chromium command -v chromium
	two_sessions
	# a hostile record in the journal, and a hostile branch name
	printf '%s\n' '{"event":"deny","disposition":"deny","agent":"a2","subcommand":"push","timestamp":"2026-12-06T09:00:00Z","reason":"</td></tr></table><img src=x onerror=alert(2)><script>document.title=1</script>"}' \
		>>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	ag_bind a3 'x<img/src=x/onerror=alert(3)>' 2>/dev/null
	"$AG_BIN" report -o "$T/page.html"
	dom=$(chromium_dom "$T/page.html")
	[ -n "$dom" ]
	grep -q '<title>agentic-git fleet report</title>' <<<"$dom"
	# the markup stayed text: no element came out of it
	! grep -qiE '<img|<script|<b>' <<<"$dom"
	grep -qF '&lt;img src=x onerror=alert(1)&gt;' <<<"$dom"
	grep -qF '&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;img src=x onerror=alert(2)&gt;' <<<"$dom"
	grep -qF 'x&lt;img/src=x/onerror=alert(3)&gt;' <<<"$dom"
	# every journal line is a timeline row; every deny's reason is there
	nlines=$(wc -l <"$AGENTIC_GIT_HOME/fleet_events.jsonl")
	[ "$(grep -o '<tr class="ev ' <<<"$dom" | wc -l)" -eq "$nlines" ]
	ndeny=$(jq -r 'select(.disposition=="deny") | .reason' "$AGENTIC_GIT_HOME/fleet_events.jsonl" | wc -l)
	[ "$ndeny" -eq 2 ]
	[ "$(grep -o '<tr class="deny-row deny">' <<<"$dom" | wc -l)" -eq "$ndeny" ]
	while IFS= read -r reason; do
		grep -qF "$(dom_text <<<"$reason")" <<<"$dom"
	done < <(jq -r 'select(.disposition=="deny") | .reason' "$AGENTIC_GIT_HOME/fleet_events.jsonl")
	# every commit subject of each branch
	for b in feat/a feat/b; do
		while IFS= read -r s; do
			grep -qF "$(dom_text <<<"$s")" <<<"$dom"
		done < <("$REAL_GIT" log --format=%s "$b" --not main)
	done
	# the layout held: each session is one row of the sessions table
	[ "$(grep -o '<tr class="session"' <<<"$dom" | wc -l)" -eq 3 ]
}
