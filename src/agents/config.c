/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config.yaml: loading under the file rules (config.h invariant 1), the
 * YAML document, the top-level keys, repos:, dispatch:, and resolution.
 * The agents: block lives in config-agents.c, node helpers in
 * config-yaml.c.
 */
#include "base/yaml-guard.h"
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
	"agents", "default_agent", "dispatch", "repos", "sandbox_backend",
	"sandbox_fallback", NULL,
};
enum { TK_AGENTS, TK_DEFAULT, TK_DISPATCH, TK_REPOS, TK_BACKEND,
       TK_FALLBACK, TK__COUNT };

/*
 * Re-emits libfyaml's errors under our name. They are collected, never
 * printed: libfyaml 0.7.12 can crash while it prints the offending line
 * (fy_diag_error_atom_display, docs/fuzzing.md finding 6).
 */
static void yaml_errors(struct cparse *cp, struct fy_diag *diag)
{
	struct fy_diag_error *de;
	void *it = NULL;
	int before = cp->nerr;

	while ((de = fy_diag_errors_iterate(diag, &it))) {
		strbuf_addf(cp->errs, "%s:%d:%d: invalid YAML: %s\n", cp->name,
			    de->line, de->column, de->msg);
		cp->nerr++;
	}
	if (cp->nerr == before) {
		strbuf_addf(cp->errs, "%s:1:1: invalid YAML\n", cp->name);
		cp->nerr++;
	}
}

/* Aliases and explicit tags are refused everywhere (config-yaml.c). */
static void check_plain(struct cparse *cp, struct fy_node *n, int depth)
{
	struct fy_node_pair *pr;
	struct fy_node *item;
	void *it = NULL;

	if (!n || depth > 32)
		return;
	if (fy_node_is_alias(n))
		cp_error(cp, n, NULL, "aliases are not supported in the config");
	else if (fy_node_get_tag(n, NULL))
		cp_error(cp, n, NULL, "explicit YAML tags are not supported in the config");
	if (fy_node_is_mapping(n)) {
		while ((pr = fy_node_mapping_iterate(n, &it))) {
			check_plain(cp, fy_node_pair_key(pr), depth + 1);
			check_plain(cp, fy_node_pair_value(pr), depth + 1);
		}
	} else if (fy_node_is_sequence(n)) {
		while ((item = fy_node_sequence_iterate(n, &it)))
			check_plain(cp, item, depth + 1);
	}
}

static void unknown_agent_msg(struct strbuf *sb, const char *name)
{
	strbuf_addf(sb, "unknown agent '%s': not defined under 'agents:' and not a built-in preset (",
		    name);
	preset_names(sb);
	strbuf_addch(sb, ')');
}

static void check_agent_name(struct cparse *cp, struct fy_node *v,
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

static void one_repo(struct cparse *cp, struct fy_node *k, struct fy_node *v)
{
	static const char *const rkeys[] = { "agent", NULL };
	struct agent_config *cfg = cp->cfg;
	char *key = cp_key(cp, k, "repos"), *where = NULL, *agent = NULL;
	struct fy_node_pair *pr;
	struct fy_node *av = NULL;
	void *it = NULL;
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
	while ((pr = fy_node_mapping_iterate(v, &it))) {
		char *ks = cp_key(cp, fy_node_pair_key(pr), where);
		if (ks && key_index(ks, rkeys) < 0)
			cp_unknown_key(cp, fy_node_pair_key(pr), where, ks, rkeys);
		else if (ks)
			av = fy_node_pair_value(pr);
		free(ks);
	}
	if (!av) {
		cp_error(cp, v, k, "%s: 'agent' is required", where);
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

static void parse_repos(struct cparse *cp, struct fy_node *k, struct fy_node *v)
{
	struct fy_node_pair *pr;
	void *it = NULL;

	if (ynode_kind(v) == YK_NULL)
		return;
	if (ynode_kind(v) != YK_MAP) {
		cp_error(cp, v, k, "repos: expected mapping, got %s",
			 ykind_name(ynode_kind(v)));
		return;
	}
	while ((pr = fy_node_mapping_iterate(v, &it)))
		one_repo(cp, fy_node_pair_key(pr), fy_node_pair_value(pr));
}

static void parse_dispatch(struct cparse *cp, struct fy_node *k,
			   struct fy_node *v)
{
	static const char *const dkeys[] = { "concurrency", "timeout",
					     "verify_command",
					     "workspace_root", NULL };
	struct dispatch_defaults *d = &cp->cfg->dispatch;
	struct fy_node_pair *pr;
	void *it = NULL;

	if (ynode_kind(v) == YK_NULL)
		return;
	if (ynode_kind(v) != YK_MAP) {
		cp_error(cp, v, k, "dispatch: expected mapping, got %s",
			 ykind_name(ynode_kind(v)));
		return;
	}
	while ((pr = fy_node_mapping_iterate(v, &it))) {
		struct fy_node *dk = fy_node_pair_key(pr);
		struct fy_node *dv = fy_node_pair_value(pr);
		char *ks = cp_key(cp, dk, "dispatch");
		double n;

		switch (ks ? key_index(ks, dkeys) : -2) {
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
		case -1:
			cp_unknown_key(cp, dk, "dispatch", ks, dkeys);
			break;
		}
		free(ks);
	}
}

static void parse_top(struct cparse *cp, struct fy_node *root)
{
	static const char *const fallbacks[] = { "refuse", "warn-run", NULL };
	static const char *const backends[] = { "auto", "bwrap", "landlock",
						NULL };
	struct fy_node *key[TK__COUNT] = { 0 }, *val[TK__COUNT] = { 0 };
	struct fy_node_pair *pr;
	void *it = NULL;
	int i;

	if (ynode_kind(root) == YK_NULL)
		return;
	if (ynode_kind(root) != YK_MAP) {
		cp_error(cp, root, NULL, "expected a mapping at the top level, got %s",
			 ykind_name(ynode_kind(root)));
		return;
	}
	while ((pr = fy_node_mapping_iterate(root, &it))) {
		char *ks = cp_key(cp, fy_node_pair_key(pr), "config");
		i = ks ? key_index(ks, top_keys) : -2;
		if (i == -1)
			cp_unknown_key(cp, fy_node_pair_key(pr), "config", ks,
				       top_keys);
		if (i >= 0 && ynode_kind(fy_node_pair_value(pr)) != YK_NULL) {
			key[i] = fy_node_pair_key(pr);
			val[i] = fy_node_pair_value(pr);
		}
		free(ks);
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
}

static void add_presets(struct agent_config *cfg)
{
	for (size_t i = 0; i < preset_count(); i++) {
		ALLOC_GROW(cfg->profiles, cfg->nr_profiles, cfg->alloc_profiles);
		agent_profile_init_preset(&cfg->profiles[cfg->nr_profiles++],
					  preset_at(i));
	}
}

/* The text must pass base/yaml-guard.c before libfyaml sees it. */
static int check_text(struct cparse *cp, const char *buf, size_t len)
{
	int line, col;
	const char *why = yaml_guard(buf, len, &line, &col);

	if (!why)
		return 0;
	strbuf_addf(cp->errs, "%s:%d:%d: %s\n", cp->name, line, col, why);
	cp->nerr++;
	return -1;
}

/* Parses the single document of `buf` and walks it. */
static void parse_yaml(struct cparse *cp, const char *buf, size_t len)
{
	struct fy_diag_cfg dc;
	struct fy_diag *diag;
	struct fy_parse_cfg pc = { 0 };
	struct fy_parser *fyp;
	struct fy_document *doc = NULL, *doc2;

	fy_diag_cfg_default(&dc);
	dc.fp = NULL;	/* nothing is printed: errors are collected */
	dc.colorize = false;
	diag = fy_diag_create(&dc);
	if (diag)
		fy_diag_set_collect_errors(diag, true);
	pc.flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_JSON_NONE;
	pc.diag = diag;
	fyp = diag ? fy_parser_create(&pc) : NULL;
	if (!fyp || fy_parser_set_string(fyp, buf, len)) {
		strbuf_addf(cp->errs, "%s: cannot start the YAML parser\n", cp->name);
		cp->nerr++;
		goto out;
	}
	doc = fy_parse_load_document(fyp);
	if (doc && (doc2 = fy_parse_load_document(fyp))) {
		cp_error(cp, fy_document_root(doc2), NULL,
			 "only one YAML document is allowed in the config");
		fy_parse_document_destroy(fyp, doc2);
	}
	if (fy_diag_got_error(diag)) {
		yaml_errors(cp, diag);
	} else if (doc) {
		check_plain(cp, fy_document_root(doc), 0);
		if (!cp->nerr)
			parse_top(cp, fy_document_root(doc));
	}
out:
	if (doc)
		fy_parse_document_destroy(fyp, doc);
	if (fyp)
		fy_parser_destroy(fyp);
	if (diag)
		fy_diag_destroy(diag);
}

struct eline {
	unsigned long line, col;
	size_t seq;
	const char *text;
	size_t len;
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
static void sorted_errors(const char *name, const struct strbuf *in,
			  struct strbuf *out)
{
	struct eline *v = NULL;
	size_t nr = 0, alloc = 0, nlen = strlen(name);
	const char *p = in->buf;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		struct eline e = { 0, 0, nr, p, (size_t)(eol - p) };
		if (!strncmp(p, name, nlen) && p[nlen] == ':') {
			char *end;
			e.line = strtoul(p + nlen + 1, &end, 10);
			if (*end == ':')
				e.col = strtoul(end + 1, NULL, 10);
		}
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = e;
		p = *eol ? eol + 1 : eol;
	}
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_eline);
	for (size_t i = 0; i < nr; i++) {
		strbuf_add(out, v[i].text, v[i].len);
		strbuf_addch(out, '\n');
	}
	free(v);
}

int config_parse_buffer_opts(const char *buf, size_t len, const char *name,
			     const struct config_parse_opts *opts,
			     struct agent_config *out, struct strbuf *errs)
{
	struct config_parse_opts dflt = { 0 };
	struct strbuf mine = STRBUF_INIT;
	struct cparse cp = { .name = name, .errs = &mine, .cfg = out };
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
		strbuf_addf(&mine, "%s: larger than %d bytes\n", name,
			    CONFIG_MAX_BYTES);
		cp.nerr++;
	} else if (len && !check_text(&cp, buf, len)) {
		parse_yaml(&cp, buf, len);
	}
	/* Presets whose command came from the table: pin when found. */
	for (size_t i = 0; !cp.nerr && cp.opts->pin == CONFIG_PIN_REAL &&
			   i < out->nr_profiles; i++) {
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
	strbuf_release(&mine);
	return cp.nerr ? -1 : 0;
}

int config_parse_buffer(const char *buf, size_t len, const char *name,
			struct agent_config *out, struct strbuf *errs)
{
	return config_parse_buffer_opts(buf, len, name, NULL, out, errs);
}
