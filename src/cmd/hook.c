/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git hook [--home H] <name> …: the logic behind the session's
 * hook stubs (git/hooks.h).
 *
 * Invariants:
 *  1. MUST add provenance trailers only from a binding whose signature
 *     verifies (ag_binding_load() == AG_BINDING_BOUND).
 *  2. MUST add them at most once per commit message (amend included).
 *  3. MUST journal every committed ref update, one event per ref.
 *     Trailers and journal name the worktree's own session when the
 *     hooks' home finds one (as invariant 4 finds it), whatever the
 *     environment says; else the session the environment names.
 *  4. MUST exit 0 whatever happens, except in pre-push (git/pushpin.h)
 *     and in the `prepared` state of a
 *     transaction in a session's worktree, where an update git/reftx.h
 *     refuses aborts the transaction (exit 1, one line), and invariant 5. The
 *     session is found from the hooks' own home (--home) and the worktree
 *     git runs in, by verified bindings, never from the agent's
 *     environment (a name it or the worktree's marker gives is only tried
 *     first); its bypass counts only as the binding allows.
 *  5. In `prepared`, MUST refuse the transaction when no verified binding
 *     names the worktree and the home's sessions cannot be listed (a
 *     Landlock cage): whose worktree it is cannot be told (t0713.4).
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "git/ended-branches.h"
#include "git/pushpin.h"
#include "git/realgit.h"
#include "git/reftx-keep.h"
#include "git/reftx.h"
#include "git/repo-probe.h"
#include "git/repo.h"
#include "git/trailers.h"

#define MSG_MAX (4u << 20)
#define HOOK_LINE_MAX 4096

static const char usage_text[] =
	"usage: agentic-git hook <name> [<args>]\n\n"
	"Run by the hook stubs a session installs (with --home <home>); exits 0\n"
	"except to refuse a prepared ref update in an agent's worktree.\n\n"
	"  prepare-commit-msg <file> [<source> [<sha>]]\n"
	"      add the Agentic-* provenance trailers (verified binding only)\n"
	"  reference-transaction <state>\n"
	"      prepared: refuse what an agent may not move (git/reftx.h);\n"
	"      committed: journal the ref updates to fleet_events.jsonl\n"
	"  pre-push <remote> <url>\n"
	"      send only what the push guard scanned (git/pushpin.h); refuse a\n"
	"      push in an agent's worktree that did not come through the guard\n";

static void add_trailers(const char *file, const struct ag_binding *b,
			 const char *agent)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;
	struct trailer_vals v = { b->agent && *b->agent ? b->agent : agent,
				  b->task_id, b->branch, b->issued_at };

	if (read_file_bounded(file, MSG_MAX, RF_REGULAR, &msg) < 0) {
		warning("hook prepare-commit-msg: cannot read '%s': %s", file,
			strerror(errno));
	} else if (trailers_apply(msg.buf, msg.len, &v, &out) == 1 &&
		   write_file_atomic(file, out.buf, out.len, 0644) < 0) {
		warning("hook prepare-commit-msg: cannot write '%s': %s", file,
			strerror(errno));
	}
	strbuf_release(&msg);
	strbuf_release(&out);
}

/*
 * The git subcommand of our parent (git runs the hook), or "", and
 * whether its command line may amend (an argument starting `--am`: git
 * takes a unique prefix of --amend).
 */
static void parent_subcommand(struct strbuf *out, bool *amend)
{
	static const char *const with_value[] = { "-C", "-c", "--git-dir",
						  "--work-tree", "--namespace",
						  "--config-env" };
	struct strbuf path = STRBUF_INIT, cmdline = STRBUF_INIT;
	const char *p, *end;
	bool skip_next = false, first = true;

	if (amend)
		*amend = true; /* unknown: as if */
	strbuf_addf(&path, "/proc/%ld/cmdline", (long)getppid());
	if (read_file_bounded(path.buf, 65536, 0, &cmdline) < 0)
		goto out;
	if (amend)
		*amend = false;
	for (p = cmdline.buf, end = cmdline.buf + cmdline.len; p < end;
	     p += strlen(p) + 1) {
		if (amend && starts_with(p, "--am"))
			*amend = true;
		if (first || skip_next || out->len) {
			first = skip_next = false;
			continue;
		}
		if (*p != '-') {
			strbuf_add(out, p, strnlen(p, 64));
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(with_value); i++)
			if (!strcmp(p, with_value[i]))
				skip_next = true;
	}
out:
	strbuf_release(&path);
	strbuf_release(&cmdline);
}

/* git's housekeeping (pack-refs, gc): the ref keeps its value (reftx.h) */
static bool value_kept(const struct repo_loc *loc, const char *old_oid,
		       const char *new_oid, const char *ref)
{
	const struct repo_probe *p =
		repo_probe_get(loc->commondir, loc->gitdir);
	struct reftx_values v;

	if (!repo_probe_refs_ours(p) ||
	    reftx_read_values(loc->commondir, repo_probe_hexlen(p), ref, &v) <
		    0)
		return false;
	return reftx_value_kept(old_oid, new_oid, &v);
}

/* One committed "<old> <new> <ref>" line; the old id (and the tip kept)
 * `prepared` read where git gave none (git/reftx-keep.h). */
static void journal_line(const char *line, const char *agent, const char *sub,
			 const char *worktree, const char *home,
			 struct reftx_known *known, const struct repo_loc *loc)
{
	char old[128], new[128];
	const char *sp1 = strchr(line, ' '), *sp2, *was, *kept;
	struct event ev = EVENT_INIT("ref_update", agent, sub);
	bool skip = false;

	if (!sp1 || !(sp2 = strchr(sp1 + 1, ' ')) ||
	    (size_t)(sp1 - line) >= sizeof(old) ||
	    (size_t)(sp2 - sp1 - 1) >= sizeof(new))
		return;
	snprintf(old, sizeof(old), "%.*s", (int)(sp1 - line), line);
	snprintf(new, sizeof(new), "%.*s", (int)(sp2 - sp1 - 1), sp1 + 1);
	if (!reftx_known_old(known, old, new, sp2 + 1, &was, &kept, &skip))
		was = old, kept = "";
	if (skip)
		return;
	event_add_str(&ev, "ref", sp2 + 1);
	event_add_str(&ev, "old", was);
	event_add_str(&ev, "new", new);
	event_add_str(&ev, "worktree", worktree);
	if (*kept)
		event_add_str(&ev, "kept", kept);
	/* the ref still has its value: git's pack-refs moved it into
	 * packed-refs (reftx.h), no agent deleted it */
	if (loc && value_kept(loc, old, new, sp2 + 1))
		event_add_bool(&ev, "housekeeping", true);
	event_write(home, &ev); /* best effort: never blocks the update */
	event_release(&ev);
}

enum session_found { SESSION_NONE, SESSION_FOUND, SESSION_UNKNOWN };

static bool names_worktree(const struct ag_binding *b, const char *top)
{
	char *wt = b->worktree ? real_path(b->worktree) : NULL;
	bool ok = wt && !strcmp(wt, top);

	free(wt);
	return ok;
}

/*
 * The verified session whose worktree is `top`, and the others' branches
 * (`others` NULL: not wanted).
 * Inside a cage only the agent's own runtime dir is readable (Landlock
 * refuses to list the others): the names the marker at `top` and the
 * environment give are tried first, and count only when their verified
 * binding names this worktree. When neither does and the runtime dir
 * cannot be read, whose worktree this is stays unknown (fail-closed).
 */
static enum session_found find_session(const char *home, const char *top,
				       struct ag_binding *own,
				       struct strvec *others)
{
	struct strbuf rt = STRBUF_INIT;
	char *dir = NULL, *marked = marker_agent_above_canonical(top, &dir);
	const char *hint[] = { marked, ag_getenv_str(AGE_AGENT) }, *name = NULL;
	enum session_found found = SESSION_NONE;
	struct ag_binding b;
	const char *why;
	DIR *d;
	struct dirent *e;

	for (size_t i = 0; i < ARRAY_SIZE(hint) && !name; i++) {
		if (!hint[i] || !ag_agent_name_valid(hint[i], &why) ||
		    ag_binding_load(home, hint[i], &b) != AG_BINDING_BOUND)
			continue;
		if (names_worktree(&b, top)) {
			*own = b;
			name = hint[i];
			found = SESSION_FOUND;
		} else {
			ag_binding_release(&b);
		}
	}
	strbuf_addf(&rt, "%s/runtime", home);
	d = found && !others ? NULL : opendir(rt.buf);
	if (!d && !found && errno != ENOENT)
		found = SESSION_UNKNOWN;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || (name && !strcmp(e->d_name, name)) ||
		    ag_binding_load(home, e->d_name, &b) != AG_BINDING_BOUND)
			continue;
		if (!found && names_worktree(&b, top)) {
			*own = b;
			found = SESSION_FOUND;
			continue;
		}
		if (b.branch && others)
			strvec_push(others, b.branch);
		ag_binding_release(&b);
	}
	if (d)
		closedir(d);
	strbuf_release(&rt);
	free(marked);
	free(dir);
	return found;
}

static bool bypass_counts(const struct ag_binding *b)
{
	const char *layer;

	if (b->bypass && strcmp(b->bypass, AG_BYPASS_ALLOWED))
		return false;
	return ag_bypass_requested(b->agent, &layer);
}

/* value_kept() for one "<old> <new> <ref>" line */
static bool line_value_kept(const struct repo_loc *loc, const char *line)
{
	char *l = xstrdup(line), *sp1, *sp2;
	bool kept = false;

	if ((sp1 = strchr(l, ' ')) && (sp2 = strchr(sp1 + 1, ' '))) {
		*sp1 = *sp2 = '\0';
		kept = value_kept(loc, l, sp1 + 1, sp2 + 1);
	}
	free(l);
	return kept;
}

/* One "<old> <new> <ref>" line; false (reason in why) when refused. */
static bool judge_line(const struct reftx_ctx *c, const struct repo_loc *loc,
		       char *line, ssize_t n, struct strbuf *why)
{
	char *sp1, *sp2;
	bool exists;

	if (n > HOOK_LINE_MAX) {
		strbuf_addstr(why, "a ref name too long to judge (fail-closed)");
		return false;
	}
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	if (!(sp1 = strchr(line, ' ')) || !(sp2 = strchr(sp1 + 1, ' '))) {
		strbuf_addstr(why, "a line git should not have written (fail-closed)");
		return false;
	}
	*sp1 = *sp2 = '\0';
	/* unknown existence counts as existing: the stricter rules apply
	 * (no repository, or refs git could not tell: git/repo.h) */
	exists = !loc || repo_ref_state(loc, sp2 + 1) != REPO_REF_ABSENT;
	if (reftx_judge(c, exists, sp1 + 1, sp2 + 1, why))
		return true;
	if (loc && value_kept(loc, line, sp1 + 1, sp2 + 1)) {
		strbuf_reset(why);
		return true;
	}
	return false;
}

/*
 * Branches outlive sessions: keeps the tips this transaction drops and
 * the old ids git did not give (git/reftx-keep.h), for the session
 * whose worktree this is, bypassed or not (the net is not bypassed).
 */
static void keep_dropped(const char *home, const struct repo_loc *loc,
			 const char *agent, const struct strvec *lines)
{
	struct strbuf sub = STRBUF_INIT;
	struct reftx_keep k = { .loc = loc, .agent = agent, .home = home };
	bool amend;
	char *git;

	/* a commit that does not amend only adds a child to the tip */
	parent_subcommand(&sub, &amend);
	k.grows_only = !strcmp(sub.buf, "commit") && !amend;
	strbuf_release(&sub);
	if (!loc->top || !agent || !*agent || !reftx_keep_wanted(&k, lines))
		return;
	git = realgit_locate(home);
	k.real_git = git;
	if (git)
		reftx_keep_prepared(&k, lines);
	free(git);
}

/*
 * The `prepared` state: refuse what git/reftx.h refuses, for the session
 * whose worktree this is. Returns 0, or 1 after printing the reason;
 * reads every line either way.
 */
static int judge_prepared(const char *home)
{
	struct ag_binding own = { 0 };
	struct strvec others = STRVEC_INIT, ended = STRVEC_INIT,
		      lines = STRVEC_INIT;
	struct ag_protected prot;
	struct repo_loc loc = { 0 };
	struct strbuf why = STRBUF_INIT;
	struct reftx_ctx c = { .protected = &prot,
			       .others = &others,
			       .ended = &ended };
	const char *wt = getenv("GIT_WORK_TREE");
	char *line = NULL, err[256];
	enum session_found f = SESSION_NONE;
	bool on = false, have_loc;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	ag_protected_init(&prot);
	/* git may run the hook from a subdirectory: the worktree's top */
	have_loc = repo_discover(wt && *wt ? wt : ".", &loc) == REPO_FOUND;
	if (have_loc && loc.top && home && *home)
		f = find_session(home, loc.top, &own, &others);
	if (f == SESSION_FOUND)
		on = !bypass_counts(&own);
	if (f == SESSION_UNKNOWN) {
		fprintf(stderr,
			"agentic-git: ref update refused: no verified binding names this worktree and the sessions in '%s' cannot be read (fail-closed); nothing was changed\n",
			home);
		rc = 1;
	}
	if (on) {
		c.agent = own.agent ? own.agent : "";
		c.branch = own.branch;
		c.policy_refused = ag_policy_load(home, &prot, err, sizeof(err)) < 0;
		if (ended_branches_read(home, loc.commondir, &ended, NULL) < 0)
			c.policy_refused = true; /* fail-closed */
	}
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		/* git's housekeeping (pack-refs pruning a loose file whose
		 * value packed-refs now holds) drops no tip */
		if (f == SESSION_FOUND && n <= HOOK_LINE_MAX &&
		    !(have_loc && line_value_kept(&loc, line)))
			strvec_push(&lines, line);
		if (!on || rc || judge_line(&c, have_loc ? &loc : NULL, line, n, &why))
			continue;
		fprintf(stderr,
			"agentic-git: ref update refused for agent '%s': %s — agents move only their own branch ('%s') and new refs; nothing was changed\n",
			c.agent, why.buf, own.branch ? own.branch : "?");
		rc = 1;
	}
	if (!rc && f == SESSION_FOUND)
		keep_dropped(home, &loc, own.agent, &lines);
	free(line);
	if (have_loc)
		repo_loc_release(&loc);
	strbuf_release(&why);
	strvec_clear(&others);
	strvec_clear(&ended);
	strvec_clear(&lines);
	ag_protected_release(&prot);
	ag_binding_release(&own);
	return rc;
}

/*
 * The verified session of the worktree git runs the hook in, found from
 * the hooks' own home (invariant 4): true with its binding in `own`.
 */
static bool worktree_session(const char *hook_home, struct ag_binding *own)
{
	struct repo_loc loc = { 0 };
	const char *wt = getenv("GIT_WORK_TREE");
	bool found = false;

	if (!hook_home || !*hook_home)
		return false;
	if (repo_discover(wt && *wt ? wt : ".", &loc) != REPO_FOUND)
		return false;
	if (loc.top)
		found = find_session(hook_home, loc.top, own, NULL) ==
			SESSION_FOUND;
	repo_loc_release(&loc);
	return found;
}

/*
 * Trailers from the worktree's own session; without one (no --home, an
 * embedder's worktree), from the binding the environment names.
 */
static int prepare_commit_msg(int argc, const char **argv,
			      const char *hook_home)
{
	const char *home = ag_getenv_str(AGE_HOME);
	const char *agent = ag_getenv_str(AGE_AGENT);
	struct ag_binding b = { 0 };
	enum ag_binding_state st;
	const char *why;

	if (argc < 2 || (argc > 2 && trailers_skip_source(argv[2])))
		return 0;
	if (worktree_session(hook_home, &b)) { /* invariant 1 */
		add_trailers(argv[1], &b, "");
		ag_binding_release(&b);
		return 0;
	}
	if (!*home || !*agent || !ag_agent_name_valid(agent, &why))
		return 0;
	st = ag_binding_load(home, agent, &b);
	if (st == AG_BINDING_BOUND) /* invariant 1 */
		add_trailers(argv[1], &b, agent);
	else if (st != AG_BINDING_NONE && st != AG_BINDING_PARTIAL)
		warning("hook prepare-commit-msg: binding of '%s' not trusted (%s); no provenance trailers added",
			agent, ag_binding_state_str(st));
	ag_binding_release(&b);
	return 0;
}

static int reference_transaction(int argc, const char **argv,
				 const char *hook_home)
{
	const char *home = ag_getenv_str(AGE_HOME);
	const char *agent = ag_getenv_str(AGE_AGENT);
	const char *wt = getenv("GIT_WORK_TREE");
	bool journal = argc >= 2 && !strcmp(argv[1], "committed") && *home;
	struct ag_binding own = { 0 };
	struct strbuf sub = STRBUF_INIT;
	struct reftx_known known;
	struct repo_loc loc = { 0 };
	char cwd[4096];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool have_loc;

	if (argc >= 2 && !strcmp(argv[1], "prepared"))
		return judge_prepared(hook_home ? hook_home : home);
	if (argc >= 2 && !strcmp(argv[1], "committed") &&
	    worktree_session(hook_home, &own)) {
		/* whoever's variables ran git: the worktree's session */
		home = hook_home;
		agent = own.agent ? own.agent : "";
		journal = true;
	}
	if (!wt || !*wt)
		wt = getcwd(cwd, sizeof(cwd)) ? cwd : "";
	if (journal)
		parent_subcommand(&sub, NULL);
	have_loc = journal && repo_discover(wt, &loc) == REPO_FOUND;
	reftx_known_load(&known, have_loc ? loc.gitdir : NULL);
	/* always drain stdin, so git never sees a broken pipe */
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (!journal || n > HOOK_LINE_MAX)
			continue;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		journal_line(line, agent, sub.buf, wt, home, &known,
			     have_loc ? &loc : NULL);
	}
	free(line);
	reftx_known_release(&known);
	repo_loc_release(&loc);
	strbuf_release(&sub);
	ag_binding_release(&own);
	return 0;
}

/*
 * pre-push (git/pushpin.h): a push through the shim's guard sends only
 * the object ids the guard scanned; in a session's worktree a push that
 * did not come through the guard (no pinned set) is refused, unless the
 * binding allows the bypass that asked for it. Reads every line.
 */
static int pre_push(const char *hook_home)
{
	const char *pins = getenv(PUSH_PIN_ENV);
	struct ag_binding own = { 0 };
	struct strbuf why = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!pins && worktree_session(hook_home, &own) &&
	    !bypass_counts(&own)) {
		fprintf(stderr,
			"agentic-git: push refused: a push from agent '%s''s worktree goes through the push guard (the git on the agent's PATH), and this one did not; nothing was pushed\n",
			own.agent ? own.agent : "?");
		rc = 1;
	}
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (!pins || rc)
			continue;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		strbuf_reset(&why);
		if (n > HOOK_LINE_MAX || !push_pin_line_ok(pins, line, &why)) {
			fprintf(stderr,
				"agentic-git: push refused: %s — nothing was pushed; run the push again and the guard scans what is there now\n",
				why.len ? why.buf : "a line too long to judge");
			rc = 1;
		}
	}
	free(line);
	strbuf_release(&why);
	ag_binding_release(&own);
	return rc;
}

/* The hooks the stubs call; `--home DIR` before one is the stubs' own. */
const struct cmd_optset hook_optsets[] = {
	{ "prepare-commit-msg", argtable_no_options, 0 },
	{ "reference-transaction", argtable_no_options, 0 },
	{ "pre-push", argtable_no_options, 0 },
	{ NULL, NULL, 0 },
};

int cmd_hook(int argc, const char **argv)
{
	const char *hook_home = NULL;

	if (cmd_wants_help(argc, argv, usage_text))
		return 0;
	if (argc >= 3 && !strcmp(argv[1], "--home")) {
		hook_home = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc >= 2 && !strcmp(argv[1], "prepare-commit-msg"))
		return prepare_commit_msg(argc - 1, argv + 1, hook_home);
	if (argc >= 2 && !strcmp(argv[1], "reference-transaction"))
		return reference_transaction(argc - 1, argv + 1, hook_home);
	if (argc >= 2 && !strcmp(argv[1], "pre-push"))
		return pre_push(hook_home);
	/* invariant 4: an unknown hook must not break git either */
	warning("hook: unknown hook '%s' (ignored)", argc >= 2 ? argv[1] : "");
	return 0;
}
