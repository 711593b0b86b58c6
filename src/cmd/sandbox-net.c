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
 * `sandbox proxy` is the proxy program (agentic-git-proxy, beside this
 * one): it links the TLS library, which this binary, the shim's hot path
 * when it is linked as git, never loads (PRODUCT.md §11, §12).
 */
int cmd_sandbox_proxy(int argc, const char **argv)
{
	const char *exe = proxy_exe();
	struct strvec args = STRVEC_INIT;

	if (!exe)
		die_code(
			AG_EXIT_EXEC,
			"sandbox proxy: the proxy program 'agentic-git-proxy' is not installed beside agentic-git");
	strvec_push(&args, exe);
	strvec_pushn(&args, argv + 1, (size_t)(argc > 0 ? argc - 1 : 0));
	execve(exe, (char *const *)args.v, environ);
	die_code(AG_EXIT_EXEC, "sandbox proxy: cannot run '%s': %s", exe,
		 strerror(errno));
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
