/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_NETPROXY_H
#define AG_NETPROXY_H

/**
 * The fs+api network proxy (PRODUCT.md §8), run by `agentic-git sandbox
 * proxy` OUTSIDE the cage. It listens on a unix socket that is bound into
 * the cage (the only way out of the cage's empty network namespace), where
 * the cage's relay hands it, once, the listening TCP socket on the cage's
 * loopback (netlistener.h); from then on it accepts the agent's
 * connections on that socket itself, speaks HTTP proxy (CONNECT, and plain
 * HTTP with an absolute URL), and connects only to the allow-list's hosts,
 * resolving names itself.
 *
 *   struct netproxy np = NETPROXY_INIT;
 *   np.handoff_fd = unix_listener;   // or np.listen_fd = a TCP listener
 *   np.allow = …; np.home = …; np.agent = …;
 *   netproxy_run(&np, pidfd, sigfd, child);  // until the child exits
 *   …np.stats…;  netproxy_release(&np);
 *
 * Security module. Invariants (tests: test-netproxy.c, t0612):
 *  1. A connection goes out only to a target allowhosts_match() accepts,
 *     to the address the proxy resolved itself; anything else gets an
 *     HTTP error (403 names the host and how to allow it) and nothing is
 *     connected.
 *  2. Every allowed connection is a `net_allow` event (host, port, bytes
 *     both ways, written when it ends), every refusal a `net_deny` event
 *     (host when known, reason); past the first NETPROXY_EVENT_BURST of a
 *     run, at most NETPROXY_EVENT_RATE a minute are written, the next one
 *     written counting those that were not (`suppressed`), and a last
 *     `net_suppressed` event counts what the end left unwritten. The
 *     agent's requests are its to make as fast as it likes; the fleet's
 *     journal rotates by size, and a flood must not rotate every other
 *     agent's history away (threat-model T133). The stats count all.
 *  3. One hand-over per run (netlistener.h invariant 1): the unix socket
 *     closes at its first connection, before the relay hears the answer,
 *     so nothing started after the relay can connect; a refused listener
 *     is a `net_deny` event and a warning, and nothing is ever served.
 *  4. Bounded: at most NETPROXY_MAX_CONNS connections (more wait in the
 *     backlog), a head of at most PROXYREQ_HEAD_MAX bytes, NETPUMP_BUF
 *     bytes per direction, RESOLVER_MAX_PENDING name lookups at once and
 *     NETPROXY_RESOLVE_WAIT seconds for each (then a 502); a lookup never
 *     holds up another connection.
 *  6. A CONNECT to a host some secret is for is terminated
 *     (proxy/netmitm.h): the vendor's certificate is verified before the
 *     agent hears "200", and a refusal is a 502 naming why; plain HTTP
 *     to such a host has the head rewritten. Every other connection is
 *     a tunnel as before, its bytes untouched. `net_allow` names the
 *     secrets put in (`secrets`), never a value.
 *  5. It stops when the sandboxed child exits (pidfd readable), closing
 *     every connection and recording it; signals that would stop the
 *     supervisor (TERM, INT, HUP, QUIT) are passed on to the child.
 *
 * Ownership: the allow list, home, agent and hint are borrowed; the
 * proxy owns its connections and stats.
 */
#include "base/common.h"
#include <sys/types.h>
#include "base/strvec.h"

#define NETPROXY_MAX_CONNS 64
/* invariant 2: events written freely, then a minute's worth */
#define NETPROXY_EVENT_BURST 256
#define NETPROXY_EVENT_RATE 60
/* seconds the relay's hand-over may take once it connected */
#define NETPROXY_HANDOFF_WAIT 5
/* seconds a name lookup may take before the request gets a 502 */
#define NETPROXY_RESOLVE_WAIT 10

struct netproxy_stats {
	unsigned long allowed, denied;
	unsigned long long bytes;
	struct strvec denied_hosts; /* "host:port", unique, in order */
};

struct secret_table;
struct nettls;

struct netproxy {
	int listen_fd;	/* the cage's TCP listener; -1 until handed over */
	int handoff_fd; /* the unix listener the relay hands it over; -1 */
	const char *const *allow;
	size_t allow_nr;
	const char *home;  /* fleet_events.jsonl; "" or NULL: no events */
	const char *agent; /* the events' agent */
	const char *hint;  /* how to allow a host, for the 403 text */
	int events_fd;	   /* private: the log, opened at the first event */
	/* private (invariant 2): events written, the current minute (of
	 * the monotonic clock) and the events written in it, events not
	 * written */
	unsigned long ev_written, ev_minute_nr, ev_suppressed;
	long long ev_minute;
	/*
	 * Invariant 6: the secrets (borrowed, agents/secrets.h) and the TLS
	 * that terminates a CONNECT to one of their hosts (proxy/nettls.h),
	 * or NULL: every connection a tunnel.
	 */
	const struct secret_table *secrets;
	struct nettls *tls;
	struct netproxy_stats stats;
};

#define NETPROXY_INIT                                                          \
	{                                                                      \
		.listen_fd = -1, .handoff_fd = -1, .events_fd = -1, .stats = { \
			.denied_hosts = STRVEC_INIT                            \
		}                                                              \
	}

/*
 * Serves until `pidfd` is readable (the child exited), forwarding what
 * `sigfd` (a signalfd) reads to `child`. Returns 0, or -1 when poll fails.
 */
int netproxy_run(struct netproxy *np, int pidfd, int sigfd, pid_t child);

/* The stats as one JSON object {"net_allow":N,"net_deny":N,...}. */
void netproxy_stats_json(const struct netproxy_stats *st, struct strbuf *out);

void netproxy_release(struct netproxy *np);

#endif
