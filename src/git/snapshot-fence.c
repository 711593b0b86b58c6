// SPDX-License-Identifier: Apache-2.0
/*
 * The fence around other agents' snapshots, by name (git/snapshot-fence.h).
 * Pure.
 */
#include "git/snapshot-fence.h"
#include "base/strbuf.h"
#include "git/snapshot-name.h"
#include <string.h>
#include <strings.h>

#define NS "refs/agentic-git/snapshots/"

static size_t walker_alls(const struct git_argv *ga, size_t *at, size_t max,
			  bool *unsure);

/* `s` with every run of slashes made one (git reads `refs//x` as a
 * file path `refs/x` in the files backend), into buf. */
static const char *squeeze(const char *s, struct strbuf *buf)
{
	strbuf_reset(buf);
	for (; *s; s++)
		if (!(*s == '/' && buf->len && buf->buf[buf->len - 1] == '/'))
			strbuf_addch(buf, *s);
	return buf->buf;
}

static bool is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* Whether the agent segment [seg, seg+len) is `own`'s. */
static bool seg_is_own(const char *seg, size_t len, const char *own)
{
	return own && strlen(own) == len && !strncmp(seg, own, len);
}

/*
 * A word that names a snapshot another agent took: it holds
 * "agentic-git/snapshots/<who>/" (or ends in "<who>") with <who> not the
 * agent's own, or a glob in <who>.
 */
static bool names_other(const char *w, const char *own)
{
	const char *p = w;

	while ((p = strstr(p, "agentic-git/snapshots/"))) {
		const char *seg = p + strlen("agentic-git/snapshots/");
		size_t len = strcspn(seg, "/:^~@");

		if (len && !seg_is_own(seg, len, own))
			return true;
		for (size_t i = 0; i < len; i++)
			if (is_glob_char(seg[i]))
				return true;
		p = seg;
	}
	return false;
}

/*
 * A `:/<text>` revision: the youngest commit whose message matches, found
 * from every ref, other agents' snapshots among them (also after `^`,
 * `..`, `+`). `<rev>^{/text}` searches from <rev> only and is not one.
 */
static bool searches_all_refs(const char *w)
{
	for (const char *p = strstr(w, ":/"); p; p = strstr(p + 1, ":/"))
		if (p == w || p[-1] == '^' || p[-1] == '.' || p[-1] == '+')
			return true;
	return false;
}

/*
 * Whether a ref pattern whose fixed prefix is `prefix` (up to its first
 * glob character, or the whole pattern for a prefix match) can reach a
 * snapshot of another agent: the prefix and the namespace agree as far as
 * both go, and the prefix does not stop inside the agent's own part.
 */
static bool prefix_reaches(const char *prefix, size_t len, const char *own)
{
	size_t ns = strlen(NS);
	struct strbuf mine = STRBUF_INIT;
	bool reach;

	if (strncmp(prefix, NS, len < ns ? len : ns))
		return false; /* refs/heads/…, refs/tags/…: apart */
	reach = true;
	if (own) {
		strbuf_addf(&mine, NS "%s/", own);
		reach = !(len >= mine.len &&
			  !strncmp(prefix, mine.buf, mine.len));
	}
	strbuf_release(&mine);
	return reach;
}

/* A glob pattern (for-each-ref, --glob, a refspec's source). */
static bool glob_reaches(const char *pat, const char *own)
{
	size_t len = strcspn(pat, "*?[\\");

	return prefix_reaches(pat, len, own);
}

/* A for-each-ref pattern: a glob, or a prefix matched up to a slash. */
static bool fer_reaches(const char *pat, const char *own)
{
	struct strbuf dir = STRBUF_INIT;
	bool reach;

	if (pat[strcspn(pat, "*?[\\")])
		return glob_reaches(pat, own);
	strbuf_addstr(&dir, pat);
	if (!dir.len || dir.buf[dir.len - 1] != '/')
		strbuf_addch(&dir, '/');
	reach = prefix_reaches(dir.buf, dir.len, own);
	strbuf_release(&dir);
	return reach;
}

/*
 * A show-ref / ls-remote pattern matches a ref that ends with "/<pat>" (or
 * is <pat>): it reaches another agent's snapshot when, laid over the tail
 * of refs/agentic-git/snapshots/<who>/<name>, its agent part is not the
 * agent's own, or it is a snapshot's <name> alone.
 */
static bool tail_reaches(const char *pat, const char *own)
{
	static const char *const parts[] = { "refs", "agentic-git",
					     "snapshots" };
	const char *comp[6];
	size_t lens[6], n = 0;
	const char *p = pat;
	struct snapshot_name sn;
	struct strbuf full = STRBUF_INIT;
	bool ok;

	if (!*p)
		return false;
	while (n < 6) {
		size_t l = strcspn(p, "/");
		comp[n] = p;
		lens[n++] = l;
		if (!p[l])
			break;
		p += l + 1;
	}
	if (n > 5 || p[strcspn(p, "/")])
		return false; /* more parts than a snapshot ref has */
	/* the last part is the snapshot's name */
	strbuf_addf(&full, NS "x/%.*s", (int)lens[n - 1], comp[n - 1]);
	ok = !snapshot_ref_parse(full.buf, &sn);
	if (ok)
		snapshot_name_release(&sn);
	strbuf_release(&full);
	if (!ok)
		return false;
	/* the fixed parts before <who> must agree */
	for (size_t i = 0; n >= 3 && i + 2 < n; i++) {
		size_t at = 3 - (n - 2) + i; /* index into parts */
		if (strlen(parts[at]) != lens[i] ||
		    strncmp(parts[at], comp[i], lens[i]))
			return false;
	}
	if (n == 1)
		return true; /* any agent's */
	return !seg_is_own(comp[n - 2], lens[n - 2], own);
}

/* Option values that are prose or a format, never a revision. */
static bool value_is_prose(const struct git_optuse *u)
{
	static const char *const prose[] = { "message", "file",	  "template",
					     "format",	"pretty", "grep",
					     "author",	"trailer" };

	for (size_t i = 0; i < ARRAY_SIZE(prose); i++)
		if (git_optuse_is(u, prose[i]))
			return true;
	return git_optuse_is(u, "-m") || git_optuse_is(u, "-F");
}

static bool sub_is(const struct git_argv *ga, const char *s)
{
	return ga->sub && !strcmp(ga->sub, s);
}

/* show-ref's and ls-remote's options that list one namespace only */
static bool listing_narrowed(const struct git_argv *ga)
{
	static const char *const only[] = { "heads", "tags", "branches", "refs",
					    NULL };

	return git_opt_any_on(ga, only) || git_opt_on(ga, "-h") ||
	       git_opt_on(ga, "-t");
}

static enum fence_hit listing(const struct git_argv *ga, const char *own,
			      struct strbuf *tmp, const char **word)
{
	size_t from = 0;

	if (sub_is(ga, "for-each-ref")) {
		if (!ga->pos_dd) {
			*word = "for-each-ref";
			return FENCE_LISTED;
		}
		for (size_t i = 0; i < ga->pos_dd; i++)
			if (fer_reaches(squeeze(ga->pos[i], tmp), own)) {
				*word = ga->pos[i];
				return FENCE_LISTED;
			}
		return FENCE_NONE;
	}
	if (sub_is(ga, "ls-remote")) {
		/* a repository on this machine, in any spelling (`.`, `./`,
		 * a path, file://): it may be this one, whose refs are the
		 * snapshots'. A remote's name or a network URL is not. */
		const char *r = ga->npos ? ga->pos[0] : NULL;
		if (!r || !(r[0] == '.' || r[0] == '/' || r[0] == '~' ||
			    starts_with(r, "file:")))
			return FENCE_NONE;
		for (size_t i = 1; i < ga->npos; i++)
			if (ga->pos[i][strcspn(ga->pos[i], "*?[\\")]) {
				*word = ga->pos[i]; /* a pattern git globs */
				return FENCE_LISTED;
			}
		from = 1;
		if (ga->npos <= from && !listing_narrowed(ga)) {
			*word = r;
			return FENCE_LISTED;
		}
		for (size_t i = from; i < ga->npos; i++)
			if (tail_reaches(squeeze(ga->pos[i], tmp), own)) {
				*word = ga->pos[i];
				return FENCE_LISTED;
			}
		return FENCE_NONE;
	} else if (!sub_is(ga, "show-ref")) {
		return FENCE_NONE;
	}
	if (git_opt_on(ga, "verify") || git_opt_on(ga, "exists"))
		return FENCE_NONE; /* whole names: judged as names */
	if (ga->pos_dd <= from) {
		if (listing_narrowed(ga))
			return FENCE_NONE;
		*word = ga->sub;
		return FENCE_LISTED;
	}
	for (size_t i = from; i < ga->pos_dd; i++)
		if (tail_reaches(squeeze(ga->pos[i], tmp), own)) {
			*word = ga->pos[i];
			return FENCE_LISTED;
		}
	return FENCE_NONE;
}

enum fence_hit snapshot_fence(const struct git_argv *ga, const char *own,
			      const char **word)
{
	struct strbuf tmp = STRBUF_INIT;
	enum fence_hit hit = FENCE_NONE;
	bool glob_next = false;

	if (own && !*own)
		own = NULL;
	for (size_t i = 0; i < ga->nopts && !hit; i++) {
		const struct git_optuse *u = &ga->opts[i];
		bool is_glob = !(u->flags & GOPT_SHORT) &&
			       u->spelled_len == 4 &&
			       !strncmp(u->spelled, "glob", 4);

		if (is_glob && !u->value)
			glob_next = true; /* `--glob <pattern>`: a positional */
		if (!u->value || value_is_prose(u))
			continue;
		if (names_other(squeeze(u->value, &tmp), own) ||
		    searches_all_refs(u->value))
			hit = FENCE_NAMED;
		else if (is_glob) {
			const char *pat = u->value;
			strbuf_reset(&tmp);
			if (!starts_with(pat, "refs/"))
				strbuf_addstr(&tmp, "refs/");
			strbuf_addstr(&tmp, pat);
			if (glob_reaches(tmp.buf, own))
				hit = FENCE_LISTED;
		}
		if (hit)
			*word = u->value;
	}
	for (size_t i = 0; i < ga->pos_dd && !hit; i++) {
		const char *p = ga->pos[i];

		if (names_other(squeeze(p, &tmp), own) ||
		    searches_all_refs(p)) {
			hit = FENCE_NAMED;
		} else if (!strcmp(p, "--all")) {
			/* `bundle create <file> --all`: past its options,
			 * where no exclusion can be put before it */
			hit = FENCE_LISTED;
		} else if (glob_next ||
			   (sub_is(ga, "fetch") && strchr(p, ':'))) {
			/* a --glob pattern, or a refspec's source */
			const char *src = p + (*p == '+');
			strbuf_reset(&tmp);
			if (glob_next && !starts_with(src, "refs/"))
				strbuf_addstr(&tmp, "refs/");
			strbuf_add(&tmp, src, strcspn(src, ":"));
			if (tmp.buf[strcspn(tmp.buf, "*?[\\")] &&
			    glob_reaches(tmp.buf, own))
				hit = FENCE_LISTED;
		}
		if (hit)
			*word = p;
	}
	if (!hit)
		hit = listing(ga, own, &tmp, word);
	if (!hit) {
		size_t at[1];
		bool unsure;
		walker_alls(ga, at, 1, &unsure);
		if (unsure) {
			*word = "--all";
			hit = FENCE_LISTED;
		}
	}
	strbuf_release(&tmp);
	return hit;
}

/*
 * The revision walker's `--all`s (at[0..max)); *unsure when one follows an
 * option the table does not know, spelled without a value: the walker may
 * take `--all` as that option's value (`log --grep --all`), and an
 * exclusion put before it would become the value instead.
 */
/*
 * The revision walker's, diff's and rev-parse's options that take their
 * value as the next word (revision.c's parse_long_opt(), diff.c's), and
 * so might take `--all` for it; every other unknown option before --all
 * is a flag (`--not`, `--remerge-diff`, `--symbolic`).
 */
static bool takes_value(const struct git_optuse *u)
{
	static const char *const longs[] = {
		"author",
		"committer",
		"grep",
		"since",
		"after",
		"until",
		"before",
		"max-count",
		"skip",
		"min-age",
		"max-age",
		"exclude",
		"glob",
		"default",
		"prefix",
		"output",
		"encoding",
		"max-parents",
		"min-parents",
		"git-path",
		"resolve-git-dir",
		"show-object-format",
		"branches",
		"tags",
		"remotes",
		"decorate-refs",
		"decorate-refs-exclude",
		"exclude-hidden",
		"since-as-filter",
		"format",
		"pretty",
	};
	static const char shorts[] = "nSGOl";

	if (u->flags & GOPT_SHORT) /* `-n` alone, or `n` in a cluster */
		return (u->spelled_len == 2 && u->spelled[0] == '-' &&
			strchr(shorts, u->spelled[1])) ||
		       (u->spelled_len == 1 && strchr(shorts, u->spelled[0]));
	for (size_t i = 0; i < ARRAY_SIZE(longs); i++)
		if (u->spelled_len == strlen(longs[i]) &&
		    !strncmp(u->spelled, longs[i], u->spelled_len))
			return true;
	return false;
}

static size_t walker_alls(const struct git_argv *ga, size_t *at, size_t max,
			  bool *unsure)
{
	/* the commands whose --all is the revision walker's, which takes
	 * --exclude, and name-rev's (its --exclude leaves the refs out of
	 * the names it gives) */
	static const char *const walkers[] = {
		"log",	       "show",	    "whatchanged", "shortlog",
		"rev-list",    "rev-parse", "bundle",	   "format-patch",
		"fast-export", "name-rev",
	};
	size_t n = 0;
	bool walks = false;

	*unsure = false;
	for (size_t i = 0; ga->sub && i < ARRAY_SIZE(walkers); i++)
		walks = walks || !strcmp(ga->sub, walkers[i]);
	if (!walks)
		return 0;
	for (size_t i = 0; i < ga->nopts; i++) {
		const struct git_optuse *u = &ga->opts[i];

		if ((u->flags & GOPT_SHORT) || u->spelled_len != 3 ||
		    strncmp(u->spelled, "all", 3) || u->value)
			continue;
		if (i && ga->opts[i - 1].word + 1 == u->word &&
		    (ga->opts[i - 1].flags & GOPT_UNKNOWN) &&
		    !ga->opts[i - 1].value && takes_value(&ga->opts[i - 1]))
			*unsure = true;
		if (n < max)
			at[n++] = u->word;
	}
	return n;
}

size_t snapshot_fence_narrow(const struct git_argv *ga, size_t *at, size_t max)
{
	bool unsure;

	return walker_alls(ga, at, max, &unsure);
}

/*
 * A config value (`-c k=v`, the environment's) that names another agent's
 * snapshot or a ref pattern over them: `branch.<b>.merge` is what `@{u}`
 * resolves to, `remote.<r>.fetch` what a fetch copies.
 */
static bool value_reaches(const char *v, const char *own, struct strbuf *tmp)
{
	const char *src;

	if (names_other(squeeze(v, tmp), own) || searches_all_refs(v))
		return true;
	src = v + (*v == '+');
	strbuf_reset(tmp);
	strbuf_add(tmp, src, strcspn(src, ":"));
	return tmp->buf[strcspn(tmp->buf, "*?[\\")] &&
	       glob_reaches(tmp->buf, own);
}

/* The sections whose values git reads as ref names or refspecs. */
static bool key_names_refs(const char *kv)
{
	static const char *const sections[] = { "branch.", "remote.", "notes.",
						"core.notesref" };

	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		if (!strncasecmp(kv, sections[i], strlen(sections[i])))
			return true;
	return false;
}

enum fence_hit snapshot_fence_config(const struct git_argv *ga,
				     const struct config_env *env,
				     const char *own, const char **word)
{
	struct strbuf tmp = STRBUF_INIT;
	enum fence_hit hit = FENCE_NONE;

	if (own && !*own)
		own = NULL;
	for (size_t i = 0; i < ga->nconfigs && !hit; i++) {
		const char *eq = strchr(ga->configs[i], '=');
		if (eq && value_reaches(eq + 1, own, &tmp)) {
			hit = FENCE_NAMED;
			*word = ga->configs[i];
		}
	}
	for (size_t i = 0; env && i < env->kv.nr && !hit; i++) {
		const char *eq = strchr(env->kv.v[i], '=');
		if (eq && value_reaches(eq + 1, own, &tmp)) {
			hit = FENCE_NAMED;
			*word = env->kv.v[i];
		}
	}
	/* --config-env's value is in a variable the fence does not see */
	for (size_t i = 0; i < ga->nconfig_envs && !hit; i++)
		if (key_names_refs(ga->config_envs[i])) {
			hit = FENCE_NAMED;
			*word = ga->config_envs[i];
		}
	strbuf_release(&tmp);
	return hit;
}
