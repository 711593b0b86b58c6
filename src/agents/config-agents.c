/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agents: block of config.yaml (seed §3, reference §2.2-§2.4): each
 * entry is a field-level override of the preset of the same name, or a
 * custom profile. Check order per profile: mapping, unknown keys, custom
 * without command, each field, then the template rules and pinning.
 */
#include "base/common.h"
#include <ctype.h>
#include "agents/allowhosts.h"
#include "agents/config-parse.h"
#include "base/xalloc.h"

enum pkey {
	PK_COMMAND,
	PK_MODEL_ARGS,
	PK_MODEL,
	PK_PROMPT_VIA,
	PK_TIMEOUT,
	PK_ENV,
	PK_SANDBOX,
	PK_RO_BINDS,
	PK_CACHE_DIR,
	PK_ALLOW_HOSTS,
	PK_SECRETS,
	PK__COUNT
};

static const char *const profile_keys[] = {
	"allow_hosts", "cache_dir",  "command",	   "env",
	"model",       "model_args", "prompt_via", "ro_binds",
	"sandbox",     "secrets",    "timeout",	   NULL,
};

static const enum pkey key_of[] = {
	PK_ALLOW_HOSTS, PK_CACHE_DIR,  PK_COMMAND,    PK_ENV,
	PK_MODEL,	PK_MODEL_ARGS, PK_PROMPT_VIA, PK_RO_BINDS,
	PK_SANDBOX,	PK_SECRETS,    PK_TIMEOUT,
};

struct pblock {
	const struct ynode *key[PK__COUNT];
	const struct ynode *val[PK__COUNT];
	bool present[PK__COUNT];
};

static bool valid_profile_name(const char *s)
{
	if (!*s || *s == '-' || *s == '.' || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

static bool valid_env_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static size_t count_prompt_tokens(const struct strvec *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nr; i++)
		n += strstr(v->v[i], "{prompt}") != NULL;
	return n;
}

static void field_command(struct cparse *cp, struct agent_profile *p,
			  const struct pblock *b, const char *w)
{
	const struct ynode *k = b->key[PK_COMMAND], *v = b->val[PK_COMMAND];
	struct strvec tmp = STRVEC_INIT;
	char *where = xstrfmt("%s.command", w);

	if (cp_string_list(cp, v, k, where, true, &tmp) < 0) {
		strvec_clear(&tmp);
	} else if (!tmp.nr) {
		cp_error(cp, v, k, "%s: 'command' must be non-empty", w);
	} else {
		strvec_clear(&p->command);
		p->command = tmp;
		p->pinned = false;
	}
	free(where);
}

static void field_list(struct cparse *cp, struct strvec *dst,
		       const struct pblock *b, enum pkey f, const char *w,
		       const char *name, bool argv_like)
{
	struct strvec tmp = STRVEC_INIT;
	char *where = xstrfmt("%s.%s", w, name);

	if (cp_string_list(cp, b->val[f], b->key[f], where, argv_like,
			   &tmp) < 0) {
		strvec_clear(&tmp);
	} else {
		strvec_clear(dst);
		*dst = tmp;
	}
	free(where);
}

static void field_env(struct cparse *cp, struct agent_profile *p,
		      const struct pblock *b, const char *w)
{
	char *where = xstrfmt("%s.env", w);
	size_t before = cp->doc->nerr;

	field_list(cp, &p->env, b, PK_ENV, w, "env", true);
	if ((size_t)cp->doc->nerr == before) {
		p->inherit_env = false;
		for (size_t i = 0; i < p->env.nr; i++)
			if (!valid_env_name(p->env.v[i]))
				cp_error(cp, b->val[PK_ENV], b->key[PK_ENV],
					 "%s: '%s' is not a valid environment variable name",
					 where, p->env.v[i]);
	}
	free(where);
}

/* fs+api's hosts (agents/allowhosts.h); the list replaces the preset's. */
static void field_allow_hosts(struct cparse *cp, struct agent_profile *p,
			      const struct pblock *b, const char *w)
{
	struct strbuf why = STRBUF_INIT;
	size_t before = cp->doc->nerr;

	field_list(cp, &p->allow_hosts, b, PK_ALLOW_HOSTS, w, "allow_hosts",
		   false);
	if ((size_t)cp->doc->nerr != before)
		return;
	for (size_t i = 0; i < p->allow_hosts.nr; i++) {
		strbuf_reset(&why);
		if (allowhost_check(p->allow_hosts.v[i], &why) < 0)
			cp_error(cp, b->val[PK_ALLOW_HOSTS],
				 b->key[PK_ALLOW_HOSTS],
				 "%s.allow_hosts: '%s': %s", w,
				 p->allow_hosts.v[i], why.buf);
	}
	strbuf_release(&why);
}

static void field_ro_binds(struct cparse *cp, struct agent_profile *p,
			   const struct pblock *b, const char *w)
{
	const struct ynode *v = b->val[PK_RO_BINDS], *item;
	char *where = xstrfmt("%s.ro_binds", w);

	if (ynode_kind(v) != YK_SEQ) {
		cp_error(cp, v, b->key[PK_RO_BINDS],
			 "%s: expected a list of absolute paths", where);
		free(where);
		return;
	}
	strvec_clear(&p->ro_binds);
	ynode_for_each_item (item, v) {
		char *path = cp_path(cp, item, b->key[PK_RO_BINDS], where);
		if (path)
			strvec_push(&p->ro_binds, path);
		free(path);
	}
	free(where);
}

static void field_scalars(struct cparse *cp, struct agent_profile *p,
			  const struct pblock *b, const char *w)
{
	static const char *const vias[] = { "arg", "stdin", NULL };
	/* in enum sandbox_policy order */
	static const char *const policies[] = { "none", "fs-only", "fs+no-net",
						"fs+api", NULL };
	char *where;
	int i;

	if (b->present[PK_MODEL]) {
		where = xstrfmt("%s.model", w);
		if (ynode_kind(b->val[PK_MODEL]) == YK_NULL) {
			free(p->model);
			p->model = NULL;
		} else if (ynode_kind(b->val[PK_MODEL]) != YK_STR) {
			cp_error(cp, b->val[PK_MODEL], b->key[PK_MODEL],
				 "%s: expected str or null", where);
		} else {
			char *m = cp_string(cp, b->val[PK_MODEL],
					    b->key[PK_MODEL], where);
			if (m) {
				free(p->model);
				p->model = m;
			}
		}
		free(where);
	}
	if (b->present[PK_PROMPT_VIA]) {
		where = xstrfmt("%s.prompt_via", w);
		i = cp_enum(cp, b->val[PK_PROMPT_VIA], b->key[PK_PROMPT_VIA],
			    where, vias, "not in");
		if (i >= 0)
			p->prompt_via = (enum prompt_via)i;
		free(where);
	}
	if (b->present[PK_TIMEOUT]) {
		where = xstrfmt("%s.timeout", w);
		cp_positive_number(cp, b->val[PK_TIMEOUT], b->key[PK_TIMEOUT],
				   where, CONFIG_MAX_TIMEOUT, &p->timeout);
		free(where);
	}
	if (b->present[PK_SANDBOX]) {
		where = xstrfmt("%s.sandbox", w);
		i = cp_enum(cp, b->val[PK_SANDBOX], b->key[PK_SANDBOX], where,
			    policies, "not in");
		if (i >= 0)
			p->sandbox = (enum sandbox_policy)i;
		free(where);
	}
	if (b->present[PK_CACHE_DIR]) {
		where = xstrfmt("%s.cache_dir", w);
		char *d = cp_path(cp, b->val[PK_CACHE_DIR], b->key[PK_CACHE_DIR],
				  where);
		if (d) {
			free(p->cache_dir);
			p->cache_dir = d;
		}
		free(where);
	}
}

/* Template rules (config.h invariant 5) and pinning (invariant 3). */
static void check_template(struct cparse *cp, struct agent_profile *p,
			   const struct pblock *b, const struct ynode *blk,
			   const char *w, bool had_errors)
{
	const struct ynode *at =
		b->present[PK_COMMAND] ? b->val[PK_COMMAND] : blk;
	const struct ynode *fb =
		b->present[PK_COMMAND] ? b->key[PK_COMMAND] : NULL;
	/* errors about the binary point at it, command[0] */
	const struct ynode *bin =
		at->type == YN_SEQ && at->u.first ? at->u.first : at;
	int nerr0 = cp->doc->nerr;
	size_t n;

	if (!p->command.nr)
		return;
	n = count_prompt_tokens(&p->command);
	if (p->prompt_via == PROMPT_VIA_ARG && n != 1)
		cp_error(cp, at, fb, "%s: command must contain exactly one '{prompt}' token when prompt_via='arg' (found %zu)",
			 w, n);
	else if (p->prompt_via == PROMPT_VIA_STDIN && n)
		cp_error(cp, at, fb, "%s: command must contain no '{prompt}' token when prompt_via='stdin' (found %zu)",
			 w, n);
	if (strchr(p->command.v[0], '{'))
		cp_error(
			cp, bin, fb,
			"%s.command: the binary (first element) cannot contain a placeholder",
			w);
	if (count_prompt_tokens(&p->model_args))
		cp_error(cp, b->present[PK_MODEL_ARGS] ? b->val[PK_MODEL_ARGS] : blk,
			 b->key[PK_MODEL_ARGS],
			 "%s.model_args: must not contain '{prompt}'", w);
	if (cp->opts->pin == CONFIG_PIN_SKIP || had_errors ||
	    cp->doc->nerr != nerr0)
		return;
	struct strbuf why = STRBUF_INIT;
	if (agent_profile_pin(p, cp->base_dir, cp->opts->path_env, &why) < 0 &&
	    b->present[PK_COMMAND])
		cp_error(cp, bin, fb, "%s.command: %s", w, why.buf);
	strbuf_release(&why);
}

static struct agent_profile *profile_slot(struct cparse *cp, const char *name)
{
	struct agent_config *cfg = cp->cfg;

	for (size_t i = 0; i < cfg->nr_profiles; i++)
		if (!strcmp(cfg->profiles[i].name, name))
			return &cfg->profiles[i];
	ALLOC_GROW(cfg->profiles, cfg->nr_profiles, cfg->alloc_profiles);
	struct agent_profile *p = &cfg->profiles[cfg->nr_profiles++];
	memset(p, 0, sizeof(*p));
	strvec_init(&p->command);
	strvec_init(&p->model_args);
	strvec_init(&p->env);
	strvec_init(&p->ro_binds);
	strvec_init(&p->allow_hosts);
	p->name = xstrdup(name);
	p->inherit_env = true; /* a custom profile without env: (seed §6) */
	return p;
}

static int collect_keys(struct cparse *cp, const struct ynode *blk,
			const char *w, struct pblock *b)
{
	const struct ynode *k, *v;
	int bad = 0;

	memset(b, 0, sizeof(*b));
	ynode_for_each_pair (k, v, blk) {
		int i = ydoc_key(cp->doc, k, w, profile_keys);

		if (i < 0) {
			bad = 1;
		} else {
			b->present[key_of[i]] = true;
			b->key[key_of[i]] = k;
			b->val[key_of[i]] = v;
		}
	}
	return bad ? -1 : 0;
}

static void one_profile(struct cparse *cp, const char *name,
			const struct ynode *k, const struct ynode *blk)
{
	char *w = xstrfmt("agents.%s", name);
	const struct agent_preset *pr = preset_find(name);
	struct agent_profile *p;
	struct pblock b;
	int nerr0;

	if (!valid_profile_name(name)) {
		cp_error(cp, k, NULL, "agents: profile name '%s' must be 1-64 characters of A-Z a-z 0-9 . _ - (not starting with - or .)",
			 name);
		goto out;
	}
	if (ynode_kind(blk) != YK_MAP) {
		cp_error(cp, blk, k, "%s: expected mapping, got %s", w,
			 ykind_name(ynode_kind(blk)));
		goto out;
	}
	collect_keys(cp, blk, w, &b);
	if (!pr && !b.present[PK_COMMAND]) {
		cp_error(cp, k, NULL, "%s: custom agent '%s' must define 'command' (no built-in preset by that name)",
			 w, name);
		goto out;
	}
	p = profile_slot(cp, name);
	p->configured = true;
	free(p->where);
	{
		struct strbuf pos = STRBUF_INIT;
		cp_where(cp, k, &pos);
		p->where = strbuf_detach(&pos, NULL);
	}
	nerr0 = cp->doc->nerr;
	if (b.present[PK_COMMAND])
		field_command(cp, p, &b, w);
	if (b.present[PK_MODEL_ARGS])
		field_list(cp, &p->model_args, &b, PK_MODEL_ARGS, w,
			   "model_args", true);
	field_scalars(cp, p, &b, w);
	if (b.present[PK_ENV])
		field_env(cp, p, &b, w);
	if (b.present[PK_RO_BINDS])
		field_ro_binds(cp, p, &b, w);
	if (b.present[PK_ALLOW_HOSTS])
		field_allow_hosts(cp, p, &b, w);
	if (b.present[PK_SECRETS])
		cp_secrets(cp, p, b.val[PK_SECRETS], b.key[PK_SECRETS], w);
	if (cp->doc->nerr == nerr0)
		cp_secrets_check_hosts(
			cp, p, b.present[PK_SECRETS] ? b.val[PK_SECRETS] : blk,
			w);
	check_template(cp, p, &b, blk, w, cp->doc->nerr != nerr0);
out:
	free(w);
}

void cp_agents(struct cparse *cp, const struct ynode *v,
	       const struct ynode *key)
{
	const struct ynode *k, *blk;

	if (ynode_kind(v) == YK_NULL ||
	    !ydoc_want(cp->doc, v, key, "agents", YK_MAP))
		return;
	ynode_for_each_pair (k, blk, v) {
		char *name = cp_key(cp, k, "agents");

		if (name)
			one_profile(cp, name, k, blk);
		free(name);
	}
}
