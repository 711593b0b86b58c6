# SPDX-License-Identifier: Apache-2.0
# The invariant fuzzer's generator (docs/fuzzing.md, "The invariant fuzzer").
#
#   awk -v seed=N -v start=I -v count=K -f gen.awk optlist.tsv
#
# prints K command lines, numbers I..I+K-1, one per line, tokens separated by
# tabs: first NAME=VALUE environment assignments, then "git" and its argv.
# Placeholders (@WT@, @REPO@, @SENT@, ...) are filled in by the runner, so a
# line means the same in every scratch fleet. The option table comes from the
# installed git, so a seed gives the same lines for the same git version. Command i depends only on
# (seed, i), with a generator of our own (MINSTD) rather than awk's rand(),
# so mawk and gawk print the same lines.
#
# optlist.tsv is what git says about itself (invfuzz.sh builds it from
# `git <cmd> -h` and `git <cmd> --git-completion-helper`): one option a line,
#   <cmd> TAB <short letter or empty> TAB <long name or empty> TAB <0|1|2>
# 0: no value, 1: a value, 2: an optional value (only stuck).

function rnd(n) {		# 0 <= rnd(n) < n
	X = (X * 48271) % 2147483647
	return int(X / 2147483647 * n)
}
function pick(s,   a, k) {	# one of the space-separated words of s
	k = split(s, a, " ")
	return a[rnd(k) + 1]
}
function chance(p) { return rnd(1000) < p * 1000 }
function add(t) { line = (line == "" ? t : line "\t" t) }

function cfgkey() {
	return pick(DANGER_KEYS " " DANGER_KEYS " " INERT_KEYS)
}
function cfgval(k) {
	if (k in KEYVAL)
		return pick(KEYVAL[k])
	return pick("true false 1 0 @SENT@/evil.sh /dev/null x")
}
function environment(   n, j, k, kind) {
	kind = rnd(4)
	if (kind == 0) {
		n = 1 + rnd(2)
		add("GIT_CONFIG_COUNT=" n)
		for (j = 0; j < n; j++) {
			k = cfgkey()
			add("GIT_CONFIG_KEY_" j "=" k)
			add("GIT_CONFIG_VALUE_" j "=" cfgval(k))
		}
	} else if (kind == 1) {
		k = cfgkey()
		add("GIT_CONFIG_PARAMETERS='" k "'='" cfgval(k) "'")
	} else {
		k = pick(ENV_WORDS)
		# an unbound agent's bypass is honoured by design (the original
		# contract; docs/threat-model.md), so it is not a finding
		if (UNBOUND && k ~ /^AGENTIC_GIT_BYPASS/)
			k = "AGENTIC_GIT_BYPASS=0"
		add(k)
	}
}
function globals(   n, j, k) {
	n = 1 + rnd(2)
	for (j = 0; j < n; j++) {
		if (chance(0.4)) {
			k = cfgkey()
			add("-c")
			add(k "=" cfgval(k))
		} else if (chance(0.15)) {
			add("--config-env=" cfgkey() "=HOME")
		} else {
			k = pick(GLOBALS)
			gsub(/~/, "\t", k)
			add(k)
		}
	}
}
function value_for(name) {
	if (name ~ /pathspec-from-file/)
		return pick("- @/file.txt")
	if (name ~ /exec|pack|cmd|command|program|editor|hook|upload|receive/)
		return pick("@SENT@/evil.sh /dev/null sh")
	if (name ~ /file|path|dir|output|template|directory/)
		return pick(PATHS " @SENT@/out")
	if (name ~ /message|reason|subject/)
		return "msg"
	return pick(REFS " " VALUES)
}
# option OPT: append one spelling of option number OPT of the command
function option(o,   s, l, a, v, cut, spell) {
	s = OS[o]; l = OL[o]; a = OA[o]
	if (s == "" && l == "")
		return
	v = value_for(l == "" ? s : l)
	spell = (s != "" && (l == "" || chance(0.5))) ? "short" : "long"
	if (spell == "short") {
		if (a == 0 && chance(0.4)) {		# cluster with a flag
			PENDING = PENDING s
			return
		}
		if (a == 1 && chance(0.5))
			add("-" PENDING s v)		# stuck: -bX, -qbX
		else if (a == 1) {
			add("-" PENDING s); add(v)
		} else
			add("-" PENDING s)
		PENDING = ""
		return
	}
	if (length(l) > 3 && chance(0.35)) {		# a unique prefix, maybe
		cut = 2 + rnd(length(l) - 2)
		l = substr(l, 1, cut)
	}
	if (a == 1 && chance(0.5))
		add("--" l "=" v)
	else if (a == 1) {
		add("--" l); add(v)
	} else if (a == 2 && chance(0.4))
		add("--" l "=" v)
	else
		add("--" l)
}
function positional() {
	if (chance(0.5))
		return pick(REFS)
	if (chance(0.6))
		return pick(PATHS)
	return pick(REMOTES " " VALUES)
}

function generate(i,   cmd, n, j, o, npos, dashes) {
	X = (seed * 7919 + i * 104729) % 2147483646 + 1
	for (j = 0; j < 4; j++)
		rnd(2)
	line = ""
	PENDING = ""
	UNBOUND = chance(0.08)
	if (chance(0.15))
		environment()
	if (UNBOUND) {		# an agent with no binding, in the operator's checkout
		add("AGENTIC_GIT_AGENT=ag3")
		add("@cd=@REPO@")
	}
	if (chance(0.1))		# from elsewhere in the same repository
		add("@cd=" pick("@REPO@ @REPO@/src @WT@/src"))
	if (chance(0.1))		# pathspecs on stdin (--pathspec-from-file=-, -F -)
		add("@stdin=README.md\\n.env\\nwork\\nbuild/out.o\\n")
	add("git")
	if (chance(0.2))
		globals()
	cmd = chance(0.65) ? pick(HOT) : CMDS[rnd(NCMD) + 1]
	add(cmd)
	if ((cmd in SUBWORDS) && chance(0.75))
		add(pick(SUBWORDS[cmd]))
	n = (cmd in NOPT) ? rnd(4) : 0
	for (j = 0; j < n; j++) {
		o = FIRST[cmd] + rnd(NOPT[cmd])
		option(o)
	}
	if (PENDING != "")
		add("-" PENDING)
	npos = rnd(4)
	dashes = chance(0.3) ? rnd(npos + 1) : -1
	for (j = 0; j < npos; j++) {
		if (j == dashes)
			add("--")
		add(positional())
	}
	if (dashes == npos)
		add("--")
	print line
}

BEGIN {
	FS = "\t"
	HOT = "checkout switch reset clean branch tag update-ref symbolic-ref" \
	    " push fetch pull stash restore rm mv config gc reflog merge rebase" \
	    " cherry-pick revert commit add apply am notes replace fast-import" \
	    " send-pack worktree submodule maintenance remote init clone bundle" \
	    " prune pack-refs repack read-tree checkout-index update-index" \
	    " sparse-checkout bisect rerere merge-file hook subtree"
	REFS = "main master feat/b feat/a other v1 HEAD HEAD~1 @ @{-1} -" \
	    " main-worktree/HEAD worktrees/b/HEAD refs/heads/main" \
	    " refs/heads/master refs/heads/feat/b refs/heads/feat/a refs/stash" \
	    " stash@{0} @SNAP1@ @SNAP2@ refs/agentic-git/snapshots/ag1/x" \
	    " refs/tags/v1 origin/main origin/feat/b newbr refs/heads/newbr" \
	    " ORIG_HEAD FETCH_HEAD feat/a:main feat/a:refs/heads/main" \
	    " +HEAD:refs/heads/feat/b :main :refs/heads/master" \
	    " x*:refs/agentic-git* +refs/heads/*:refs/heads/*" \
	    " +refs/agentic-git/*:refs/agentic-git/* HEAD:refs/heads/master" \
	    " feat/a:heads/master HEAD:refs/tags/v1"
	PATHS = ". README.md src src/main.c work work/u0.txt .env .gitignore" \
	    " .agend-managed :(top) :/ * :(exclude)README.md .. @REPO@" \
	    " @REPO@/README.md @WT2@ @WT2@/README.md @SENT@ @SENT@/file.txt" \
	    " @HOME@/.gitconfig .git .git/config nonexist"
	REMOTES = "origin . @ORIGIN@ @REPO@ @WT2@"
	VALUES = "x 1 0 true now all"
	GLOBALS = "-C~@REPO@ -C~.. -C~@WT2@ -C~src --git-dir=@REPO@/.git" \
	    " --git-dir~@REPO@/.git --work-tree=@REPO@ --namespace=x" \
	    " --exec-path=@SENT@ --bare -p --no-pager --literal-pathspecs" \
	    " --glob-pathspecs --no-replace-objects --no-optional-locks -P" \
	    " --git-dir=@WT2@/.git --work-tree=@WT2@"
	# Never AGENTIC_GIT_AGENT=<another fleet agent> (docs/fuzzing.md I3):
	# an agent that names another acts as it, by design of an identity
	# taken from the environment; without a sandbox same-uid agents are
	# not separated at all (a shell can rm the other's files), so the
	# control is the sandbox's (t0642), and this unsandboxed run would
	# only report it again (corpus/outofscope-impersonation.cmds).
	ENV_WORDS = "GIT_DIR=@REPO@/.git GIT_WORK_TREE=@REPO@" \
	    " GIT_INDEX_FILE=@REPO@/.git/index GIT_COMMON_DIR=@SENT@" \
	    " GIT_CONFIG_GLOBAL=@SENT@/cfg GIT_CONFIG_SYSTEM=@SENT@/cfg" \
	    " GIT_CONFIG=@SENT@/cfg GIT_EXEC_PATH=@SENT@ GIT_NAMESPACE=x" \
	    " AGENTIC_GIT_BYPASS=1" \
	    " AGENTIC_GIT_HOME=@SENT@ GIT_SSH_COMMAND=@SENT@/evil.sh" \
	    " GIT_EDITOR=@SENT@/evil.sh GIT_SEQUENCE_EDITOR=@SENT@/evil.sh" \
	    " GIT_OBJECT_DIRECTORY=@SENT@ GIT_DIR=@WT2@/.git" \
	    " GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS=0 GIT_CONFIG_NOSYSTEM=0" \
	    " AGENTIC_GIT_REAL_GIT=@SENT@/evil.sh GIT_TRACE=@HOME@/trace" \
	    " GIT_TRACE_PACKET=@HOME@/.gitconfig GIT_TRACE2_EVENT=@HOME@" \
	    " GIT_TRACE2_PERF=af_unix:@HOME@/s GIT_TRACE=1 GIT_TRACE_SETUP=2"
	DANGER_KEYS = "core.hooksPath alias.st alias.status remote.origin.mirror" \
	    " core.fsmonitor core.sshCommand remote.origin.url remote.origin.push" \
	    " remote.origin.fetch push.default core.worktree core.bare" \
	    " include.path gpg.program core.pager core.editor url.@SENT@.insteadOf" \
	    " clean.requireForce gc.pruneExpire core.logAllRefUpdates" \
	    " extensions.worktreeConfig core.excludesFile receive.denyCurrentBranch" \
	    " gpg.ssh.defaultKeyCommand sequence.editor filter.x.clean" \
	    " diff.x.textconv core.gitProxy credential.helper init.templateDir" \
	    " rebase.updateRefs"
	INERT_KEYS = "user.name advice.detachedHead color.ui status.short"
	KEYVAL["core.hooksPath"] = "/dev/null @SENT@"
	KEYVAL["alias.st"] = "!@SENT@/evil.sh reset~--hard update-ref~refs/heads/main~HEAD"
	KEYVAL["alias.status"] = "!@SENT@/evil.sh clean~-fdx"
	KEYVAL["remote.origin.mirror"] = "true"
	KEYVAL["remote.origin.url"] = "@SENT@ @REPO@"
	KEYVAL["remote.origin.push"] = "refs/heads/*:refs/heads/* +refs/agentic-git/*:refs/agentic-git/*"
	KEYVAL["remote.origin.fetch"] = "+refs/heads/*:refs/heads/* +refs/heads/*:refs/agentic-git/*"
	KEYVAL["push.default"] = "matching upstream simple"
	KEYVAL["core.worktree"] = "@REPO@ @WT2@"
	KEYVAL["clean.requireForce"] = "false"
	KEYVAL["gc.pruneExpire"] = "now"
	KEYVAL["include.path"] = "@SENT@/cfg"
	KEYVAL["url.@SENT@.insteadOf"] = "@ORIGIN@"
	for (k in KEYVAL)
		gsub(/~/, " ", KEYVAL[k])
	# subcommands whose first positional is a subcommand word
	SUBWORDS["stash"] = "push pop apply drop clear list show branch create store save"
	SUBWORDS["remote"] = "add rename remove rm set-head set-branches get-url set-url show prune update"
	SUBWORDS["worktree"] = "add list lock move prune remove repair unlock"
	SUBWORDS["notes"] = "add append copy edit show merge remove prune get-ref list"
	SUBWORDS["bisect"] = "start bad good skip reset log run terms"
	SUBWORDS["sparse-checkout"] = "init list set add reapply disable"
	SUBWORDS["submodule"] = "add status init deinit update set-branch set-url summary foreach sync absorbgitdirs"
	SUBWORDS["reflog"] = "show expire delete exists list"
	SUBWORDS["maintenance"] = "run start stop register unregister"
	SUBWORDS["bundle"] = "create verify list-heads unbundle"
	SUBWORDS["hook"] = "run"
	SUBWORDS["subtree"] = "add merge split push pull"
}
{
	cmd = $1
	if (!(cmd in NOPT)) {
		CMDS[++NCMD] = cmd
		NOPT[cmd] = 0
		FIRST[cmd] = NO + 1
	}
	NO++
	NOPT[cmd]++
	OS[NO] = $2; OL[NO] = $3; OA[NO] = $4 + 0
}
END {
	if (NCMD == 0) {
		print "gen.awk: empty option list" > "/dev/stderr"
		exit 2
	}
	for (i = start; i < start + count; i++)
		generate(i)
}
