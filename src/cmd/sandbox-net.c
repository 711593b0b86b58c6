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
 * loopback, leaves a relay that carries every connection to PATH, and
 * execs argv. The relay is an orphan of the cage's pid namespace, so it
 * dies with the cage. Either fails before the command runs: never a cage
 * whose network is half set up.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
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
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/netpump.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "cmd/sandbox-int.h"

extern char **environ;

#define RELAY_MAX_CONNS 64

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
	np.listen_fd = listen_unix(o.sock);
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

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* The relay's loop: every loopback connection carried to the socket. */
static AG_NORETURN void relay_loop(int lfd, const char *path)
{
	struct netpump *pumps[RELAY_MAX_CONNS] = { 0 };
	struct pollfd pf[1 + 2 * RELAY_MAX_CONNS];
	size_t nr = 0;

	fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		pf[0] = (struct pollfd){ .fd = nr < RELAY_MAX_CONNS ? lfd : -1,
					 .events = POLLIN };
		for (size_t i = 0; i < nr; i++) {
			pf[1 + 2 * i].fd = pumps[i]->fd[0];
			pf[2 + 2 * i].fd = pumps[i]->fd[1];
			netpump_events(pumps[i], &pf[1 + 2 * i].events,
				       &pf[2 + 2 * i].events);
		}
		if (poll(pf, 1 + 2 * nr, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		for (size_t i = 0; i < nr;) {
			short a = pf[1 + 2 * i].revents,
			      b = pf[2 + 2 * i].revents;
			if (!(a | b) || netpump_io(pumps[i], a, b) > 0) {
				i++;
				continue;
			}
			close(pumps[i]->fd[0]);
			close(pumps[i]->fd[1]);
			free(pumps[i]);
			memmove(&pumps[i], &pumps[i + 1],
				(nr - i - 1) * sizeof(*pumps));
			memmove(&pf[1 + 2 * i], &pf[3 + 2 * i],
				(nr - i - 1) * 2 * sizeof(*pf));
			nr--;
		}
		if (pf[0].revents & POLLIN) {
			int cfd = accept4(lfd, NULL, NULL,
					  SOCK_CLOEXEC | SOCK_NONBLOCK);
			int ufd = cfd < 0 ? -1 : connect_unix(path), one = 1;

			if (ufd < 0) {
				if (cfd >= 0)
					close(cfd);
				continue;
			}
			setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			pumps[nr] = xmalloc(sizeof(*pumps[nr]));
			netpump_init(pumps[nr++], cfd, ufd);
		}
	}
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
	int idx = sandbox_cli_parse(&relay_table, argc, argv, &o, &r), lfd,
	    status;
	const char *port_s = o.port, *sock = o.sock;
	unsigned long port;
	pid_t pid;

	if (idx >= argc || argv[idx][0] != '/' || !sock || sock[0] != '/' ||
	    !port_s || parse_ulong(port_s, 65535, &port) < 0 || !port)
		die_code(
			AG_EXIT_USAGE,
			"sandbox relay: internal helper; needs --port N --socket /path '-- /absolute/command' (see docs/sandbox.md)");
	lfd = listen_loopback((unsigned)port);
	pid = fork();
	if (pid < 0)
		setup_failed("relay", "cannot start the relay");
	if (!pid) {
		/* an orphan of the cage's init, not a child of the agent */
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		pid_t relay = fork();

		if (relay)
			_exit(relay < 0);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		relay_loop(lfd, sock);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		setup_failed("relay", "cannot start the relay");
	close(lfd);
	execve(argv[idx], (char *const *)argv + idx, environ);
	die_code(AG_EXIT_EXEC, "sandbox relay: cannot run '%s': %s", argv[idx],
		 strerror(errno));
}
