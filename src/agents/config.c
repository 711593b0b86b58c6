/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config.yaml: loading under the file rules (config.h invariant 1), the
 * YAML document, the top-level keys, repos:, dispatch:, and resolution.
 * The agents: block lives in config-agents.c, typed reads in
 * config-yaml.c; the YAML itself is read by base/yaml-doc.c.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include "agents/config-parse.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"

static const char *const top_keys[] = {
	"agents",
	"default_agent",
	"dispatch",
	"journal",
	"repos",
	"sandbox_backend",
	"sandbox_fallback",
	"snapshots",
	"tls_ca_file",
	NULL,
};
enum {
	TK_AGENTS,
	TK_DEFAULT,
	TK_DISPATCH,
	TK_JOURNAL,
	TK_REPOS,
	TK_BACKEND,
	TK_FALLBACK,
	TK_SNAPSHOTS,
	TK_TLS_CA,
	TK__COUNT
};

static void unknown_agent_msg(struct strbuf *sb, const char *name)
{
	strbuf_addf(sb, "unknown agent '%s': not defined under 'agents:' and not a built-in preset (",
		    name);
	preset_names(sb);
	strbuf_addch(sb, ')');
}

static void check_agent_name(struct cparse *cp, const struct ynode *v,
			     const char *where, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (agent_config_find(cp->cfg, name))
		return;
	unknown_agent_msg(&sb, name);
	cp_error(cp, v, NULL, "%s: %s", where, sb.buf);
	strbuf_release(&sb);
}

static bool valid_slug(const char *k)
{
	const char *slash = strchr(k, '/');

	return slash && slash != k && slash[1] && !strchr(slash + 1, '/') &&
	       !strchr(k, ' ') && strcmp(slash + 1, "..") && strcmp(slash + 1, ".");
}

static void one_repo(struct cparse *cp, const struct ynode *k,
		     const struct ynode *v)
{
	static const char *const rkeys[] = { "agent", NULL };
	struct agent_config *cfg = cp->cfg;
	char *key = cp_key(cp, k, "repos"), *where = NULL, *agent = NULL;
	const struct ynode *rk, *rv, *av = NULL;
	struct repo_rule r = { 0 };

	if (!key)
		return;
	where = xstrfmt("repos.%s", key);
	if (key[0] == '/' || key[0] == '~') {
		r.is_path = true;
		r.key = cp_path(cp, k, NULL, "repos");
	} else if (valid_slug(key)) {
		r.key = xstrdup(key);
	} else {
		cp_error(cp, k, NULL, "repos: key '%s' must be an absolute path, ~/path, or owner/name",
			 key);
	}
	if (ynode_kind(v) != YK_MAP) {
		cp_error(cp, v, k, "%s: expected mapping, got %s", where,
			 ykind_name(ynode_kind(v)));
		goto out;
	}
	ynode_for_each_pair (rk, rv, v)
		if (ydoc_key(cp->doc, rk, where, rkeys) >= 0)
			av = rv;
	if (!av) {
		/* at the key: an empty {} has no line of its own to point at */
		cp_error(cp, k, NULL, "%s: 'agent' is required", where);
		goto out;
	}
	free(where);
	where = xstrfmt("repos.%s.agent", key);
	agent = cp_string(cp, av, NULL, where);
	if (agent)
		check_agent_name(cp, av, where, agent);
	if (agent && r.key) {
		ALLOC_GROW(cfg->repos, cfg->nr_repos, cfg->alloc_repos);
		r.agent = steal_pointer(&agent);
		cfg->repos[cfg->nr_repos++] = r;
		r.key = NULL;
	}
out:
	free(r.key);
	free(agent);
	free(where);
	free(key);
}

static void parse_repos(struct cparse *cp, const struct ynode *k,
			const struct ynode *v)
{
	const struct ynode *rk, *rv;

	if (ynode_kind(v) == YK_NULL ||
	    !ydoc_want(cp->doc, v, k, "repos", YK_MAP))
		return;
	ynode_for_each_pair (rk, rv, v)
		one_repo(cp, rk, rv);
}

/* dispatch.<name>: a positive integer into *out */
static void dispatch_count(struct cparse *cp, const struct ynode *k,
			   const struct ynode *v, const char *name,
			   unsigned long *out)
{
	struct strbuf what = STRBUF_INIT;
	double n;

	strbuf_addf(&what, "dispatch.%s", name);
	if (ynode_kind(v) != YK_INT)
		cp_error(cp, v, k, "%s: expected a positive integer, got %s",
			 what.buf, ykind_name(ynode_kind(v)));
	else if (!cp_positive_number(cp, v, k, what.buf, 1000000, &n))
		*out = (unsigned long)n;
	strbuf_release(&what);
}

static void parse_dispatch(struct cparse *cp, const struct ynode *k,
			   const struct ynode *v)
{
	static const char *const dkeys[] = { "concurrency",    "timeout",
					     "verify_command", "workspace_root",
					     "keep_runs",      "keep_days",
					     "log_cap_mib",    NULL };
	unsigned long *const counts[] = { &cp->cfg->dispatch.keep_runs,
					  &cp->cfg->dispatch.keep_days,
					  &cp->cfg->dispatch.log_cap_mib };
	struct dispatch_defaults *d = &cp->cfg->dispatch;
	const struct ynode *dk, *dv;

	if (ynode_kind(v) == YK_NULL ||
	    !ydoc_want(cp->doc, v, k, "dispatch", YK_MAP))
		return;
	ynode_for_each_pair (dk, dv, v) {
		double n;
		int i = ydoc_key(cp->doc, dk, "dispatch", dkeys);

		switch (i) {
		case 0:
			if (ynode_kind(dv) != YK_INT)
				cp_error(cp, dv, dk, "dispatch.concurrency: expected a positive integer, got %s",
					 ykind_name(ynode_kind(dv)));
			else if (!cp_positive_number(cp, dv, dk, "dispatch.concurrency",
						     1024, &n))
				d->concurrency = (unsigned long)n;
			break;
		case 1:
			cp_positive_number(cp, dv, dk, "dispatch.timeout",
					   CONFIG_MAX_TIMEOUT, &d->timeout);
			break;
		case 2:
			strvec_clear(&d->verify_command);
			if (!cp_string_list(cp, dv, dk, "dispatch.verify_command",
					    true, &d->verify_command) &&
			    !d->verify_command.nr)
				cp_error(cp, dv, dk, "dispatch.verify_command: must be non-empty");
			break;
		case 3:
			free(d->workspace_root);
			d->workspace_root = cp_path(cp, dv, dk,
						    "dispatch.workspace_root");
			break;
		case 4:
		case 5:
		case 6:
			dispatch_count(cp, dk, dv, dkeys[i], counts[i - 4]);
			break;
		}
	}
}

/* A mapping of positive integers `keys[i]` into `field[i]` ("<what>.<key>"
 * in messages); `flag`, when named, is a boolean into *flag_off (true when
 * false). */
static void parse_counts(struct cparse *cp, const struct ynode *k,
			 const struct ynode *v, const char *what,
			 const char *const *keys, unsigned long *const *field,
			 const char *flag, bool *flag_off)
{
	const struct ynode *sk, *sv;

	if (ynode_kind(v) == YK_NULL || !ydoc_want(cp->doc, v, k, what, YK_MAP))
		return;
	ynode_for_each_pair (sk, sv, v) {
		int i = ydoc_key(cp->doc, sk, what, keys);
		struct strbuf name = STRBUF_INIT;
		double n;
		bool on;

		if (i < 0)
			continue;
		strbuf_addf(&name, "%s.%s", what, keys[i]);
		if (flag && !strcmp(keys[i], flag)) {
			if (!ydoc_bool(cp->doc, sv, sk, name.buf, &on))
				*flag_off = !on;
		} else if (ynode_kind(sv) != YK_INT) {
			cp_error(cp, sv, sk,
				 "%s: expected a positive integer, got %s",
				 name.buf, ykind_name(ynode_kind(sv)));
		} else if (!cp_positive_number(cp, sv, sk, name.buf, 1000000,
					       &n)) {
			*field[i] = (unsigned long)n;
		}
		strbuf_release(&name);
	}
}

static void parse_snapshots(struct cparse *cp, const struct ynode *k,
			    const struct ynode *v)
{
	static const char *const keys[] = { "max_age_days", "keep_per_worktree",
					    "keep_per_repository", "auto",
					    NULL };
	struct snapshot_retention_cfg *r = &cp->cfg->snapshots;
	unsigned long *const field[] = { &r->max_age_days,
					 &r->keep_per_worktree,
					 &r->keep_per_repository, NULL };

	parse_counts(cp, k, v, "snapshots", keys, field, "auto", &r->auto_off);
}

static void parse_journal(struct cparse *cp, const struct ynode *k,
			  const struct ynode *v)
{
	static const char *const keys[] = { "max_mib", "keep", NULL };
	unsigned long *const field[] = { &cp->cfg->journal.max_mib,
					 &cp->cfg->journal.keep };

	parse_counts(cp, k, v, "journal", keys, field, NULL, NULL);
}

static void parse_top(struct cparse *cp, const struct ynode *root)
{
	static const char *const fallbacks[] = { "refuse", "warn-run", NULL };
	static const char *const backends[] = { "auto", "bwrap", "landlock",
						NULL };
	const struct ynode *key[TK__COUNT] = { 0 }, *val[TK__COUNT] = { 0 };
	const struct ynode *k, *v;
	int i;

	if (ynode_kind(root) == YK_NULL)
		return;
	if (ynode_kind(root) != YK_MAP) {
		cp_error(cp, root, NULL, "expected a mapping at the top level, got %s",
			 ykind_name(ynode_kind(root)));
		return;
	}
	ynode_for_each_pair (k, v, root) {
		i = ydoc_key(cp->doc, k, "config", top_keys);
		if (i >= 0 && ynode_kind(v) != YK_NULL) {
			key[i] = k;
			val[i] = v;
		}
	}
	/* agents first: the names they define are checked below. */
	if (val[TK_AGENTS])
		cp_agents(cp, val[TK_AGENTS], key[TK_AGENTS]);
	if (val[TK_DEFAULT]) {
		char *s = cp_string(cp, val[TK_DEFAULT], key[TK_DEFAULT],
				    "default_agent");
		if (s)
			check_agent_name(cp, val[TK_DEFAULT], "default_agent", s);
		cp->cfg->default_agent = s;
	}
	if (val[TK_REPOS])
		parse_repos(cp, key[TK_REPOS], val[TK_REPOS]);
	if (val[TK_FALLBACK] &&
	    (i = cp_enum(cp, val[TK_FALLBACK], key[TK_FALLBACK],
			 "sandbox_fallback", fallbacks,
			 "not in allowed values")) >= 0)
		cp->cfg->sandbox_fallback = (enum sandbox_fallback)i;
	if (val[TK_BACKEND] &&
	    (i = cp_enum(cp, val[TK_BACKEND], key[TK_BACKEND],
			 "sandbox_backend", backends,
			 "not in allowed values")) >= 0)
		cp->cfg->sandbox_backend = (enum sandbox_backend)i;
	if (val[TK_DISPATCH])
		parse_dispatch(cp, key[TK_DISPATCH], val[TK_DISPATCH]);
	if (val[TK_SNAPSHOTS])
		parse_snapshots(cp, key[TK_SNAPSHOTS], val[TK_SNAPSHOTS]);
	if (val[TK_JOURNAL])
		parse_journal(cp, key[TK_JOURNAL], val[TK_JOURNAL]);
	/* the fs+api proxy's extra trusted CAs (PRODUCT.md §8) */
	if (val[TK_TLS_CA])
		cp->cfg->tls_ca_file = cp_path(cp, val[TK_TLS_CA],
					       key[TK_TLS_CA], "tls_ca_file");
}

static void add_presets(struct agent_config *cfg)
{
	for (size_t i = 0; i < preset_count(); i++) {
		ALLOC_GROW(cfg->profiles, cfg->nr_profiles, cfg->alloc_profiles);
		agent_profile_init_preset(&cfg->profiles[cfg->nr_profiles++],
					  preset_at(i));
	}
}

/* Parses the single document of `buf` and walks it. */
static void parse_yaml(struct cparse *cp, const char *buf, size_t len)
{
	const struct ydoc_limits lim = {
		.max_bytes = CONFIG_MAX_BYTES,
		.noun = "config",
	};

	if (!ydoc_parse(cp->doc, buf, len, &lim))
		parse_top(cp, cp->doc->root);
}

struct eline {
	unsigned long line, col;
	size_t seq;
	const char *text;
};

static int cmp_eline(const void *a, const void *b)
{
	const struct eline *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Appends the collected errors to `out` in file order (line, column). */
static void sorted_errors(const char *name, const struct strvec *in,
			  struct strbuf *out)
{
	struct eline *v = xcalloc(in->nr ? in->nr : 1, sizeof(*v));
	size_t nlen = strlen(name);

	for (size_t i = 0; i < in->nr; i++) {
		const char *p = in->v[i];
		v[i] = (struct eline){ 0, 0, i, p };
		if (!strncmp(p, name, nlen) && p[nlen] == ':') {
			char *end;
			v[i].line = strtoul(p + nlen + 1, &end, 10);
			if (*end == ':')
				v[i].col = strtoul(end + 1, NULL, 10);
		}
	}
	qsort(v, in->nr, sizeof(*v), cmp_eline);
	for (size_t i = 0; i < in->nr; i++)
		strbuf_addf(out, "%s\n", v[i].text);
	free(v);
}

int config_parse_buffer_opts(const char *buf, size_t len, const char *name,
			     const struct config_parse_opts *opts,
			     struct agent_config *out, struct strbuf *errs)
{
	struct config_parse_opts dflt = { 0 };
	struct strvec mine = STRVEC_INIT;
	struct ydoc doc = YDOC_INIT(name, &mine);
	struct cparse cp = { .doc = &doc, .cfg = out };
	char *base = NULL;

	cp.opts = opts ? opts : &dflt;
	cp.home = cp.opts->home ? cp.opts->home : getenv("HOME");
	cp.base_dir = cp.opts->base_dir;
	if (!cp.base_dir && name[0] == '/')
		cp.base_dir = base = path_dirname(name);
	else if (!cp.base_dir)
		cp.base_dir = base = getcwd(NULL, 0);
	add_presets(out);
	if (len > CONFIG_MAX_BYTES) {
		strvec_pushf(&mine, "%s: larger than %d bytes", name,
			     CONFIG_MAX_BYTES);
		doc.nerr++;
	} else {
		parse_yaml(&cp, buf, len);
	}
	ydoc_release(&doc);
	/* Presets whose command came from the table: pin when found. */
	for (size_t i = 0; !doc.nerr && cp.opts->pin == CONFIG_PIN_REAL &&
			   i < out->nr_profiles;
	     i++) {
		struct agent_profile *p = &out->profiles[i];
		struct strbuf ignore = STRBUF_INIT;
		if (!p->pinned && p->preset && p->command.nr &&
		    !strcmp(p->command.v[0], p->preset->command[0]))
			agent_profile_pin(p, cp.base_dir, cp.opts->path_env,
					  &ignore);
		strbuf_release(&ignore);
	}
	free(base);
	sorted_errors(name, &mine, errs);
	strvec_clear(&mine);
	return doc.nerr ? -1 : 0;
}

int config_parse_buffer(const char *buf, size_t len, const char *name,
			struct agent_config *out, struct strbuf *errs)
{
	return config_parse_buffer_opts(buf, len, name, NULL, out, errs);
}
