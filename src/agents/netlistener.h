/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_NETLISTENER_H
#define AG_NETLISTENER_H

/**
 * The fs+api hand-over (PRODUCT.md §8, docs/sandbox.md): the relay in the
 * cage creates the listening TCP socket on the cage's 127.0.0.1 and hands
 * it, once, over the unix socket bound into the cage to the proxy
 * outside, which then accepts the agent's connections itself: no process
 * of the cage copies the bytes.
 *
 *   relay (inside):  fd = connect(SANDBOX_PROXY_SOCK);
 *                    netlistener_give(fd, listener) → 0, or -1 refused
 *   proxy (outside): c = accept(unix listener);
 *                    netlistener_take(c, &lfd, &why) → 0, or -1 + why
 *
 * Security module. Invariants (tests: test-netlistener.c, t0612):
 *  1. The proxy takes exactly one descriptor per hand-over, and only a
 *     listening IPv4 TCP socket bound to a 127.0.0.0/8 address; anything
 *     else (no descriptor, several, a pipe, a file, a unix, UDP or IPv6
 *     socket, a connected or unbound or non-loopback TCP socket) is
 *     refused, every descriptor received closed, and the relay told so.
 *  2. The descriptor only lets the proxy accept connections: the proxy
 *     still creates every upstream socket itself, in its own namespace,
 *     after the allow-list (netproxy.h invariant 1).
 *  3. The relay runs its command only after the proxy said yes: a refused
 *     hand-over is a set-up failure, the command is not run.
 *
 * Which network namespace the listener lives in cannot be checked without
 * privileges over it; one from another namespace would let other clients
 * ask the same allow-list, never widen where the proxy connects.
 */
#include "base/common.h"
#include "base/strbuf.h"

/* The checks of invariant 1 on a descriptor: 0, or -1 with `why`. */
int netlistener_check(int fd, struct strbuf *why);

/*
 * Reads one hand-over from the connected unix socket `conn`, checks it
 * and answers the relay. 0 with the listener (non-blocking, the caller's)
 * in *lfd, or -1 with the reason in `why` (*lfd -1).
 */
int netlistener_take(int conn, int *lfd, struct strbuf *why);

/* Hands `listener` over `conn` and waits for the answer: 0 accepted, -1
 * refused or failed (errno set; EACCES when refused). */
int netlistener_give(int conn, int listener);

#endif
