/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a launch's secrets outside the cage; see agent-secrets.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>
#include "agents/plan.h"
#include "base/fileio.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "fleet/agent-secrets.h"

extern char **environ;

static const char *env_get(const char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* "http(s)://host[:port]/…" as an allow_hosts entry, or nothing. */
static void url_host(const char *url, struct strvec *out)
{
	const char *rest;
	size_t n;
	char *h;
	bool https;

	if (!url)
		return;
	if (skip_prefix(url, "https://", &rest))
		https = true;
	else if (skip_prefix(url, "http://", &rest))
		https = false;
	else
		return;
	n = strcspn(rest, "/?#");
	if (!n || memchr(rest, '@', n))
		return;
	/* a port is there when the authority ends in ":digits" past any ] */
	{
		const char *colon = memrchr(rest, ':', n);
		const char *bracket = memrchr(rest, ']', n);
		bool has_port = colon && (!bracket || colon > bracket);
		h = has_port || https ? xstrndup(rest, n)
				      : xstrfmt("%.*s:80", (int)n, rest);
	}
	if (!allowhost_check(h, NULL))
		strvec_push(out, h);
	free(h);
}

void agent_secret_hosts(const struct secret_rule *r, const char *const *env,
			struct strvec *out)
{
	const char *const *e = env ? env : (const char *const *)environ;

	strvec_pushv(out, r->hosts.v);
	if (r->base_url_env)
		url_host(env_get(e, r->base_url_env), out);
}

/* Trailing and leading whitespace off, in place. */
static void trim(struct strbuf *sb)
{
	strbuf_trim(sb);
}

static int from_file(const struct secret_rule *r, struct strbuf *val,
		     struct strbuf *why)
{
	if (read_file_bounded(r->file, SECRET_VALUE_MAX, RF_REGULAR, val) < 0) {
		strbuf_addf(why, "cannot read 'file:%s': %s", r->file,
			    errno == EFBIG ? "larger than 16384 bytes"
					   : strerror(errno));
		return -1;
	}
	trim(val);
	return 0;
}

/* Invariant 1: {repo} {head} {base} {key}, each staying one element. */
static void expand(const char *tok, const struct secret_context *c,
		   struct strbuf *out)
{
	static const char *const names[] = { "{repo}", "{head}", "{base}",
					     "{key}" };
	const char *vals[] = { c->repo, c->head, c->base, c->key };

	while (*tok) {
		size_t i;
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (starts_with(tok, names[i]))
				break;
		if (i < ARRAY_SIZE(names)) {
			strbuf_addstr(out, vals[i] ? vals[i] : "");
			tok += strlen(names[i]);
		} else {
			strbuf_addch(out, *tok++);
		}
	}
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The child's output, bounded, until EOF or the deadline (-1: late). */
static int read_until(int fd, long long deadline, struct strbuf *out)
{
	char buf[4096];

	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -1;
		if (poll(&pf, 1, (int)left) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return 0;
		if (out->len + (size_t)n <= SECRET_VALUE_MAX + 1)
			strbuf_add(out, buf, (size_t)n);
	}
}

static void command_env(const struct secret_context *c,
			const char *const *parent, struct strvec *env)
{
	struct strvec none = STRVEC_INIT;

	agent_env_scope(parent, &none, env);
	for (size_t i = 0; c->target_env && c->target_env[i]; i++)
		strvec_push(env, c->target_env[i]);
}

static int from_command(const struct secret_rule *r,
			const struct secret_context *ctx,
			const char *const *parent, struct strbuf *val,
			struct strbuf *why)
{
	struct child c = CHILD_INIT;
	int status = 0, rc = -1;
	bool late;

	for (size_t i = 0; i < r->command.nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		expand(r->command.v[i], ctx, &sb);
		strvec_push(&c.args, sb.buf);
		strbuf_release(&sb);
	}
	command_env(ctx, parent, &c.env);
	c.capture_out = true;
	if (child_start(&c) < 0) {
		strbuf_addf(why, "cannot run its command '%s': %s",
			    r->command.v[0], strerror(errno));
		goto out;
	}
	late = read_until(c.out_fd_r, now_ms() + SECRET_COMMAND_WAIT * 1000LL,
			  val) < 0;
	if (late)
		kill(c.pid, SIGKILL);
	while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
		;
	close(c.out_fd_r);
	c.out_fd_r = -1;
	trim(val);
	if (late)
		strbuf_addf(why, "its command '%s' did not finish within %d s",
			    r->command.v[0], SECRET_COMMAND_WAIT);
	else if (wait_status_to_code(status))
		strbuf_addf(why, "its command '%s' exited %d", r->command.v[0],
			    wait_status_to_code(status));
	else if (!val->len)
		strbuf_addf(why, "its command '%s' printed nothing",
			    r->command.v[0]);
	else if (val->len > SECRET_VALUE_MAX)
		strbuf_addf(why,
			    "its command '%s' printed more than 16384 bytes",
			    r->command.v[0]);
	else
		rc = 0;
out:
	c.pid = -1;
	child_release(&c);
	return rc;
}

/* One rule: 1 with a value, 0 skipped (invariant 3), -1 with why. */
static int resolve_one(const struct secret_rule *r,
		       const struct secret_context *ctx,
		       const char *const *parent, struct strbuf *val,
		       struct strbuf *why)
{
	const char *v;

	switch (r->from) {
	case SECRET_FROM_FILE:
		if (from_file(r, val, why) < 0)
			return -1;
		break;
	case SECRET_FROM_COMMAND:
		if (from_command(r, ctx, parent, val, why) < 0)
			return -1;
		break;
	case SECRET_FROM_ENV:
		v = env_get(parent, r->name);
		if (!v || !*v) {
			if (r->optional)
				return 0;
			strbuf_addf(
				why,
				"'%s' is not set in agentic-git's environment (from: env)",
				r->name);
			return -1;
		}
		strbuf_addstr(val, v);
		break;
	}
	if (!val->len) {
		strbuf_addstr(why, "its value is empty");
		return -1;
	}
	if (!secret_value_ok(val->buf, val->len)) {
		strbuf_addstr(
			why,
			"its value holds a control character (a line break?) or is longer than 16384 bytes");
		return -1;
	}
	return 1;
}

int agent_secrets_resolve(const struct agent_profile *p,
			  const struct secret_context *ctx,
			  struct secret_table *out, struct strbuf *err)
{
	const char *const *parent = ctx->parent_env
					    ? ctx->parent_env
					    : (const char *const *)environ;

	for (size_t i = 0; i < p->nr_secrets; i++) {
		const struct secret_rule *r = &p->secrets[i];
		struct strbuf val = STRBUF_INIT, why = STRBUF_INIT,
			      ph = STRBUF_INIT;
		struct strvec hosts = STRVEC_INIT;
		unsigned char rnd[16];
		int rc = resolve_one(r, ctx, parent, &val, &why);

		if (rc > 0) {
			randombytes_buf(rnd, sizeof(rnd)); /* invariant 4 */
			secret_placeholder(r->name, rnd, &ph);
			agent_secret_hosts(r, parent, &hosts);
			if (secret_table_add(out, r->name, ph.buf, val.buf,
					     hosts.v, hosts.nr) < 0) {
				strbuf_addstr(&why, "too many secrets");
				rc = -1;
			} else {
				out->v[out->nr - 1].preset = r->optional;
			}
		}
		if (rc < 0)
			strbuf_addf(err, "profile '%s': secret '%s': %s",
				    p->name, r->name, why.buf);
		strbuf_wipe(&val);
		strbuf_release(&why);
		strbuf_release(&ph);
		strvec_clear(&hosts);
		if (rc < 0) {
			secret_table_wipe(out);
			return -1;
		}
	}
	return 0;
}

int agent_secrets_fd(const struct secret_table *t)
{
	struct strbuf blob = STRBUF_INIT;
	int fd = memfd_create("agentic-git-secrets",
			      MFD_CLOEXEC | MFD_ALLOW_SEALING),
	    hi = -1, errsv;

	secret_table_encode(t, &blob);
	if (fd >= 0 && write_all(fd, blob.buf, blob.len) == 0 &&
	    fcntl(fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) ==
		    0 &&
	    lseek(fd, 0, SEEK_SET) == 0)
		hi = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	errsv = errno;
	if (fd >= 0)
		close(fd);
	strbuf_wipe(&blob);
	errno = errsv;
	return hi;
}
