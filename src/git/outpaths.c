/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a command line writes the files it is told to write (git/outpaths.h).
 * Found by the invariant fuzzer (docs/fuzzing.md I5, I6): `archive -o
 * <the operator's README.md>`, `mailinfo - ~/.gitconfig`.
 *
 * Invariants:
 *  1. The scan is pure and fail-closed: an abbreviated long option counts
 *     as the option it abbreviates, a short cluster holding the letter
 *     counts from that letter on, and every positional of a command that
 *     writes its positionals is a path. A writing form whose value cannot
 *     be found is `bad`, never skipped.
 *  2. A path is inside only when its resolved location is: the real path
 *     of the longest part that exists (every symlink followed, the last
 *     component's too), the rest appended without `..`; a dangling link is
 *     not judged.
 *  3. The worktree's `.git` and session marker are not inside: they are
 *     the repository and the sibling boundary, not the agent's files.
 */
#include "base/common.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "git/classify.h"
#include "git/optable.h"
#include "git/outpaths.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */

struct long_out {
	const char *full; /* the option's full name */
	size_t min;	  /* shortest abbreviation counted */
	enum out_kind kind;
	const char *const *subs; /* NULL: every subcommand (diff options) */
};

static const char *const fast_export[] = { "fast-export", "fast-import", NULL };
static const char *const read_tree[] = { "read-tree", NULL };
static const char *const obj_dir[] = { "commit-graph", "multi-pack-index",
				       NULL };
static const char *const co_index[] = { "checkout-index", NULL };
static const char *const init[] = { "init", "init-db", "clone", NULL };
static const char *const apply[] = { "apply", NULL };

static const struct long_out longs[] = {
	/* every command that takes diff options (diff, log, show, stash
	 * show, range-diff, rev-list…), archive, format-patch */
	{ "--output", 3, OUT_FILE, NULL },
	/* format-patch, bugreport, diagnose */
	{ "--output-directory", 10, OUT_DIR, NULL },
	{ "--export-marks", 4, OUT_FILE, fast_export },
	{ "--index-output", 4, OUT_FILE, read_tree },
	{ "--object-dir", 4, OUT_DIR, obj_dir },
	{ "--prefix", 4, OUT_PREFIX, co_index },
	{ "--separate-git-dir", 4, OUT_DIR, init },
	{ "--directory", 4, OUT_PREFIX, apply },
};

static void add(struct git_outs *o, const char *path, const char *opt,
		enum out_kind kind, const char *bad)
{
	if (o->nr == GIT_OUT_MAX) {
		o->overflow = true;
		return;
	}
	o->v[o->nr].path = bad ? NULL : path;
	o->v[o->nr].opt = opt;
	o->v[o->nr].kind = kind;
	o->v[o->nr].bad = bad;
	o->nr++;
}

/* `a`'s name (before any `=`) abbreviates `full` to at least `min`
 * characters; *val is the stuck value or NULL. */
static bool abbreviates(const char *a, const char *full, size_t min,
			const char **val)
{
	const char *eq = strchr(a, '=');
	size_t l = eq ? (size_t)(eq - a) : strlen(a);

	if (l < min || strncmp(a, full, l))
		return false;
	*val = eq ? eq + 1 : NULL;
	return true;
}

/* The value of args[*i]: stuck, else the next argument (consumed). */
static const char *value_of(const struct git_argv *ga, size_t *i,
			    const char *stuck)
{
	if (stuck)
		return stuck;
	if (*i + 1 < ga->nargs)
		return ga->args[++*i];
	return NULL;
}

static bool end_of_options(const char *a)
{
	return !strcmp(a, "--") || !strcmp(a, "--end-of-options");
}

/* A suffix git appends to a name it makes: a `/` in it picks the directory. */
static void suffix_check(struct git_outs *o, const char *v, const char *opt)
{
	if (!v || strchr(v, '/'))
		add(o, NULL, opt, OUT_FILE,
		    v ? "a suffix with a '/' writes into another directory"
		      : "no value");
}

static bool scan_long(const struct git_argv *ga, size_t *i, struct git_outs *o)
{
	static const char *const sfx_cmds[] = { "bugreport", "diagnose", NULL };
	const char *a = ga->args[*i], *stuck, *v;

	for (size_t k = 0; k < ARRAY_SIZE(longs); k++) {
		const struct long_out *l = &longs[k];
		if ((l->subs && !git_word_in(ga->sub, l->subs)) ||
		    !abbreviates(a, l->full, l->min, &stuck))
			continue;
		v = value_of(ga, i, stuck);
		add(o, v, l->full, l->kind, v && *v ? NULL : "no value");
		return true;
	}
	if (!strcmp(ga->sub, "apply") &&
	    abbreviates(a, "--unsafe-paths", 5, &stuck)) {
		add(o, NULL, "--unsafe-paths", OUT_FILE,
		    "it lets a patch write outside the work tree");
		return true;
	}
	if ((git_word_in(ga->sub, sfx_cmds) &&
	     abbreviates(a, "--suffix", 3, &stuck)) ||
	    (!strcmp(ga->sub, "format-patch") &&
	     abbreviates(a, "--suffix", 5, &stuck))) {
		suffix_check(o, value_of(ga, i, stuck), "--suffix");
		return true;
	}
	return false;
}

/* -o (and bugreport's -s) anywhere in a short cluster: its value is the
 * rest of the cluster, else the next argument. */
static void scan_short(const struct git_argv *ga, size_t *i, struct git_outs *o)
{
	static const char *const o_file[] = { "archive", "index-pack", NULL };
	static const char *const o_dir[] = { "format-patch", "bugreport",
					     "diagnose", NULL };
	static const char *const s_cmds[] = { "bugreport", "diagnose", NULL };
	const char *a = ga->args[*i];
	const char *at;
	size_t j = *i;

	if (!strcmp(ga->sub, "mailsplit") && a[1] == 'o') {
		/* mailsplit reads only the stuck form, -o<dir> */
		add(o, a + 2, "-o", OUT_DIR, a[2] ? NULL : "no value");
		return;
	}
	if (git_word_in(ga->sub, o_file) || git_word_in(ga->sub, o_dir)) {
		at = strchr(a + 1, 'o');
		if (at) {
			const char *v = value_of(ga, &j, at[1] ? at + 1 : NULL);
			add(o, v, "-o",
			    git_word_in(ga->sub, o_dir) ? OUT_DIR : OUT_FILE,
			    v && *v ? NULL : "no value");
		}
	}
	if (git_word_in(ga->sub, s_cmds) && (at = strchr(a + 1, 's'))) {
		size_t k = *i;
		suffix_check(o, value_of(ga, &k, at[1] ? at + 1 : NULL), "-s");
		if (k > j)
			j = k;
	}
	*i = j;
}

/* Commands whose positionals are written: every one is judged. */
static void scan_positionals(const struct git_argv *ga, struct git_outs *o)
{
	static const char *const stdout_opts[] = { "-p", "--stdout", NULL };
	enum out_kind kind = OUT_FILE;
	bool opts = true, bundle = !strcmp(ga->sub, "bundle"), created = false;

	if (!strcmp(ga->sub, "pack-objects") || !strcmp(ga->sub, "index-pack"))
		kind = OUT_PREFIX;
	else if (strcmp(ga->sub, "mailinfo") && strcmp(ga->sub, "merge-file") &&
		 !bundle)
		return;
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		if (opts && end_of_options(a)) {
			opts = false;
			continue;
		}
		if (opts && a[0] == '-' && a[1]) {
			/* these write to stdout instead */
			if (git_word_in(a, stdout_opts) &&
			    (!strcmp(ga->sub, "merge-file") ||
			     !strcmp(ga->sub, "pack-objects")))
				return;
			if (!strcmp(a, "-o")) /* index-pack's, judged above */
				i++;
			continue;
		}
		if (bundle && !created) {
			/* only `bundle create <file> <rev-list args>` writes */
			if (strcmp(a, "create"))
				return;
			created = true;
			continue;
		}
		add(o, a, bundle ? "<file>" : "<path>", kind, NULL);
	}
}

/*
 * init's <directory> and clone's <dir>: a repository is made there
 * (docs/fuzzing.md I15: a bound agent's `init <the bare remote>` made
 * <remote>/.git, which every later fetch and push by path then found
 * first). With none, init makes (or re-makes) the working directory's and
 * clone makes one under it. init's are `new_repo`: where one exists
 * already, git re-initialises it (docs/fuzzing.md I22).
 */
static void scan_new_repo(const struct git_argv *ga, struct git_outs *o)
{
	static const char *const inits[] = { "init", "init-db", NULL };
	const char *pos[GIT_OUT_MAX];
	bool clone = !strcmp(ga->sub, "clone");
	size_t n, start, first = clone ? 1 : 0;

	if (!clone && !git_word_in(ga->sub, inits))
		return;
	n = git_positionals(ga, pos, ARRAY_SIZE(pos));
	if (n > ARRAY_SIZE(pos)) {
		o->overflow = true;
		return;
	}
	start = o->nr;
	if (n == first)
		add(o, ".", "<the working directory>", OUT_DIR, NULL);
	for (size_t i = first; i < n; i++)
		add(o, pos[i], "<directory>", OUT_DIR, NULL);
	for (size_t i = start; !clone && i < o->nr; i++)
		o->v[i].new_repo = true;
}

/*
 * format-patch writes its patches into the working directory unless the
 * last of --stdout/--no-stdout is --stdout (docs/fuzzing.md I21: an
 * unbound agent's format-patch wrote four files into the operator's
 * checkout). Counted even beside -o, which --no-output-directory undoes:
 * fail-closed, since a routed agent's working directory is its worktree.
 * An abbreviated --stdout is not one (agents' git refuses abbreviations
 * where a form writes).
 */
static bool patches_here(const struct git_argv *ga)
{
	bool to_stdout = false;

	if (strcmp(ga->sub, "format-patch"))
		return false;
	for (size_t i = 0; i < ga->opts_stop; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "--stdout"))
			to_stdout = true;
		else if (!strcmp(a, "--no-stdout"))
			to_stdout = false;
		else if (ga->legacy_table &&
			 git_opt_takes_next(ga->legacy_table, a))
			i++; /* `--subject-prefix --stdout`: a value */
	}
	return !to_stdout;
}

size_t git_output_paths(const struct git_argv *ga, struct git_outs *out)
{
	/* tried (git 2.39): these open a relative path from the top
	 * (fast-export, read-tree, checkout-index), or were not tried and
	 * are judged both ways; diff options, archive, format-patch,
	 * mailinfo, mailsplit, bundle, bugreport, diagnose, merge-file,
	 * init and clone resolve from the working directory */
	static const char *const from_top[] = {
		"fast-export",	"fast-import",
		"read-tree",	"checkout-index",
		"pack-objects", "index-pack",
		"commit-graph", "multi-pack-index",
		"apply",	NULL
	};
	static const char *const writes_here[] = { "bugreport", "diagnose",
						   NULL };

	memset(out, 0, sizeof(*out));
	if (!ga->sub)
		return 0;
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		/* where the options end (a `--` an option of the table takes
		 * for its value does not end them); one an output option
		 * took here for its value is skipped, and the scan goes on */
		if (i == ga->opts_stop)
			break;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-')
			scan_long(ga, &i, out);
		else
			scan_short(ga, &i, out);
	}
	scan_positionals(ga, out);
	scan_new_repo(ga, out);
	/* they write their report into the working directory unless -o
	 * says otherwise (and --no-output-directory says so again) */
	if (git_word_in(ga->sub, writes_here) || patches_here(ga))
		add(out, ".", "<the working directory>", OUT_DIR, NULL);
	for (size_t i = 0; i < out->nr; i++)
		out->v[i].from_top = git_word_in(ga->sub, from_top);
	if (out->overflow)
		out->nr = 0, add(out, NULL, "", OUT_FILE, "too many to judge");
	return out->nr;
}

/* ---- resolving (I/O) ---- */

/*
 * The location `abs` names once written: realpath(3) of its longest
 * existing part, the rest appended. -1 for what cannot be judged: a
 * dangling or looping link, `..` below a missing directory, an error.
 */
static int resolve(const char *abs, struct strbuf *out)
{
	struct strbuf cur = STRBUF_INIT, rest = STRBUF_INIT;
	char real[PATH_MAX];
	struct stat st;
	int ret = -1;

	strbuf_addstr(&cur, abs);
	for (;;) {
		char *slash;
		while (cur.len > 1 && cur.buf[cur.len - 1] == '/')
			strbuf_setlen(&cur, cur.len - 1);
		if (realpath(cur.buf, real)) {
			strbuf_addstr(out, real);
			strbuf_addbuf(out, &rest);
			ret = 0;
			break;
		}
		if ((errno != ENOENT && errno != ENOTDIR) ||
		    !lstat(cur.buf, &st))
			break; /* an error, or a link to nowhere */
		slash = strrchr(cur.buf, '/');
		if (!slash || slash == cur.buf + cur.len - 1)
			break;
		if (!strcmp(slash + 1, ".."))
			break;
		if (strcmp(slash + 1, ".")) {
			struct strbuf t = STRBUF_INIT;
			strbuf_addstr(&t, slash);
			strbuf_addbuf(&t, &rest);
			strbuf_reset(&rest);
			strbuf_addbuf(&rest, &t);
			strbuf_release(&t);
		}
		strbuf_setlen(&cur,
			      slash == cur.buf ? 1 : (size_t)(slash - cur.buf));
	}
	strbuf_release(&cur);
	strbuf_release(&rest);
	return ret;
}

static enum out_state judge_one(const char *path, const char *base,
				const char *wt, struct strbuf *resolved)
{
	struct strbuf abs = STRBUF_INIT, r = STRBUF_INIT;
	enum out_state st = OUTP_UNJUDGED;
	const char *rel;

	if (path[0] == '/')
		strbuf_addstr(&abs, path);
	else
		strbuf_addf(&abs, "%s/%s", base, path);
	if (!resolve(abs.buf, &r)) {
		st = OUTP_OUTSIDE;
		if (path_inside(r.buf, wt, &rel) && strcmp(rel, ".git") &&
		    !starts_with(rel, ".git/") &&
		    strcmp(rel, SESSION_MARKER_NAME))
			st = OUTP_INSIDE;
		strbuf_add(resolved, r.buf, r.len + 1);
	}
	strbuf_release(&abs);
	strbuf_release(&r);
	return st;
}

enum out_state out_path_judge(const char *path, const char *cwd,
			      const char *top, const char *wt,
			      struct strbuf *resolved)
{
	enum out_state a, b = OUTP_INSIDE;

	if (!path || !*path || !cwd || !wt)
		return OUTP_UNJUDGED;
	a = judge_one(path, cwd, wt, resolved);
	if (path[0] != '/' && top && strcmp(top, cwd))
		b = judge_one(path, top, wt, resolved);
	return a > b ? a : b;
}
