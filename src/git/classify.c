/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Classification of git command lines. Pure: no I/O.
 *
 * Invariants:
 *  1. A subcommand not in the table is SC_UNKNOWN (an external command or an
 *     alias): the policy, not this file, decides what that means.
 *  2. git_form_read_only() is an allowlist: a form is read-only only when
 *     every argument is understood to be a read; anything unrecognised is a
 *     write.
 *  3. Checkout analysis fails closed: a token of unknown nature is treated
 *     as a branch, never as a path.
 */
#include "base/common.h"
#include <string.h>
#include "base/strbuf.h"
#include "git/classify.h"
#include "git/clean-args.h"
#include "git/optable.h"
#include "git/outpaths.h"

/* a table laid out by hand */
/* clang-format off */
static const struct {
	const char *name;
	enum sub_class cls;
} subs[] = {
	/* provably read-only (they may refresh the index stat cache) */
	{ "status", SC_READ }, { "log", SC_READ }, { "diff", SC_READ },
	{ "show", SC_READ }, { "blame", SC_READ }, { "annotate", SC_READ },
	{ "grep", SC_READ }, { "ls-files", SC_READ }, { "ls-tree", SC_READ },
	{ "cat-file", SC_READ }, { "rev-parse", SC_READ },
	{ "rev-list", SC_READ }, { "for-each-ref", SC_READ },
	{ "show-ref", SC_READ }, { "merge-base", SC_READ },
	{ "describe", SC_READ }, { "shortlog", SC_READ },
	{ "name-rev", SC_READ }, { "version", SC_READ }, { "help", SC_READ },
	{ "whatchanged", SC_READ }, { "diff-tree", SC_READ },
	{ "diff-files", SC_READ }, { "diff-index", SC_READ },
	{ "ls-remote", SC_READ }, { "count-objects", SC_READ },
	{ "check-ignore", SC_READ }, { "check-attr", SC_READ },
	{ "check-mailmap", SC_READ }, { "check-ref-format", SC_READ },
	{ "var", SC_READ }, { "verify-commit", SC_READ },
	{ "verify-tag", SC_READ }, { "verify-pack", SC_READ },
	{ "cherry", SC_READ }, { "show-branch", SC_READ },
	{ "range-diff", SC_READ }, { "get-tar-commit-id", SC_READ },
	{ "patch-id", SC_READ }, { "show-index", SC_READ },
	{ "column", SC_READ }, { "stripspace", SC_READ },
	{ "archive", SC_READ }, { "format-patch", SC_READ },
	{ "fetch", SC_FORMS }, { "mailinfo", SC_READ },
	{ "mailsplit", SC_READ }, { "request-pull", SC_READ },
	{ "fmt-merge-msg", SC_READ }, { "merge-tree", SC_READ },
	{ "bugreport", SC_READ }, { "diagnose", SC_READ },
	/* read or write depending on the form */
	{ "branch", SC_FORMS }, { "tag", SC_FORMS }, { "remote", SC_FORMS },
	{ "stash", SC_FORMS }, { "config", SC_FORMS }, { "reflog", SC_FORMS },
	{ "notes", SC_FORMS }, { "submodule", SC_FORMS },
	{ "symbolic-ref", SC_FORMS }, { "hash-object", SC_FORMS },
	{ "interpret-trailers", SC_FORMS }, { "sparse-checkout", SC_FORMS },
	{ "bisect", SC_FORMS }, { "rerere", SC_FORMS }, { "fsck", SC_FORMS },
	/* local mutations */
	{ "add", SC_LOCAL }, { "stage", SC_LOCAL }, { "commit", SC_LOCAL },
	{ "rm", SC_LOCAL }, { "mv", SC_LOCAL }, { "reset", SC_LOCAL },
	{ "revert", SC_LOCAL }, { "cherry-pick", SC_LOCAL },
	{ "merge", SC_LOCAL }, { "rebase", SC_LOCAL }, { "am", SC_LOCAL },
	{ "apply", SC_LOCAL }, { "pull", SC_LOCAL }, { "read-tree", SC_LOCAL },
	{ "update-index", SC_LOCAL }, { "restore", SC_LOCAL },
	{ "clean", SC_LOCAL }, { "gc", SC_LOCAL }, { "prune", SC_LOCAL },
	{ "repack", SC_LOCAL }, { "pack-refs", SC_LOCAL },
	{ "update-ref", SC_LOCAL }, { "write-tree", SC_LOCAL },
	{ "commit-tree", SC_LOCAL }, { "mktag", SC_LOCAL },
	{ "mktree", SC_LOCAL },
	{ "fast-export", SC_READ }, { "unpack-objects", SC_LOCAL },
	{ "index-pack", SC_LOCAL }, { "pack-objects", SC_LOCAL },
	{ "checkout-index", SC_LOCAL }, { "merge-file", SC_LOCAL },
	{ "merge-index", SC_LOCAL }, { "mergetool", SC_TOOL },
	{ "difftool", SC_TOOL }, { "maintenance", SC_LOCAL },
	{ "commit-graph", SC_LOCAL }, { "multi-pack-index", SC_LOCAL },
	{ "prune-packed", SC_LOCAL }, { "update-server-info", SC_LOCAL },
	{ "bundle", SC_LOCAL }, { "hook", SC_LOCAL }, { "rerere", SC_FORMS },
	{ "unpack-file", SC_LOCAL }, { "init", SC_CREATE },
	{ "init-db", SC_CREATE }, { "clone", SC_CREATE },
	{ "push", SC_PUSH },
	{ "checkout", SC_CHECKOUT }, { "switch", SC_CHECKOUT },
	{ "worktree", SC_WORKTREE }, { "submodule--helper", SC_HELPER },
	/* rewrite or expose what is not the agent's */
	{ "filter-branch", SC_FORBIDDEN }, { "replace", SC_FORBIDDEN },
	{ "credential", SC_FORBIDDEN }, { "credential-store", SC_FORBIDDEN },
	{ "credential-cache", SC_FORBIDDEN },
	{ "credential-cache--daemon", SC_FORBIDDEN },
	{ "fsmonitor--daemon", SC_FORBIDDEN }, { "upload-pack", SC_FORBIDDEN },
	{ "receive-pack", SC_FORBIDDEN }, { "http-backend", SC_FORBIDDEN },
	{ "shell", SC_FORBIDDEN }, { "daemon", SC_FORBIDDEN },
	{ "instaweb", SC_FORBIDDEN }, { "for-each-repo", SC_FORBIDDEN },
	/* move refs or objects past the guarded paths (push, the ref
	 * transaction's audit): send-pack pushes without push's guards,
	 * fast-import writes any ref */
	{ "send-pack", SC_FORBIDDEN }, { "fast-import", SC_FORBIDDEN },
};
/* clang-format on */

enum sub_class git_sub_class(const char *sub)
{
	if (!sub)
		return SC_READ;
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(subs[i].name, sub))
			return subs[i].cls;
	return SC_UNKNOWN;
}

bool git_word_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/*
 * Collects positionals, skipping options and the values of options listed
 * in `takes_value` (given as separate tokens) or, with a table, of those
 * git's own table says take one. Everything after the `--` that ends the
 * options (ga->opts_end; with a table, also `--end-of-options`) is
 * positional. Returns the count (may exceed max;
 * only max are stored).
 */
static size_t positionals_in(const struct git_argv *ga,
			     const struct git_optable *t,
			     const char *const *takes_value, const char **out,
			     size_t max, bool *dashdash)
{
	size_t n = 0;
	bool after = false;

	if (dashdash)
		*dashdash = false;
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		if (!after && (i == ga->opts_end ||
			       (t && !strcmp(a, "--end-of-options")))) {
			after = true;
			if (dashdash)
				*dashdash = true;
			continue;
		}
		if (!after && !strcmp(a, "--"))
			continue; /* an option's value (ga->opts_end) */
		if (!after && a[0] == '-' && a[1]) {
			if ((takes_value && git_word_in(a, takes_value)) ||
			    (t && git_opt_takes_next(t, a)))
				i++;
			continue;
		}
		if (n < max)
			out[n] = a;
		n++;
	}
	return n;
}

static size_t positionals(const struct git_argv *ga,
			  const char *const *takes_value, const char **out,
			  size_t max, bool *dashdash)
{
	return positionals_in(ga, ga->table, takes_value, out, max, dashdash);
}

size_t git_positionals(const struct git_argv *ga, const char **out, size_t max)
{
	return positionals_in(ga, ga->table, NULL, out, max, NULL);
}

/*
 * Whether one of `names` is among ga's options: before the `--` that ends
 * them, and not the value of the option before it (git's table says which
 * take one: `branch --sort -l foo` sorts by "-l" and creates foo).
 */
static bool has_arg(const struct git_argv *ga, const char *const *names)
{
	for (size_t i = 0; i < ga->opts_end; i++) {
		const char *a = ga->args[i];
		for (const char *const *n = names; *n; n++) {
			size_t l = strlen(*n);
			if (!strncmp(a, *n, l) &&
			    (a[l] == '\0' || ((*n)[1] == '-' && a[l] == '=')))
				return true;
		}
		if (ga->table && git_opt_takes_next(ga->table, a))
			i++;
	}
	return false;
}

/* A single-dash cluster such as -fdx containing `c`, read as has_arg(). */
static bool has_short(const struct git_argv *ga, char c)
{
	for (size_t i = 0; i < ga->opts_end; i++) {
		const char *a = ga->args[i];
		if (a[0] == '-' && a[1] != '-' && strchr(a + 1, c))
			return true;
		if (ga->table && git_opt_takes_next(ga->table, a))
			i++;
	}
	return false;
}

static const char *first_pos(const struct git_argv *ga,
			     const char *const *takes_value)
{
	const char *p[1] = { NULL };
	return positionals(ga, takes_value, p, 1, NULL) ? p[0] : NULL;
}

static bool branch_read(const struct git_argv *ga)
{
	static const char *const w[] = { "-d", "-D", "--delete", "-m", "-M",
		"--move", "-c", "-C", "--copy", "-f", "--force",
		"--set-upstream-to", "-u", "--set-upstream", "--unset-upstream",
		"--edit-description", "-t", "--track", "--no-track",
		"--create-reflog", "--recurse-submodules", NULL };
	static const char *const v[] = { "--contains", "--no-contains",
		"--merged", "--no-merged", "--points-at", "--sort", "--format",
		NULL };
	static const char *const list[] = { "-l", "--list", NULL };
	if (has_arg(ga, w))
		return false;
	for (size_t i = 0; i < ga->nargs; i++)
		if (starts_with(ga->args[i], "-u") && ga->args[i][2])
			return false;
	return has_arg(ga, list) || !first_pos(ga, v);
}

static bool tag_read(const struct git_argv *ga)
{
	static const char *const w[] = { "-d", "--delete", "-f", "--force",
		"-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-m",
		"--message", "-F", "--file", "-e", "--edit", "--create-reflog",
		"--cleanup", "--trailer", NULL };
	static const char *const v[] = { "--contains", "--no-contains",
		"--merged", "--no-merged", "--points-at", "--sort", "--format",
		NULL };
	static const char *const rd[] = { "-l", "--list", "-v", "--verify", NULL };
	if (has_arg(ga, w))
		return false;
	return has_arg(ga, rd) || !first_pos(ga, v);
}

static bool config_read(const struct git_argv *ga)
{
	static const char *const w[] = { "--unset", "--unset-all", "--add",
		"--replace-all", "--rename-section", "--remove-section", "-e",
		"--edit", NULL };
	static const char *const r[] = { "--get", "--get-all", "--get-regexp",
		"--get-urlmatch", "--get-color", "--get-colorbool", "-l",
		"--list", NULL };
	static const char *const v[] = { "-f", "--file", "--blob", "--type",
		"--default", NULL };
	static const char *const rsub[] = { "get", "list", NULL };
	static const char *const wsub[] = { "set", "unset", "rename-section",
		"remove-section", "edit", NULL };
	const char *p[3];
	size_t n;

	if (has_arg(ga, w))
		return false;
	n = positionals(ga, v, p, 3, NULL);
	if (n && git_word_in(p[0], wsub))
		return false;
	if (n && git_word_in(p[0], rsub))
		return true;
	if (has_arg(ga, r))
		return true;
	return n <= 1;
}

static bool first_word_in(const struct git_argv *ga, const char *const *ok,
			  bool empty_ok, const char *const *takes_value)
{
	const char *p = first_pos(ga, takes_value);
	return p ? git_word_in(p, ok) : empty_ok;
}

/* reference §3.3.8: [opts] [status|summary] [opts] with opts in -q --quiet --cached */
static bool submodule_read(const struct git_argv *ga)
{
	static const char *const opts[] = { "-q", "--quiet", "--cached", NULL };
	bool word = false;
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		if (git_word_in(a, opts))
			continue;
		if (!word && (!strcmp(a, "status") || !strcmp(a, "summary"))) {
			word = true;
			continue;
		}
		return false;
	}
	return true;
}

/* fetch is read-only when it stores only into remote-tracking refs (or
 * FETCH_HEAD); a refspec `src:dst` with any other dst moves local refs. */
static bool fetch_read(const struct git_argv *ga)
{
	/* a shallow fetch rewrites the shared shallow file (invariant fuzzer) */
	static const char *const shallow[] = { "--depth", "--deepen",
					       "--shallow-since",
					       "--shallow-exclude", NULL };
	const char *p[64];
	size_t n = positionals(ga, NULL, p, 64, NULL);

	if (n > 64 || has_arg(ga, shallow))
		return false;
	for (size_t i = 1; i < n; i++) {
		const char *colon = strchr(p[i], ':');
		if (colon && colon[1] && !starts_with(colon + 1, "refs/remotes/"))
			return false;
	}
	return true;
}

/*
 * A form that writes a file wherever it is told (`archive -o`,
 * `format-patch -o`, `diff --output=<file>`, `mailinfo <msg> <patch>`;
 * git/outpaths.h) is not a read. Found by the invariant fuzzer: `archive
 * -o <operator's file>` overwrote uncommitted work.
 */
static bool writes_file(const struct git_argv *ga)
{
	struct git_outs outs;

	return git_output_paths(ga, &outs) > 0;
}

/*
 * A form that starts a program the command line names is not a read:
 * `grep -O<cmd>` runs <cmd> (through a shell) on the matching files, an
 * `--upload-pack`/`--exec` the program that serves a fetch (a local one
 * runs here). They wrote files into the operator's checkout for an agent
 * with no binding (review of d5ccd4a).
 */
static bool runs_program(const struct git_argv *ga)
{
	static const char *const pager[] = { "--open-files-in-pager", NULL };
	static const char *const upload[] = { "--upload-pack", "--exec", NULL };
	static const char *const fetchers[] = { "ls-remote", "fetch", "pull",
						"archive", NULL };

	if (!strcmp(ga->sub, "grep"))
		return has_arg(ga, pager) || has_short(ga, 'O');
	return git_word_in(ga->sub, fetchers) && has_arg(ga, upload);
}

bool git_read_whatever_spelling(const struct git_argv *ga)
{
	static const char *const flag_decides[] = { "grep", "ls-remote",
						    "archive", "format-patch",
						    NULL };

	return ga->sub && git_sub_class(ga->sub) == SC_READ &&
	       !git_word_in(ga->sub, flag_decides) && git_form_read_only(ga);
}

bool git_form_read_only(const struct git_argv *ga)
{
	static const char *const remote_r[] = { "show", "get-url", NULL };
	static const char *const stash_r[] = { "list", "show", NULL };
	static const char *const wt_r[] = { "list", NULL };
	static const char *const reflog_r[] = { "show", "exists", "list", NULL };
	static const char *const notes_r[] = { "list", "show", "get-ref", NULL };
	static const char *const sparse_r[] = { "list", NULL };
	static const char *const bisect_r[] = { "log", "visualize", "view",
		"terms", "help", NULL };
	static const char *const rerere_r[] = { "status", "diff",
		"remaining", NULL };
	static const char *const notes_v[] = { "--ref", NULL };
	static const char *const del[] = { "-d", "--delete", NULL };
	static const char *const w[] = { "-w", NULL };
	static const char *const inplace[] = { "--in-place", NULL };
	static const char *const lost[] = { "--lost-found", NULL };
	const char *sub = ga->sub;

	if (!sub)
		return true;
	if (writes_file(ga) || runs_program(ga))
		return false; /* `stash show --output=<file>` too */
	switch (git_sub_class(sub)) {
	case SC_READ:
		return true;
	case SC_FORMS:
		break;
	case SC_WORKTREE:
		return first_word_in(ga, wt_r, false, NULL);
	default:
		return false;
	}
	if (!strcmp(sub, "fetch"))
		return fetch_read(ga);
	if (!strcmp(sub, "branch"))
		return branch_read(ga);
	if (!strcmp(sub, "tag"))
		return tag_read(ga);
	if (!strcmp(sub, "config"))
		return config_read(ga);
	if (!strcmp(sub, "remote"))
		return first_word_in(ga, remote_r, true, NULL);
	if (!strcmp(sub, "stash"))
		return first_word_in(ga, stash_r, false, NULL);
	if (!strcmp(sub, "reflog"))
		return first_word_in(ga, reflog_r, true, NULL);
	if (!strcmp(sub, "notes"))
		return first_word_in(ga, notes_r, true, notes_v);
	if (!strcmp(sub, "sparse-checkout"))
		return first_word_in(ga, sparse_r, false, NULL);
	if (!strcmp(sub, "bisect"))
		return first_word_in(ga, bisect_r, false, NULL);
	if (!strcmp(sub, "rerere"))
		return first_word_in(ga, rerere_r, false, NULL);
	if (!strcmp(sub, "submodule"))
		return submodule_read(ga);
	if (!strcmp(sub, "symbolic-ref")) {
		const char *p[2];
		return !has_arg(ga, del) &&
		       positionals(ga, NULL, p, 2, NULL) <= 1;
	}
	if (!strcmp(sub, "hash-object"))
		return !has_arg(ga, w) && !has_short(ga, 'w'); /* `-wt blob` */
	if (!strcmp(sub, "interpret-trailers"))
		return !has_arg(ga, inplace);
	if (!strcmp(sub, "fsck"))
		return !has_arg(ga, lost);
	return false;
}

static const char *checkout_slug(const struct git_argv *ga)
{
	static const char *const dd[] = { "--", "-f", "--force", NULL };
	static const char *const create[] = { "-b", "-B", "--orphan", NULL };
	if (!ga->nargs)
		return NULL;
	for (size_t i = 0; i < ga->nargs; i++)
		if (git_word_in(ga->args[i], dd))
			return "checkout";
	for (size_t i = 0; i < ga->nargs; i++)
		if (git_word_in(ga->args[i], create))
			return NULL;
	return "checkout";
}

const char *git_destructive_slug(const struct git_argv *ga, bool *quarantine)
{
	static const char *const always[] = { "merge", "rebase", "pull",
		"cherry-pick", "revert", "am", NULL };
	static const char *const hard[] = { "--hard", "--merge", "--keep",
					    NULL };
	static const char *const staged[] = { "--staged", "-S", NULL };
	static const char *const wtree[] = { "--worktree", "-W", NULL };
	static const char *const sw[] = { "-f", "--force", "--discard-changes",
		NULL };
	/* pop and apply write the work tree and the index: over an ignored
	 * or untracked file, over work git does not see as conflicting */
	static const char *const stash_d[] = { "drop", "clear", "pop", "apply",
					       NULL };
	static const char *const upd[] = { "-u", "--reset", NULL };
	const char *sub = ga->sub;

	*quarantine = false;
	if (!sub)
		return NULL;
	/* a file written where it is told may be the agent's unsaved work,
	 * whatever else the form does (invariant fuzzer, seed 33: `read-tree
	 * --index-output README.md` overwrote it with no snapshot) */
	if (git_word_in(sub, always) || writes_file(ga))
		return sub;
	if (!strcmp(sub, "reset"))
		return has_arg(ga, hard) ? "reset" : NULL;
	if (!strcmp(sub, "clean")) {
		/* clean's own grammar: an -e value is no option, and no `--`
		 * (docs/fuzzing.md I17) */
		unsigned f = clean_flags(ga->args, ga->nargs);

		if (!(f & CLEAN_FORCE) || (f & CLEAN_DRY_RUN))
			return NULL; /* deletes nothing */
		*quarantine = f & (CLEAN_IGNORED | CLEAN_ONLY_IGNORED);
		return "clean";
	}
	if (!strcmp(sub, "stash"))
		return first_word_in(ga, stash_d, false, NULL) ? "stash" : NULL;
	if (!strcmp(sub, "checkout"))
		return checkout_slug(ga);
	if (!strcmp(sub, "restore"))
		return has_arg(ga, staged) && !has_arg(ga, wtree) ? NULL
								  : "restore";
	if (!strcmp(sub, "switch"))
		return has_arg(ga, sw) ? "switch" : NULL;
	if (!strcmp(sub, "submodule"))
		return submodule_read(ga) ? NULL : "submodule";
	/* forms the original missed */
	if (!strcmp(sub, "read-tree"))
		return has_arg(ga, upd) ? "read-tree" : NULL;
	if (!strcmp(sub, "checkout-index"))
		return has_arg(ga, sw) || has_short(ga, 'f') ? "checkout-index"
							     : NULL;
	if (!strcmp(sub, "rm") || !strcmp(sub, "mv"))
		return has_arg(ga, sw) || has_short(ga, 'f') ? sub : NULL;
	return NULL;
}

bool git_conflict_capable(const char *sub)
{
	static const char *const c[] = { "rebase", "merge", "pull",
		"cherry-pick", "revert", "am", NULL };
	return sub && git_word_in(sub, c);
}

static enum co_kind classify_token(const char *tok, unsigned f)
{
	if (!strcmp(tok, "-") || starts_with(tok, "@{-"))
		return CO_PREVIOUS;
	/* a branch named `@` or `HEAD` (refs/heads/@ is a valid ref) is
	 * the one git switches to (invariant fuzzer, seed 31: `switch @`
	 * moved ag1 onto a branch `@`); without one, `checkout @`
	 * detaches, unlike `checkout HEAD` */
	if (f & TOK_LOCAL_BRANCH)
		return CO_BRANCH;
	if (!strcmp(tok, "HEAD"))
		return CO_NONE; /* origin/HEAD is no branch git creates */
	if ((f & TOK_REMOTE_BRANCH) && !(f & TOK_PATH))
		return CO_BRANCH; /* DWIM: creates and switches to it */
	if (!strcmp(tok, "@"))
		return CO_DETACH; /* `checkout @` detaches at HEAD's commit */
	if ((f & TOK_PATH) && !(f & (TOK_TAG | TOK_REVLIKE)))
		return CO_FILES;
	if (f & (TOK_TAG | TOK_REVLIKE))
		return CO_DETACH;
	return CO_BRANCH; /* unknown: fail closed */
}

static bool paths_after_dashdash(const struct git_argv *ga)
{
	return ga->opts_end + 1 < ga->nargs;
}

/* -t, --track[=<mode>] or --no-track before `--`: the last one says */
static bool track_creates(const struct git_argv *ga)
{
	bool set = false;

	for (size_t i = 0; i < ga->opts_end; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "-t") || !strcmp(a, "--track") ||
		    starts_with(a, "--track=") || !strcmp(a, "--no-track"))
			set = true;
	}
	return set;
}

void git_checkout_analyse(const struct git_argv *ga, const unsigned *facts,
			  struct co_analysis *out)
{
	static const char *const co_vals[] = { "-b", "-B", "--orphan",
		"--conflict", "--pathspec-from-file", NULL };
	static const char *const sw_vals[] = { "-c", "-C", "--orphan",
		"--create", "--force-create", "--conflict", NULL };
	static const char *const force[] = { "-f", "--force",
		"--discard-changes", NULL };
	static const char *const pfile[] = { "--pathspec-from-file", NULL };
	bool is_switch = !strcmp(ga->sub, "switch");
	const char *const *vals = is_switch ? sw_vals : co_vals;
	const char *p[2] = { NULL, NULL };
	bool dashdash;
	size_t n, p0 = 0;

	memset(out, 0, sizeof(*out));
	out->force = has_arg(ga, force) || (!is_switch && has_short(ga, 'f'));
	/* creation flags: the next token is the new branch */
	for (size_t i = 0; i < ga->opts_end; i++) {
		const char *a = ga->args[i];
		if (git_word_in(a, vals) && strcmp(a, "--conflict") &&
		    strcmp(a, "--pathspec-from-file")) {
			out->kind = CO_CREATE;
			out->target = i + 1 < ga->nargs ? ga->args[i + 1] : "";
			return;
		}
		if (starts_with(a, "--orphan=") || starts_with(a, "--create=") ||
		    starts_with(a, "--force-create=")) {
			out->kind = CO_CREATE;
			out->target = strchr(a, '=') + 1;
			return;
		}
	}
	n = positionals(ga, vals, p, 2, &dashdash);
	if (track_creates(ga)) {
		/* git's checkout.c: -t/--track/--no-track without a name to
		 * create names one after the start point, `feat/a` makes
		 * `a` (docs/fuzzing.md I20) */
		const char *s = n ? p[0] : "";

		skip_prefix(s, "refs/", &s);
		skip_prefix(s, "remotes/", &s);
		s = strchr(s, '/');
		out->kind = CO_CREATE;
		out->target = s && s[1] ? s + 1 : "";
		return;
	}
	if (!is_switch && ((dashdash && paths_after_dashdash(ga)) ||
			   has_arg(ga, pfile))) {
		/* `checkout [<tree-ish>] -- <paths>` never moves HEAD; with
		 * nothing after `--`, `checkout main --` switches to main */
		out->kind = CO_FILES;
		return;
	}
	for (size_t i = 0; i < ga->opts_end; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "--detach") || (is_switch && !strcmp(a, "-d"))) {
			out->kind = CO_DETACH;
			out->target = n ? p[0] : NULL;
			return;
		}
	}
	if (!n) {
		out->kind = CO_NONE;
		return;
	}
	for (size_t i = 0; i < ga->nargs; i++)
		if (ga->args[i] == p[0])
			p0 = i;
	out->target = p[0];
	if (!is_switch && n >= 2) {
		out->kind = CO_FILES; /* checkout <tree-ish> <paths…> */
		return;
	}
	out->kind = classify_token(p[0], facts ? facts[p0] : 0);
	if (is_switch && (out->kind == CO_FILES || out->kind == CO_DETACH))
		out->kind = CO_BRANCH; /* switch only takes branches */
}
