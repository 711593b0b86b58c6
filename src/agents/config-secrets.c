/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A profile's `secrets:` (PRODUCT.md §7): each entry names the variable
 * the agent reads, where the operator's value comes from and the hosts
 * the fs+api proxy may put it into. A configured list replaces the
 * preset's, as every list does (config.h invariant 6 for the hosts).
 *
 *   secrets:
 *     - name: ANTHROPIC_API_KEY
 *       from: env                # env (default) | file:PATH
 *       hosts: [api.anthropic.com]
 *     - name: GH_TOKEN
 *       command: [mint-token, --repo, "{repo}"]
 *       hosts: [api.github.com]
 */
#include "base/common.h"
#include <ctype.h>
#include "agents/allowhosts.h"
#include "agents/config-parse.h"
#include "base/xalloc.h"

enum skey { SK_NAME, SK_FROM, SK_COMMAND, SK_HOSTS, SK__COUNT };

static const char *const secret_keys[] = { "command", "from", "hosts", "name",
					   NULL };
static const enum skey skey_of[] = { SK_COMMAND, SK_FROM, SK_HOSTS, SK_NAME };

/*
 * Names a secret may not take: the cage's own plumbing, which a
 * placeholder would break or a value would redirect.
 */
static bool reserved_name(const char *n)
{
	static const char *const names[] = {
		"PATH",
		"HOME",
		"TMPDIR",
		"HTTPS_PROXY",
		"https_proxy",
		"HTTP_PROXY",
		"http_proxy",
		"ALL_PROXY",
		"all_proxy",
		"NO_PROXY",
		"no_proxy",
		"SSL_CERT_FILE",
		"CURL_CA_BUNDLE",
		"NODE_EXTRA_CA_CERTS",
		"REQUESTS_CA_BUNDLE",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(n, names[i]))
			return true;
	return starts_with(n, "AGENTIC_GIT_") || starts_with(n, "AGEND_") ||
	       starts_with(n, "GIT_");
}

static bool valid_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s) || strlen(s) > 128)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static void secret_name(struct cparse *cp, struct secret_rule *r,
			const struct ynode *v, const struct ynode *k,
			const char *w, const struct agent_profile *p)
{
	char *where = xstrfmt("%s.name", w);
	char *n = cp_string(cp, v, k, where);

	if (!n)
		goto out;
	if (!valid_name(n))
		cp_error(cp, v, k,
			 "%s: '%s' is not a valid environment variable name",
			 where, n);
	else if (reserved_name(n))
		cp_error(cp, v, k,
			 "%s: '%s' cannot be a secret (the sandbox sets it)",
			 where, n);
	for (size_t i = 0; i < p->nr_secrets; i++)
		if (p->secrets[i].name && !strcmp(p->secrets[i].name, n))
			cp_error(cp, v, k, "%s: '%s' is listed twice", where,
				 n);
	r->name = n;
out:
	free(where);
}

static void secret_from(struct cparse *cp, struct secret_rule *r,
			const struct ynode *v, const struct ynode *k,
			const char *w)
{
	char *where = xstrfmt("%s.from", w);
	char *s = cp_string(cp, v, k, where);

	if (!s) {
		free(where);
		return;
	}
	if (!strcmp(s, "env")) {
		r->from = SECRET_FROM_ENV;
	} else if (starts_with(s, "file:")) {
		struct ynode tmp = *v;
		/* the path is checked as a path key is, at the same place */
		tmp.u.text = s + 5;
		tmp.len = (uint32_t)strlen(s + 5);
		r->from = SECRET_FROM_FILE;
		r->file = cp_path(cp, &tmp, k, where);
	} else {
		cp_error(
			cp, v, k,
			"%s: '%s' is not 'env' or 'file:PATH' (a command is given as 'command: [argv…]')",
			where, s);
	}
	free(s);
	free(where);
}

static void secret_command(struct cparse *cp, struct secret_rule *r,
			   const struct ynode *v, const struct ynode *k,
			   const char *w)
{
	char *where = xstrfmt("%s.command", w);
	struct strbuf why = STRBUF_INIT;
	char *abs = NULL;

	r->from = SECRET_FROM_COMMAND;
	if (cp_string_list(cp, v, k, where, true, &r->command) < 0)
		goto out;
	if (!r->command.nr) {
		cp_error(cp, v, k, "%s: must be non-empty", where);
		goto out;
	}
	if (strchr(r->command.v[0], '{')) {
		cp_error(
			cp, v, k,
			"%s: the binary (first element) cannot contain a placeholder",
			where);
		goto out;
	}
	if (cp->opts->pin == CONFIG_PIN_SKIP)
		goto out;
	if (agent_binary_pin(r->command.v[0], cp->base_dir, cp->opts->path_env,
			     &abs, &why) < 0) {
		cp_error(cp, v, k, "%s: %s", where, why.buf);
	} else {
		free((char *)r->command.v[0]);
		r->command.v[0] = abs;
	}
out:
	strbuf_release(&why);
	free(where);
}

static void secret_hosts(struct cparse *cp, struct secret_rule *r,
			 const struct ynode *v, const struct ynode *k,
			 const char *w)
{
	char *where = xstrfmt("%s.hosts", w);
	struct strbuf why = STRBUF_INIT;

	if (cp_string_list(cp, v, k, where, false, &r->hosts) < 0)
		goto out;
	if (!r->hosts.nr)
		cp_error(cp, v, k, "%s: must name at least one host", where);
	for (size_t i = 0; i < r->hosts.nr; i++) {
		strbuf_reset(&why);
		if (allowhost_check(r->hosts.v[i], &why) < 0)
			cp_error(cp, v, k, "%s: '%s': %s", where, r->hosts.v[i],
				 why.buf);
	}
out:
	strbuf_release(&why);
	free(where);
}

static void one_secret(struct cparse *cp, struct agent_profile *p,
		       const struct ynode *item, const struct ynode *key,
		       const char *w, struct secret_rule *r)
{
	const struct ynode *k, *v, *kk[SK__COUNT] = { 0 },
				   *vv[SK__COUNT] = { 0 };
	struct strbuf pos = STRBUF_INIT;

	if (!ydoc_want(cp->doc, item, key, w, YK_MAP))
		return;
	ynode_for_each_pair (k, v, item) {
		int i = ydoc_key(cp->doc, k, w, secret_keys);
		if (i >= 0) {
			kk[skey_of[i]] = k;
			vv[skey_of[i]] = v;
		}
	}
	cp_where(cp, item, &pos);
	r->where = strbuf_detach(&pos, NULL);
	if (!kk[SK_NAME])
		cp_error(cp, item, key, "%s: 'name' is required", w);
	else
		secret_name(cp, r, vv[SK_NAME], kk[SK_NAME], w, p);
	if (!kk[SK_HOSTS])
		cp_error(
			cp, item, key,
			"%s: 'hosts' is required (where the proxy may put the value)",
			w);
	else
		secret_hosts(cp, r, vv[SK_HOSTS], kk[SK_HOSTS], w);
	if (kk[SK_FROM] && kk[SK_COMMAND])
		cp_error(cp, vv[SK_COMMAND], kk[SK_COMMAND],
			 "%s: give either 'from' or 'command', not both", w);
	else if (kk[SK_FROM])
		secret_from(cp, r, vv[SK_FROM], kk[SK_FROM], w);
	else if (kk[SK_COMMAND])
		secret_command(cp, r, vv[SK_COMMAND], kk[SK_COMMAND], w);
}

void cp_secrets(struct cparse *cp, struct agent_profile *p,
		const struct ynode *v, const struct ynode *key, const char *w)
{
	const struct ynode *item;
	char *what = xstrfmt("%s.secrets", w);
	size_t i = 0;
	bool ok;

	agent_profile_clear_secrets(p);
	ok = ynode_kind(v) != YK_NULL &&
	     ydoc_want(cp->doc, v, key, what, YK_SEQ);
	free(what);
	if (!ok)
		return;
	ynode_for_each_item (item, v) {
		char *where = xstrfmt("%s.secrets[%zu]", w, i++);
		struct secret_rule r = { .command = STRVEC_INIT,
					 .hosts = STRVEC_INIT };

		one_secret(cp, p, item, key, where, &r);
		p->secrets = xrealloc(p->secrets, (p->nr_secrets + 1) *
							  sizeof(*p->secrets));
		p->secrets[p->nr_secrets++] = r;
		free(where);
	}
}

/* A secret's host is one the proxy may reach: listed as it is, or (a
 * name or an address) matched by the list. */
static bool host_allowed(const struct agent_profile *p, const char *h)
{
	const char *const *allow = (const char *const *)p->allow_hosts.v;
	struct allowhost_target t;

	for (size_t i = 0; i < p->allow_hosts.nr; i++)
		if (!strcasecmp(allow[i], h))
			return true;
	if (h[0] == '*' ||
	    allowhost_authority(h, strlen(h), false, ALLOWHOST_DEFAULT_PORT, &t,
				NULL) < 0)
		return false;
	return allowhosts_match(allow, p->allow_hosts.nr, &t);
}

void cp_secrets_check_hosts(struct cparse *cp, const struct agent_profile *p,
			    const struct ynode *at, const char *w)
{
	if (p->sandbox != SANDBOX_FS_API)
		return;
	for (size_t i = 0; i < p->nr_secrets; i++) {
		const struct secret_rule *r = &p->secrets[i];

		for (size_t j = 0; !r->optional && j < r->hosts.nr; j++)
			if (!host_allowed(p, r->hosts.v[j]))
				cp_error(
					cp, at, NULL,
					"%s.secrets[%zu].hosts: '%s' is not in %s.allow_hosts, so the proxy never reaches it; add it there",
					w, i, r->hosts.v[j], w);
	}
}
