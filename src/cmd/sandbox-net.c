/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sandbox proxy | relay (internal): the two halves of the
 * fs+api policy (agents/sandbox.h invariant 8, agents/netproxy.h).
 *
 *   sandbox proxy --socket PATH [--allow HOST]... [--home H] [--agent A]
 *                 [--hint TEXT] [--stats FILE] -- <bwrap argv>
 * runs OUTSIDE the cage: it listens on PATH (the cage sees it bound
 * read-only), starts bwrap, serves the allow-list until bwrap exits, then
 * writes its counts to FILE and exits with bwrap's status.
 *
 *   sandbox relay --port N --socket PATH -- <argv>
 * runs INSIDE the cage: it listens on 127.0.0.1:N on the cage's own
 * loopback, hands that listener to the proxy over PATH (the proxy then
 * accepts the agent's connections itself, agents/netlistener.h) and execs
 * argv; no process of the cage stays to copy bytes. Either fails before
 * the command runs: never a cage whose network is half set up.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "agents/allowhosts.h"
#include "agents/netlistener.h"
#include "agents/netproxy.h"
#include "agents/sandbox.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "cmd/sandbox-int.h"

extern char **environ;

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
	ARGSPEC_END,
};
#undef ARGT_STRUCT

static const struct argtable proxy_table =
	SANDBOX_HELPER_TABLE("proxy", proxy_specs);

int cmd_sandbox_proxy(int argc, const char **argv)
{
	struct netproxy np = NETPROXY_INIT;
	struct proxy_opts o = { .allow = STRVEC_INIT };
	struct strbuf err = STRBUF_INIT;
	struct argres r;
	int idx = sandbox_cli_parse(&proxy_table, argc, argv, &o, &r), pidfd,
	    sigfd, status = 0;
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
	strvec_clear(&o.allow);
	strbuf_release(&err);
	return wait_status_to_code(status);
}

static int listen_loopback(unsigned port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 64) < 0)
		setup_failed("relay", "cannot listen on the cage's loopback");
	return fd;
}

/* Connects to the proxy's socket, blocking: the hand-over waits for its
 * answer. */
static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int errsv = errno;
		close(fd);
		errno = errsv;
		return -1;
	}
	return fd;
}

struct relay_opts {
	const char *port, *sock;
};

#define ARGT_STRUCT struct relay_opts
static const struct argspec relay_specs[] = {
	OPT_REQUIRED("port", port),
	OPT_REQUIRED("socket", sock),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

static const struct argtable relay_table =
	SANDBOX_HELPER_TABLE("relay", relay_specs);

int cmd_sandbox_relay(int argc, const char **argv)
{
	struct relay_opts o = { NULL };
	struct argres r;
	int idx = sandbox_cli_parse(&relay_table, argc, argv, &o, &r), lfd, ufd;
	const char *port_s = o.port, *sock = o.sock;
	unsigned long port;

	if (idx >= argc || argv[idx][0] != '/' || !sock || sock[0] != '/' ||
	    !port_s || parse_ulong(port_s, 65535, &port) < 0 || !port)
		die_code(
			AG_EXIT_USAGE,
			"sandbox relay: internal helper; needs --port N --socket /path '-- /absolute/command' (see docs/sandbox.md)");
	lfd = listen_loopback((unsigned)port);
	ufd = connect_unix(sock);
	if (ufd < 0)
		setup_failed("relay", "cannot reach the proxy");
	/* the proxy accepts on the listener itself (agents/netlistener.h) */
	if (netlistener_give(ufd, lfd) < 0)
		setup_failed("relay", "the proxy did not take the listener");
	close(ufd);
	close(lfd);
	execve(argv[idx], (char *const *)argv + idx, environ);
	die_code(AG_EXIT_EXEC, "sandbox relay: cannot run '%s': %s", argv[idx],
		 strerror(errno));
}
