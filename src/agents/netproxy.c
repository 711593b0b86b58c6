/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api proxy's poll loop; see netproxy.h for the invariants. One
 * thread moves the bytes: connections are non-blocking, and a name is
 * resolved on a thread of its own (resolver.h), waited for at most
 * NETPROXY_RESOLVE_WAIT seconds, so a slow lookup stalls nothing else.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agents/allowhosts.h"
#include "agents/netlistener.h"
#include "agents/netproxy.h"
#include "agents/proxyreq.h"
#include "agents/resolver.h"
#include "agents/secrets.h"
#include "base/die.h"
#include "base/eventlog.h"
#include "base/netpump.h"
#include "base/xalloc.h"
#include "proxy/netmitm.h"

static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";

enum conn_state {
	C_HEAD,
	C_RESOLVING,
	C_CONNECTING,
	C_PUMP,
	C_MITM, /* a secret's host: terminated (proxy/netmitm.h) */
	C_REPLY,
	C_DONE
};

struct conn {
	enum conn_state st;
	bool allowed; /* connected upstream: a net_allow when it ends */
	int cfd, ufd;
	int rfd;	       /* C_RESOLVING: the resolver's answer */
	long long deadline_ms; /* C_RESOLVING: CLOCK_MONOTONIC */
	struct proxyreq rq;
	struct strbuf reply; /* C_REPLY: the error response */
	size_t reply_off;
	size_t head_len;
	int addr_next, addr_nr; /* the next of addrs[] to try, how many */
	struct netmitm *mitm;	/* C_MITM */
	struct strvec used;	/* the secrets put into its requests */
	/* the big buffers last: a new connection clears only what is above */
	char head[PROXYREQ_HEAD_MAX];
	struct netpump pump;
	struct resolver_answer addrs; /* where upstream is: tried in order */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void host_port(const struct conn *c, struct strbuf *out)
{
	allowhost_format(&c->rq.target, out);
}

static void note_denied(struct netproxy *np, const char *hp)
{
	np->stats.denied++;
	for (size_t i = 0; i < np->stats.denied_hosts.nr; i++)
		if (!strcmp(np->stats.denied_hosts.v[i], hp))
			return;
	if (np->stats.denied_hosts.nr < 32)
		strvec_push(&np->stats.denied_hosts, hp);
}

/* Invariant 2: whether the next event may be written now. */
static bool event_budget(struct netproxy *np)
{
	long long minute;

	if (np->ev_written < NETPROXY_EVENT_BURST)
		return true;
	minute = now_ms() / 60000;
	if (minute != np->ev_minute) {
		np->ev_minute = minute;
		np->ev_minute_nr = 0;
	}
	return np->ev_minute_nr < NETPROXY_EVENT_RATE;
}

static void proxy_event_write(struct netproxy *np, struct event *ev)
{
	/* one open of the log per run, not one per connection */
	if (np->events_fd < 0)
		np->events_fd = event_log_open(np->home);
	if (np->events_fd >= 0) {
		struct strbuf line = STRBUF_INIT;
		event_render(ev, &line);
		event_log_append(&np->events_fd, np->home, line.buf, line.len);
		strbuf_release(&line);
	}
	np->ev_written++;
	np->ev_minute_nr++;
}

/* One net_allow / net_deny event; `rq` NULL for a refusal before any
 * request (the relay's hand-over). */
static void event_net(struct netproxy *np, const struct proxyreq *rq,
		      const unsigned long long *moved, const char *name,
		      const char *reason, const struct strvec *used)
{
	struct event ev = EVENT_INIT(name, np->agent, "sandbox");
	bool known = rq && rq->target.host[0] != '\0';

	if (!np->home || !*np->home)
		return;
	if (!event_budget(np)) {
		np->ev_suppressed++;
		event_release(&ev);
		return;
	}
	event_add_str(&ev, "policy", "fs+api");
	if (known) {
		event_add_str(&ev, "host", rq->target.host);
		event_add_int(&ev, "port", rq->target.port);
	} else {
		event_add_null(&ev, "host");
		event_add_null(&ev, "port");
	}
	event_add_str(&ev, "method", rq && rq->method[0] ? rq->method : NULL);
	if (reason)
		event_add_str(&ev, "reason", reason);
	/* the secrets put in, by name (never a value) */
	if (used && used->nr)
		event_add_strv(&ev, "secrets", used->v, used->nr);
	event_add_int(&ev, "bytes_out", (long long)moved[NETPUMP_TO_B]);
	event_add_int(&ev, "bytes_in", (long long)moved[NETPUMP_TO_A]);
	event_add_int(&ev, "bytes", (long long)(moved[0] + moved[1]));
	if (np->ev_suppressed) {
		event_add_int(&ev, "suppressed", (long long)np->ev_suppressed);
		np->ev_suppressed = 0;
	}
	proxy_event_write(np, &ev);
	event_release(&ev);
}

/* Invariant 2: what the end left unwritten, counted. */
static void event_suppressed_last(struct netproxy *np)
{
	struct event ev = EVENT_INIT("net_suppressed", np->agent, "sandbox");

	if (!np->home || !*np->home || !np->ev_suppressed)
		return;
	event_add_str(&ev, "policy", "fs+api");
	event_add_int(&ev, "suppressed", (long long)np->ev_suppressed);
	np->ev_suppressed = 0;
	proxy_event_write(np, &ev);
	event_release(&ev);
}

static const char *status_text(int status)
{
	switch (status) {
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 431:
		return "Request Header Fields Too Large";
	case 502:
		return "Bad Gateway";
	default:
		return "Error";
	}
}

/* Invariant 1/2: answer with an error, record the refusal. */
static void refuse(struct netproxy *np, struct conn *c, int status,
		   const char *why)
{
	struct strbuf body = STRBUF_INIT, hp = STRBUF_INIT;

	if (c->rq.target.host[0])
		host_port(c, &hp);
	strbuf_addf(&body, "agentic-git: %s\n", why);
	strbuf_addf(&c->reply,
		    "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\n"
		    "Connection: close\r\nContent-Length: %zu\r\n"
		    "X-Agentic-Git-Refused: %s\r\n\r\n%s",
		    status, status_text(status), body.len,
		    hp.len ? hp.buf : "request", body.buf);
	event_net(np, &c->rq, c->pump.moved, "net_deny", why, NULL);
	note_denied(np, hp.len ? hp.buf : "(malformed request)");
	c->st = C_REPLY;
	strbuf_release(&body);
	strbuf_release(&hp);
}

static void deny_host(struct netproxy *np, struct conn *c)
{
	struct strbuf why = STRBUF_INIT, hp = STRBUF_INIT;

	host_port(c, &hp);
	strbuf_addf(
		&why,
		"host '%s' is not in this agent's allow_hosts (sandbox fs+api); to allow it add '%s' to %s",
		hp.buf, hp.buf,
		np->hint && *np->hint ? np->hint : "the profile's allow_hosts");
	refuse(np, c, 403, why.buf);
	strbuf_release(&why);
	strbuf_release(&hp);
}

static void refuse_upstream(struct netproxy *np, struct conn *c,
			    const char *what, const char *detail)
{
	struct strbuf why = STRBUF_INIT, hp = STRBUF_INIT;

	host_port(c, &hp);
	strbuf_addf(&why, "cannot %s allowed host '%s'", what, hp.buf);
	if (detail)
		strbuf_addf(&why, ": %s", detail);
	refuse(np, c, 502, why.buf);
	strbuf_release(&why);
	strbuf_release(&hp);
}

/*
 * A non-blocking connect to the next of c->addrs that takes one: 1
 * connected already, 0 under way, -1 none left (errno of the last).
 */
static int connect_next(struct conn *c)
{
	int one = 1;

	while (c->addr_next < c->addr_nr) {
		int i = c->addr_next++;
		int fd = socket(c->addrs.addr[i].ss_family,
				SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		/* small requests and answers go out at once (no Nagle) */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->ufd = fd;
		if (!connect(fd, (const struct sockaddr *)&c->addrs.addr[i],
			     c->addrs.len[i]))
			return 1;
		if (errno == EINPROGRESS)
			return 0;
		close(fd);
		c->ufd = -1;
	}
	return -1;
}

static void on_connected(struct netproxy *np, struct conn *c);

static void try_connect(struct netproxy *np, struct conn *c)
{
	int rc = connect_next(c);
	struct pollfd pf = { .fd = c->ufd, .events = POLLOUT };

	if (rc < 0)
		return refuse_upstream(np, c, "connect to", strerror(errno));
	c->st = C_CONNECTING;
	/* on the loopback the handshake is often over already: a look that
	 * does not wait saves a round of the loop */
	if (rc > 0 || (poll(&pf, 1, 0) == 1 && pf.revents))
		on_connected(np, c);
}

/* Every address a name has, in the resolver's order, until one answers:
 * a host whose IPv6 address is unreachable is still reached by IPv4. */
static void start_connect(struct netproxy *np, struct conn *c,
			  const struct sockaddr_storage *addr,
			  const socklen_t *len, int nr)
{
	if (nr > RESOLVER_MAX_ADDRS)
		nr = RESOLVER_MAX_ADDRS;
	for (int i = 0; i < nr; i++) {
		c->addrs.addr[i] = addr[i];
		c->addrs.len[i] = len[i];
	}
	c->addr_nr = nr;
	c->addr_next = 0;
	try_connect(np, c);
}

/* An address literal needs no resolver; a name goes to one (resolver.h)
 * so that a slow lookup stalls no other connection. */
static void start_upstream(struct netproxy *np, struct conn *c)
{
	const struct allowhost_target *t = &c->rq.target;
	struct sockaddr_storage ss = { 0 };
	socklen_t len = 0;

	if (t->kind == AH_IPV4) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)t->port);
		memcpy(&in->sin_addr, t->addr, 4);
		len = sizeof(*in);
	} else if (t->kind == AH_IPV6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)t->port);
		memcpy(&in6->sin6_addr, t->addr, 16);
		len = sizeof(*in6);
	}
	if (len)
		return start_connect(np, c, &ss, &len, 1);
	c->rfd = resolver_start(t->host, t->port);
	if (c->rfd < 0)
		return refuse_upstream(np, c, "resolve",
				       errno == EAGAIN
					       ? "too many name lookups pending"
					       : strerror(errno));
	c->deadline_ms = now_ms() + NETPROXY_RESOLVE_WAIT * 1000LL;
	c->st = C_RESOLVING;
}

static void on_resolved(struct netproxy *np, struct conn *c, bool expired)
{
	struct resolver_answer a = { .err = EAI_SYSTEM };
	struct strbuf detail = STRBUF_INIT;
	int rc = -1;

	if (!expired)
		rc = resolver_read(c->rfd, &a);
	close(c->rfd); /* an expired lookup's answer goes nowhere */
	c->rfd = -1;
	if (!rc)
		return start_connect(np, c, a.addr, a.len, a.nr);
	if (expired)
		strbuf_addf(&detail, "no answer within %d s",
			    NETPROXY_RESOLVE_WAIT);
	else
		strbuf_addstr(&detail, a.err == EAI_SYSTEM
					       ? "the resolver failed"
					       : gai_strerror(a.err));
	refuse_upstream(np, c, "resolve", detail.buf);
	strbuf_release(&detail);
}

static void on_head(struct netproxy *np, struct conn *c)
{
	ssize_t n = recv(c->cfd, c->head + c->head_len,
			 sizeof(c->head) - c->head_len, 0);
	enum proxyreq_result r;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		c->st = C_DONE; /* nothing to say: close */
		return;
	}
	c->head_len += (size_t)n;
	r = proxyreq_parse(c->head, c->head_len, &c->rq);
	if (r == PROXYREQ_MORE)
		return;
	if (r == PROXYREQ_BAD)
		return refuse(np, c, c->rq.status, c->rq.why.buf);
	if (!allowhosts_match(np->allow, np->allow_nr, &c->rq.target))
		return deny_host(np, c);
	start_upstream(np, c);
}

/* Plain HTTP: the head as proxyreq.c made it, a secret's placeholders
 * replaced when the host is one of its (agents/secrets.h). */
static void queue_head(struct netproxy *np, struct conn *c)
{
	struct strbuf head = STRBUF_INIT;

	if (!np->secrets || !secret_table_for(np->secrets, &c->rq.target)) {
		netpump_queue(&c->pump, NETPUMP_TO_B, c->rq.fwd.buf,
			      c->rq.fwd.len);
		return;
	}
	secret_rewrite_head(np->secrets, &c->rq.target, c->rq.fwd.buf,
			    c->rq.fwd.len, &head, &c->used);
	if (netpump_queue(&c->pump, NETPUMP_TO_B, head.buf, head.len) < 0)
		c->st = C_DONE; /* cannot happen: a head fits */
	strbuf_wipe(&head);
}

/* One step of a terminated connection (proxy/netmitm.h). */
static void step_mitm(struct netproxy *np, struct conn *c, short rev_c,
		      short rev_u)
{
	int rc = netmitm_io(c->mitm, rev_c, rev_u);

	if (rc == -2) {
		char *why = xstrdup(netmitm_why(c->mitm));
		netmitm_free(c->mitm);
		c->mitm = NULL;
		refuse_upstream(np, c, "speak TLS with", why);
		free(why);
		return;
	}
	if (!c->allowed && rc >= 0 && netmitm_verified(c->mitm)) {
		c->allowed = true; /* the vendor's certificate verified */
		np->stats.allowed++;
	}
	if (rc <= 0)
		c->st = C_DONE;
}

static void start_mitm(struct netproxy *np, struct conn *c)
{
	if (!np->tls)
		return refuse_upstream(np, c, "terminate TLS for",
				       "the proxy has no TLS");
	c->mitm = netmitm_new(np->tls, np->secrets, &c->rq.target, c->cfd,
			      c->ufd);
	c->st = C_MITM;
	step_mitm(np, c, 0, 0);
}

static void on_connected(struct netproxy *np, struct conn *c)
{
	int err = 0;
	socklen_t len = sizeof(err);
	const char *rest = c->head + c->rq.head_len;
	size_t rest_len = c->head_len - c->rq.head_len;

	if (getsockopt(c->ufd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
		close(c->ufd);
		c->ufd = -1;
		if (c->addr_next < c->addr_nr)
			return try_connect(np, c); /* the next address */
		errno = err ? err : errno;
		return refuse_upstream(np, c, "connect to", strerror(errno));
	}
	if (np->secrets && secret_table_for(np->secrets, &c->rq.target) &&
	    c->rq.connect)
		return start_mitm(np, c);
	netpump_init(&c->pump, c->cfd, c->ufd);
	if (c->rq.connect)
		netpump_queue(&c->pump, NETPUMP_TO_A, ok, sizeof(ok) - 1);
	else
		queue_head(np, c);
	netpump_queue(&c->pump, NETPUMP_TO_B, rest, rest_len);
	c->allowed = true;
	np->stats.allowed++;
	/* the sockets can take the first bytes now: no poll round first */
	c->st = netpump_io(&c->pump, 0, 0) > 0 ? C_PUMP : C_DONE;
}

static void conn_free(struct netproxy *np, struct conn *c)
{
	if (c->mitm) {
		const unsigned long long *m = netmitm_moved(c->mitm);
		c->pump.moved[NETPUMP_TO_B] = m[0];
		c->pump.moved[NETPUMP_TO_A] = m[1] + sizeof(ok) - 1;
		strvec_pushv(&c->used, netmitm_used(c->mitm)->v);
		netmitm_free(c->mitm);
	}
	if (c->allowed) {
		/* the agent never sent our "200 Connection established" */
		if (c->rq.connect &&
		    c->pump.moved[NETPUMP_TO_A] >= sizeof(ok) - 1)
			c->pump.moved[NETPUMP_TO_A] -= sizeof(ok) - 1;
		np->stats.bytes += c->pump.moved[0] + c->pump.moved[1];
		event_net(np, &c->rq, c->pump.moved, "net_allow", NULL,
			  &c->used);
	}
	strvec_clear(&c->used);
	if (c->cfd >= 0)
		close(c->cfd);
	if (c->ufd >= 0)
		close(c->ufd);
	if (c->rfd >= 0)
		close(c->rfd);
	proxyreq_release(&c->rq);
	strbuf_release(&c->reply);
	free(c);
}

static bool on_reply(struct conn *c)
{
	ssize_t n;

	if (c->reply_off >= c->reply.len)
		return false;
	n = send(c->cfd, c->reply.buf + c->reply_off,
		 c->reply.len - c->reply_off, MSG_NOSIGNAL);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR;
	c->reply_off += (size_t)n;
	return c->reply_off < c->reply.len;
}

static struct conn *conn_new(int cfd)
{
	struct conn *c = xmalloc(sizeof(*c));

	memset(c, 0, offsetof(struct conn, head));
	c->st = C_HEAD;
	c->cfd = cfd;
	c->ufd = c->rfd = -1;
	strbuf_init(&c->rq.fwd, 0);
	strbuf_init(&c->rq.why, 0);
	strbuf_init(&c->reply, 0);
	strvec_init(&c->used);
	netpump_init(&c->pump, -1, -1); /* a refusal's event reads moved[] */
	return c;
}

/* Takes one connection and reads it at once: an agent sends its request
 * with the connect, so the head is usually there already. */
static void accept_one(struct netproxy *np, struct conn **conns, size_t *nr)
{
	int fd = accept4(np->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK),
	    one = 1;
	struct conn *c;

	if (fd < 0)
		return;
	/* small requests and answers go out at once (no Nagle) */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c = conn_new(fd);
	on_head(np, c);
	if (c->st == C_DONE)
		conn_free(np, c);
	else
		conns[(*nr)++] = c;
}

/*
 * The relay's one hand-over (netlistener.h): good or bad, the socket then
 * closes, so nothing in the cage can hand over a second listener, and a
 * refused one leaves the cage without a network (fail closed).
 */
static void take_listener(struct netproxy *np)
{
	static const unsigned long long none[2];
	struct timeval tv = { .tv_sec = NETPROXY_HANDOFF_WAIT };
	struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT;
	int c = accept4(np->handoff_fd, NULL, NULL, SOCK_CLOEXEC);

	if (c < 0)
		return;
	/* closed before the answer: the relay runs the agent only after it,
	 * so nothing the agent runs can even queue a connection */
	close(np->handoff_fd);
	np->handoff_fd = -1;
	/* the relay sends at once: a peer that does not is not waited for */
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (!netlistener_take(c, &np->listen_fd, &why)) {
		/* an agent speaks first: wake the loop when its request is
		 * there, not at the handshake (one wake-up less each) */
		int secs = NETPROXY_HANDOFF_WAIT;
		setsockopt(np->listen_fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &secs,
			   sizeof(secs));
	} else {
		strbuf_addf(&msg, "the relay's listener was refused: %s",
			    why.buf);
		warning("sandbox proxy: %s; the sandbox has no network",
			msg.buf);
		event_net(np, NULL, none, "net_deny", msg.buf, NULL);
		note_denied(np, "(relay listener)");
	}
	close(c);
	strbuf_release(&why);
	strbuf_release(&msg);
}

static void forward_signal(int sigfd, pid_t child)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si) && child > 0)
		kill(child, (int)si.ssi_signo);
}

/* poll entries for one connection: [0] client, [1] upstream or the
 * resolver */
static void conn_events(const struct conn *c, struct pollfd *pf)
{
	pf[0].fd = c->cfd;
	pf[1].fd = c->st == C_RESOLVING ? c->rfd : c->ufd;
	pf[0].events = pf[1].events = 0;
	switch (c->st) {
	case C_HEAD:
		pf[0].events = POLLIN;
		break;
	case C_RESOLVING:
		pf[1].events = POLLIN;
		break;
	case C_CONNECTING:
		pf[1].events = POLLOUT;
		break;
	case C_REPLY:
		pf[0].events = POLLOUT;
		break;
	case C_PUMP:
		netpump_events(&c->pump, &pf[0].events, &pf[1].events);
		break;
	case C_MITM:
		netmitm_events(c->mitm, &pf[0].events, &pf[1].events);
		break;
	case C_DONE:
		break;
	}
	/* a side with nothing to wait for is left out: poll reports a
	 * hang-up whatever the events, and would wake the loop for ever
	 * while that side's buffer waits for the other to drain */
	for (int i = 0; i < 2; i++)
		if (pf[i].fd < 0 || !pf[i].events)
			pf[i].fd = -1;
}

/* One step for a connection; false when it is finished. */
static bool conn_step(struct netproxy *np, struct conn *c,
		      const struct pollfd *pf, long long now)
{
	switch (c->st) {
	case C_HEAD:
		if (pf[0].revents)
			on_head(np, c);
		break;
	case C_RESOLVING:
		if (pf[1].revents || now >= c->deadline_ms)
			on_resolved(np, c, !pf[1].revents);
		break;
	case C_CONNECTING:
		if (pf[1].revents)
			on_connected(np, c);
		break;
	case C_REPLY:
		return on_reply(c);
	case C_PUMP:
		return !(pf[0].revents || pf[1].revents) ||
		       netpump_io(&c->pump, pf[0].revents, pf[1].revents) > 0;
	case C_MITM:
		if (pf[0].revents || pf[1].revents)
			step_mitm(np, c, pf[0].revents, pf[1].revents);
		break;
	case C_DONE:
		break;
	}
	return c->st != C_DONE;
}

/* poll's timeout: until the first lookup's time is up, or none */
static int poll_timeout(struct conn *const *conns, size_t nr, long long now)
{
	long long first = -1;

	for (size_t i = 0; i < nr; i++)
		if (conns[i]->st == C_RESOLVING &&
		    (first < 0 || conns[i]->deadline_ms < first))
			first = conns[i]->deadline_ms;
	if (first < 0)
		return -1;
	return first <= now ? 0 : (int)(first - now);
}

int netproxy_run(struct netproxy *np, int pidfd, int sigfd, pid_t child)
{
	struct conn *conns[NETPROXY_MAX_CONNS];
	struct pollfd pf[3 + 2 * NETPROXY_MAX_CONNS];
	size_t nr = 0;
	int rc = 0;

	if (np->listen_fd >= 0)
		set_nonblock(np->listen_fd);
	if (np->handoff_fd >= 0)
		set_nonblock(np->handoff_fd);
	for (;;) {
		int lfd = np->listen_fd >= 0 ? np->listen_fd : np->handoff_fd;
		long long now = nr ? now_ms() : 0;

		pf[0] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		pf[2] = (struct pollfd){ .fd = nr < NETPROXY_MAX_CONNS ? lfd
								       : -1,
					 .events = POLLIN };
		for (size_t i = 0; i < nr; i++)
			conn_events(conns[i], &pf[3 + 2 * i]);
		if (poll(pf, 3 + 2 * nr, poll_timeout(conns, nr, now)) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		if (pf[0].revents)
			break;
		if (pf[1].revents)
			forward_signal(sigfd, child);
		now = nr ? now_ms() : 0;
		for (size_t i = 0; i < nr;) {
			if (conn_step(np, conns[i], &pf[3 + 2 * i], now)) {
				i++;
				continue;
			}
			conn_free(np, conns[i]);
			/* keep the poll entries in step with the connections */
			memmove(&conns[i], &conns[i + 1],
				(nr - i - 1) * sizeof(*conns));
			memmove(&pf[3 + 2 * i], &pf[3 + 2 * i + 2],
				(nr - i - 1) * 2 * sizeof(*pf));
			nr--;
		}
		if (pf[2].revents && np->listen_fd < 0)
			take_listener(np);
		else if (pf[2].revents && nr < NETPROXY_MAX_CONNS)
			accept_one(np, conns, &nr);
	}
	for (size_t i = 0; i < nr; i++)
		conn_free(np, conns[i]);
	event_suppressed_last(np);
	return rc;
}

void netproxy_stats_json(const struct netproxy_stats *st, struct strbuf *out)
{
	strbuf_addf(
		out,
		"{\"net_allow\":%lu,\"net_deny\":%lu,\"bytes\":%llu,\"denied_hosts\":[",
		st->allowed, st->denied, st->bytes);
	for (size_t i = 0; i < st->denied_hosts.nr; i++) {
		if (i)
			strbuf_addch(out, ',');
		strbuf_add_json_str(out, st->denied_hosts.v[i]);
	}
	strbuf_addstr(out, "]}\n");
}

void netproxy_release(struct netproxy *np)
{
	if (np->events_fd >= 0)
		close(np->events_fd);
	np->events_fd = -1;
	strvec_clear(&np->stats.denied_hosts);
}
