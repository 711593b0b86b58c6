/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading config.yaml from disk (config.h invariant 1), lookups,
 * resolution of the agent to run, and release.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include "agents/config.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"

void agent_config_default_path(struct strbuf *out)
{
	char *home = ag_home_dir();

	strbuf_addf(out, "%s/config.yaml", home ? home : ".agentic-git");
	free(home);
}

/* Opens `path` O_NOFOLLOW and checks the fd; one-line reason in errs. */
static int open_config(const char *path, bool must_exist, struct strbuf *buf,
		       struct strbuf *errs)
{
	cleanup_fd int fd = -1;
	struct stat st;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT && !must_exist)
			return 1;
		if (errno == ELOOP)
			strbuf_addf(errs, "%s: is a symbolic link; refusing to follow it (give the real file)\n",
				    path);
		else
			strbuf_addf(errs, "%s: cannot open: %s\n", path,
				    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addf(errs, "%s: not a regular file\n", path);
		return -1;
	}
	/* Root-owned is fine: only root can change it, and root is trusted. */
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		strbuf_addf(errs, "%s: refusing a config owned by uid %u, not by you (uid %u): it decides which programs run\n",
			    path, (unsigned)st.st_uid, (unsigned)geteuid());
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf_addf(errs, "%s: refusing a config that is writable by group or others (mode %04o): run 'chmod go-w %s'\n",
			    path, (unsigned)(st.st_mode & 07777), path);
		return -1;
	}
	if (read_fd_bounded(fd, CONFIG_MAX_BYTES, buf) < 0) {
		if (errno == EFBIG)
			strbuf_addf(errs, "%s: larger than %d bytes\n", path,
				    CONFIG_MAX_BYTES);
		else
			strbuf_addf(errs, "%s: cannot read: %s\n", path,
				    strerror(errno));
		return -1;
	}
	return 0;
}

int agent_config_load(const char *path, bool must_exist,
		      struct agent_config *out, struct strbuf *errs)
{
	struct strbuf buf = STRBUF_INIT, abs = STRBUF_INIT;
	struct config_parse_opts opts = { 0 };
	char *dir;
	int r, ret;

	r = open_config(path, must_exist, &buf, errs);
	if (r < 0) {
		strbuf_release(&buf);
		return -1;
	}
	if (r > 0) /* no config file: the presets alone */
		return config_parse_buffer(NULL, 0, path, out, errs);
	if (path[0] != '/') {
		char *cwd = getcwd(NULL, 0);
		strbuf_addf(&abs, "%s/", cwd ? cwd : ".");
		free(cwd);
	}
	strbuf_addstr(&abs, path);
	path_normalize(&abs);
	dir = path_dirname(abs.buf);
	opts.base_dir = dir;
	ret = config_parse_buffer_opts(buf.buf, buf.len, path, &opts, out,
				       errs);
	out->path = xstrdup(path);
	free(dir);
	strbuf_release(&abs);
	strbuf_release(&buf);
	return ret;
}

void agent_config_release(struct agent_config *cfg)
{
	for (size_t i = 0; i < cfg->nr_profiles; i++)
		agent_profile_release(&cfg->profiles[i]);
	free(cfg->profiles);
	for (size_t i = 0; i < cfg->nr_repos; i++) {
		free(cfg->repos[i].key);
		free(cfg->repos[i].agent);
	}
	free(cfg->repos);
	free(cfg->path);
	free(cfg->default_agent);
	strvec_clear(&cfg->dispatch.verify_command);
	free(cfg->dispatch.workspace_root);
	free(cfg->tls_ca_file);
	memset(cfg, 0, sizeof(*cfg));
}

const struct agent_profile *agent_config_find(const struct agent_config *cfg,
					      const char *name)
{
	for (size_t i = 0; name && i < cfg->nr_profiles; i++)
		if (!strcmp(cfg->profiles[i].name, name))
			return &cfg->profiles[i];
	return NULL;
}

static const char *repo_agent(const struct agent_config *cfg,
			      const char *repo_path, const char *repo_slug)
{
	for (size_t i = 0; i < cfg->nr_repos; i++) {
		const struct repo_rule *r = &cfg->repos[i];
		if (r->is_path && repo_path && !strcmp(r->key, repo_path))
			return r->agent;
		if (!r->is_path && repo_slug && !strcasecmp(r->key, repo_slug))
			return r->agent;
	}
	return NULL;
}

int agent_config_resolve(const struct agent_config *cfg,
			 const char *cli_profile, const char *repo_path,
			 const char *repo_slug,
			 const struct agent_profile **out, struct strbuf *err)
{
	const char *name = cli_profile && *cli_profile ? cli_profile : NULL;

	if (!name)
		name = repo_agent(cfg, repo_path, repo_slug);
	if (!name)
		name = cfg->default_agent;
	if (!name)
		name = "claude";
	*out = agent_config_find(cfg, name);
	if (*out)
		return 0;
	strbuf_addf(err, "unknown agent '%s': not defined under 'agents:' and not a built-in preset (",
		    name);
	preset_names(err);
	strbuf_addch(err, ')');
	return -1;
}

int repo_slug_from_url(const char *url, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *path, *scheme, *colon, *slash, *name, *owner;
	int ret = -1;

	strbuf_addstr(&sb, url);
	strbuf_rtrim(&sb);
	while (sb.len && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (ends_with(sb.buf, ".git"))
		strbuf_setlen(&sb, sb.len - 4);
	/* Only the path part names the repository, never the host. */
	scheme = strstr(sb.buf, "://");
	colon = strchr(sb.buf, ':');
	slash = strchr(sb.buf, '/');
	if (scheme)
		path = strchrnul(scheme + 3, '/');
	else if (colon && (!slash || colon < slash))
		path = colon + 1; /* scp-like host:path */
	else
		path = sb.buf;
	name = strrchr(path, '/');
	if (!name || !name[1])
		goto out;
	for (owner = name; owner > path && owner[-1] != '/'; owner--)
		;
	if (owner == name)
		goto out;
	strbuf_add(out, owner, (size_t)(name - owner));
	strbuf_addstr(out, name);
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

