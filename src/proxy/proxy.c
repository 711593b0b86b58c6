/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git-proxy (`agentic-git sandbox proxy`, internal): the fs+api
 * proxy, run OUTSIDE the cage (agents/sandbox.h invariant 8,
 * agents/netproxy.h). A program of its own because it links the TLS
 * library that the main binary, which may be linked as git, never loads.
 *
 *   sandbox proxy --socket PATH [--allow HOST]... [--home H] [--agent A]
 *                 [--hint TEXT] [--stats FILE]
 *                 [--secrets-fd N --ca-bundle PATH [--tls-ca-file F]]
 *                 -- <bwrap argv>
 * listens on PATH (the cage sees it bound read-only), starts bwrap,
 * serves the allow-list until bwrap exits, then writes its counts to FILE
 * and exits with bwrap's status. With --secrets-fd it reads the session's
 * secrets from descriptor N (and closes it), makes the session CA and
 * writes the bundle the cage trusts to --ca-bundle before bwrap starts.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "agents/allowhosts.h"
#include "agents/netproxy.h"
#include "agents/sandbox.h"
#include "agents/secrets.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "cmd/argtable.h"
#include "proxy/nettls.h"

#define SANDBOX_EXIT_SETUP 126

int proxy_main(int argc, const char **argv);

static AG_NORETURN void setup_failed(const char *cmd, const char *what)
{
	die_code(SANDBOX_EXIT_SETUP,
		 "sandbox %s: %s: %s; the command was not run", cmd, what,
		 strerror(errno));
}

/*
 * Binds a unix socket at `path` whatever its length (sun_path holds 108
 * bytes): through /proc/self/fd/<dir>/<name>. A stale socket is replaced;
 * anything else there is refused.
 */
static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *dir = path_dirname(path);
	const char *name = path_basename(path);
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), fd;
	struct stat st;

	free(dir);
	if (dfd < 0)
		setup_failed("proxy", "cannot open the socket's directory");
	if (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (!S_ISSOCK(st.st_mode))
			die_code(
				SANDBOX_EXIT_SETUP,
				"sandbox proxy: '%s' exists and is not a socket; the command was not run",
				path);
		if (unlinkat(dfd, name, 0) < 0)
			setup_failed("proxy", "cannot remove the stale socket");
	}
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path),
			     "/proc/self/fd/%d/%s", dfd,
			     name) >= sizeof(sa.sun_path))
		die_code(SANDBOX_EXIT_SETUP,
			 "sandbox proxy: socket name '%s' is too long", name);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 64) < 0)
		setup_failed("proxy", "cannot listen on the proxy socket");
	close(dfd);
	return fd;
}

static int signal_fd(sigset_t *set)
{
	int fd;

	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	fd = signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
	sigprocmask(SIG_BLOCK, set, NULL);
	return fd;
}

static void write_stats(const char *file, const struct netproxy *np)
{
	struct strbuf sb = STRBUF_INIT;

	netproxy_stats_json(&np->stats, &sb);
	if (write_file_atomic(file, sb.buf, sb.len, 0600) < 0)
		warning("sandbox proxy: cannot write '%s': %s", file,
			strerror(errno));
	strbuf_release(&sb);
}

struct proxy_opts {
	const char *sock, *home, *agent, *hint, *stats;
	const char *secrets_fd, *ca_bundle, *tls_ca_file;
	struct strvec allow;
};

#define ARGT_STRUCT struct proxy_opts
static const struct argspec proxy_specs[] = {
	OPT_REQUIRED("socket", sock),
	OPT_LIST(allow),
	OPT_VALUE(home),
	OPT_VALUE(agent),
	OPT_VALUE(hint),
	OPT_VALUE(stats),
	OPT_AS("secrets-fd", ARG_VALUE, secrets_fd),
	OPT_AS("ca-bundle", ARG_VALUE, ca_bundle),
	OPT_AS("tls-ca-file", ARG_VALUE, tls_ca_file),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

static const struct argtable proxy_table = {
	.cmd = "sandbox proxy",
	.hint = ARGT_HINT_COMMAND,
	.help = "docs/sandbox.md",
	.specs = proxy_specs,
};

/*
 * The launcher's secrets (agents/secrets.h), read from the descriptor it
 * passed and closed at once: nothing started later inherits it. The
 * buffer is wiped; the table holds the values until the end.
 */
static void read_secrets(const char *fd_s, struct secret_table *t)
{
	struct strbuf blob = STRBUF_INIT, why = STRBUF_INIT;
	unsigned long fd;

	if (parse_ulong(fd_s, 3, &fd) < 0 || fd != 3)
		die_code(
			AG_EXIT_USAGE,
			"sandbox proxy: --secrets-fd must be 3 (the launcher's descriptor)");
	if (lseek((int)fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		setup_failed("proxy", "cannot read the secrets");
	if (read_fd_bounded((int)fd, SECRET_BLOB_MAX, &blob) < 0)
		setup_failed("proxy", "cannot read the secrets");
	close((int)fd);
	if (secret_table_decode(blob.buf, blob.len, t, &why) < 0)
		die_code(
			SANDBOX_EXIT_SETUP,
			"sandbox proxy: bad secrets: %s; the command was not run",
			why.buf);
	strbuf_wipe(&blob);
	strbuf_release(&why);
}

/*
 * Invariant 6 of netproxy.h: the session CA, made here in memory, and
 * the bundle the cage trusts (bound read-only at SANDBOX_CA_BUNDLE).
 */
static struct nettls *start_tls(const struct proxy_opts *o)
{
	struct strbuf err = STRBUF_INIT;
	struct nettls *t;

	if (!o->ca_bundle || o->ca_bundle[0] != '/')
		die_code(
			AG_EXIT_USAGE,
			"sandbox proxy: --secrets-fd needs --ca-bundle /absolute/path");
	t = nettls_new(o->tls_ca_file, &err);
	if (!t || nettls_write_bundle(t, o->ca_bundle, &err) < 0)
		die_code(SANDBOX_EXIT_SETUP,
			 "sandbox proxy: %s; the command was not run", err.buf);
	strbuf_release(&err);
	return t;
}

static int parse(int argc, const char **argv, struct proxy_opts *o,
		 struct argres *r)
{
	if (argtable_parse_table(&proxy_table, argc, argv, o, r) < 0)
		exit(AG_EXIT_USAGE);
	return r->rest;
}

int proxy_main(int argc, const char **argv)
{
	struct netproxy np = NETPROXY_INIT;
	struct secret_table secrets = SECRET_TABLE_INIT;
	struct proxy_opts o = { .allow = STRVEC_INIT };
	struct strbuf err = STRBUF_INIT;
	struct argres r;
	int idx = parse(argc, argv, &o, &r), pidfd, sigfd, status = 0;
	struct child c = CHILD_INIT;
	sigset_t set;

	if (idx >= argc || argv[idx][0] != '/' || !o.sock ||
	    !sandbox_path_ok(o.sock))
		die_code(
			AG_EXIT_USAGE,
			"sandbox proxy: internal helper; needs --socket /absolute/path and '-- /absolute/command' (see docs/sandbox.md)");
	for (size_t i = 0; i < o.allow.nr; i++)
		if (allowhost_check(o.allow.v[i], &err) < 0)
			die_code(AG_EXIT_USAGE,
				 "sandbox proxy: --allow '%s': %s",
				 o.allow.v[i], err.buf);
	if (o.secrets_fd) {
		read_secrets(o.secrets_fd, &secrets);
		np.secrets = &secrets;
		np.tls = start_tls(&o);
	}
	np.handoff_fd = listen_unix(o.sock);
	np.allow = o.allow.v;
	np.allow_nr = o.allow.nr;
	np.home = o.home;
	np.agent = o.agent;
	np.hint = o.hint;
	strvec_pushv(&c.args, argv + idx);
	c.inherit_stdin = true;
	if (child_start(&c) < 0)
		die_code(AG_EXIT_EXEC, "sandbox proxy: cannot run '%s': %s",
			 argv[idx], strerror(errno));
	/* after the start: the child must not inherit a blocked mask */
	sigfd = signal_fd(&set);
	pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
	if (pidfd < 0 || sigfd < 0) {
		kill(c.pid, SIGKILL); /* fail closed: no proxy, no cage */
		setup_failed("proxy", "cannot watch the sandbox");
	}
	netproxy_run(&np, pidfd, sigfd, c.pid);
	while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (o.stats)
		write_stats(o.stats, &np);
	unlink(o.sock);
	close(pidfd);
	close(sigfd);
	if (np.handoff_fd >= 0)
		close(np.handoff_fd);
	if (np.listen_fd >= 0)
		close(np.listen_fd);
	child_release(&c);
	netproxy_release(&np);
	nettls_free(np.tls);
	secret_table_wipe(&secrets);
	strvec_clear(&o.allow);
	strbuf_release(&err);
	return wait_status_to_code(status);
}
