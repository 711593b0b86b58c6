/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent profile lifecycle and binary pinning (config.h invariant 3).
 */
#include "base/common.h"
#include <errno.h>
#include <sys/stat.h>
#include "agents/config.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"

void agent_profile_init_preset(struct agent_profile *p,
			       const struct agent_preset *pr)
{
	memset(p, 0, sizeof(*p));
	strvec_init(&p->command);
	strvec_init(&p->model_args);
	strvec_init(&p->env);
	strvec_init(&p->ro_binds);
	strvec_init(&p->allow_hosts);
	p->name = xstrdup(pr->name);
	strvec_pushv(&p->command, pr->command);
	strvec_pushv(&p->model_args, pr->model_args);
	strvec_pushv(&p->env, pr->env);
	if (pr->allow_hosts)
		strvec_pushv(&p->allow_hosts, pr->allow_hosts);
	p->model = pr->model ? xstrdup(pr->model) : NULL;
	p->prompt_via = pr->prompt_via;
	p->sandbox = pr->sandbox;
	p->preset = pr;
	for (size_t i = 0; pr->secrets && pr->secrets[i].name; i++) {
		struct secret_rule *r;

		p->secrets = xrealloc(p->secrets, (p->nr_secrets + 1) *
							  sizeof(*p->secrets));
		r = &p->secrets[p->nr_secrets++];
		memset(r, 0, sizeof(*r));
		strvec_init(&r->command);
		strvec_init(&r->hosts);
		r->name = xstrdup(pr->secrets[i].name);
		r->from = SECRET_FROM_ENV;
		strvec_pushv(&r->hosts, pr->secrets[i].hosts);
		r->optional = true;
		r->base_url_env = pr->secrets[i].base_url_env;
	}
}

void secret_rule_release(struct secret_rule *r)
{
	free(r->name);
	free(r->file);
	strvec_clear(&r->command);
	strvec_clear(&r->hosts);
	free(r->where);
	memset(r, 0, sizeof(*r));
}

void agent_profile_clear_secrets(struct agent_profile *p)
{
	for (size_t i = 0; i < p->nr_secrets; i++)
		secret_rule_release(&p->secrets[i]);
	free(p->secrets);
	p->secrets = NULL;
	p->nr_secrets = 0;
}

void secret_rule_source(const struct secret_rule *r, struct strbuf *out)
{
	if (r->from == SECRET_FROM_FILE)
		strbuf_addf(out, "file:%s", r->file);
	else
		strbuf_addstr(out, r->from == SECRET_FROM_COMMAND ? "command"
								  : "env");
}

void agent_profile_release(struct agent_profile *p)
{
	free(p->name);
	strvec_clear(&p->command);
	strvec_clear(&p->model_args);
	free(p->model);
	strvec_clear(&p->env);
	strvec_clear(&p->ro_binds);
	strvec_clear(&p->allow_hosts);
	free(p->cache_dir);
	free(p->where);
	agent_profile_clear_secrets(p);
	memset(p, 0, sizeof(*p));
}

static bool is_executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* First PATH entry holding an executable `name`; relative entries are
 * skipped (a relative PATH entry would make the pin depend on the cwd). */
static char *which(const char *name, const char *path_env)
{
	const char *p = path_env;

	while (p && *p) {
		const char *colon = strchrnul(p, ':');
		size_t n = (size_t)(colon - p);

		if (n && p[0] == '/') {
			char *cand = xstrfmt("%.*s/%s", (int)n, p, name);
			if (is_executable_file(cand))
				return cand;
			free(cand);
		}
		p = *colon ? colon + 1 : colon;
	}
	return NULL;
}

static void set_cmd0(struct agent_profile *p, char *abs)
{
	free((char *)p->command.v[0]);
	p->command.v[0] = abs;
	p->pinned = true;
}

int agent_binary_pin(const char *cmd0, const char *base_dir,
		     const char *path_env, char **out, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (!cmd0 || !*cmd0) {
		strbuf_addstr(err, "the binary (first element) is empty");
		return -1;
	}
	if (!strchr(cmd0, '/')) {
		*out = which(cmd0, path_env ? path_env : getenv("PATH"));
		if (!*out) {
			strbuf_addf(err, "'%s' not found in PATH", cmd0);
			return -1;
		}
		return 0;
	}
	if (cmd0[0] == '/')
		strbuf_addstr(&sb, cmd0);
	else
		strbuf_addf(&sb, "%s/%s", base_dir ? base_dir : ".", cmd0);
	path_normalize(&sb);
	if (access(sb.buf, F_OK)) {
		if (cmd0[0] == '/')
			strbuf_addf(err, "'%s' does not exist", cmd0);
		else
			strbuf_addf(err, "'%s' does not exist (resolved to %s)",
				    cmd0, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

int agent_profile_pin(struct agent_profile *p, const char *base_dir,
		      const char *path_env, struct strbuf *err)
{
	char *abs;

	p->pinned = false;
	if (agent_binary_pin(p->command.nr ? p->command.v[0] : NULL, base_dir,
			     path_env, &abs, err) < 0)
		return -1;
	set_cmd0(p, abs);
	return 0;
}
