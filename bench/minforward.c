/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api path's physical limit (PRODUCT.md §11): a minimal forwarder
 * of the proxy's topology. Started where agentic-git-proxy would be, with
 * its arguments, it listens on --socket, starts the command after `--`
 * (the cage), takes the relay's listener over the unix socket as the
 * proxy does (agents/netlistener.h), then accepts the agent's connections
 * on it and copies bytes to FWD_PORT on 127.0.0.1: no allow-list, no
 * resolver, no events. A CONNECT's head is answered "200" and dropped; any
 * other request goes on as it came (the bench's server takes an absolute
 * URL). It exits with the cage.
 *
 *   cc -O2 -Isrc -Iinclude bench/minforward.c build/src/libag-internal.a …
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "agents/netlistener.h"
#include "base/netpump.h"

#define MAXC 64

struct fconn {
	int cfd, ufd;
	bool head_done;
	char head[16384];
	size_t len;
	struct netpump pump;
};

static int upstream(void)
{
	const char *p = getenv("FWD_PORT");
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)strtoul(
					  p ? p : "0", NULL, 10)),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

/* The request's head: a CONNECT is answered, anything else goes on. */
static int on_head(struct fconn *c)
{
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
	ssize_t n = recv(c->cfd, c->head + c->len, sizeof(c->head) - c->len, 0);
	char *end;

	if (n <= 0)
		return n < 0 && errno == EAGAIN ? 0 : -1;
	c->len += (size_t)n;
	end = memmem(c->head, c->len, "\r\n\r\n", 4);
	if (!end)
		return c->len < sizeof(c->head) ? 0 : -1;
	if ((c->ufd = upstream()) < 0)
		return -1;
	netpump_init(&c->pump, c->cfd, c->ufd);
	if (!strncmp(c->head, "CONNECT ", 8)) {
		netpump_queue(&c->pump, NETPUMP_TO_A, ok, sizeof(ok) - 1);
		netpump_queue(&c->pump, NETPUMP_TO_B, end + 4,
			      c->len - (size_t)(end + 4 - c->head));
	} else {
		netpump_queue(&c->pump, NETPUMP_TO_B, c->head, c->len);
	}
	c->head_done = true;
	return netpump_io(&c->pump, 0, 0) > 0 ? 0 : -1;
}

static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4))
		return -1;
	return fd;
}

static void serve(int lfd, pid_t child)
{
	struct fconn *c[MAXC];
	struct pollfd pf[1 + 2 * MAXC];
	size_t nr = 0;
	int st;

	fcntl(lfd, F_SETFL, O_NONBLOCK);
	while (waitpid(child, &st, WNOHANG) == 0) {
		pf[0] = (struct pollfd){ .fd = nr < MAXC ? lfd : -1,
					 .events = POLLIN };
		for (size_t i = 0; i < nr; i++) {
			pf[1 + 2 * i] = (struct pollfd){ .fd = c[i]->cfd };
			pf[2 + 2 * i] = (struct pollfd){ .fd = c[i]->ufd };
			if (!c[i]->head_done)
				pf[1 + 2 * i].events = POLLIN;
			else
				netpump_events(&c[i]->pump,
					       &pf[1 + 2 * i].events,
					       &pf[2 + 2 * i].events);
			for (int k = 1; k <= 2; k++)
				if (!pf[k + 2 * i].events)
					pf[k + 2 * i].fd = -1;
		}
		if (poll(pf, 1 + 2 * nr, 100) < 0)
			continue;
		for (size_t i = 0; i < nr;) {
			short a = pf[1 + 2 * i].revents,
			      b = pf[2 + 2 * i].revents;
			int rc = !(a || b) ? 1
				 : !c[i]->head_done
					 ? (on_head(c[i]) < 0 ? -1 : 1)
					 : netpump_io(&c[i]->pump, a, b);
			if (rc > 0) {
				i++;
				continue;
			}
			close(c[i]->cfd);
			if (c[i]->ufd >= 0)
				close(c[i]->ufd);
			free(c[i]);
			c[i] = c[--nr];
			pf[1 + 2 * i] = pf[1 + 2 * nr];
			pf[2 + 2 * i] = pf[2 + 2 * nr];
		}
		if (pf[0].revents) {
			int fd = accept4(lfd, NULL, NULL,
					 SOCK_CLOEXEC | SOCK_NONBLOCK),
			    one = 1;
			if (fd >= 0) {
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
					   sizeof(one));
				c[nr] = calloc(1, sizeof(**c));
				c[nr]->cfd = fd;
				c[nr]->ufd = -1;
				/* the request is usually there: read it at once,
				 * as the proxy does */
				if (on_head(c[nr]) < 0) {
					close(fd);
					free(c[nr]);
				} else {
					nr++;
				}
			}
		}
	}
}

int main(int argc, char **argv)
{
	const char *sock = NULL;
	struct strbuf why = STRBUF_INIT;
	int i, ufd, conn, lfd = -1, st = 0;
	pid_t child;

	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			sock = argv[++i];
	if (!sock || i + 1 >= argc || (ufd = listen_unix(sock)) < 0) {
		fprintf(stderr, "minforward: --socket PATH ... -- CMD\n");
		return 2;
	}
	child = fork();
	if (!child) {
		execv(argv[i + 1], argv + i + 1);
		_exit(127);
	}
	conn = accept4(ufd, NULL, NULL, SOCK_CLOEXEC);
	close(ufd);
	if (conn >= 0 && !netlistener_take(conn, &lfd, &why))
		serve(lfd, child);
	waitpid(child, &st, 0);
	unlink(sock);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
