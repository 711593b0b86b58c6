/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PROXY_NETMITM_H
#define AG_PROXY_NETMITM_H

/**
 * One CONNECT the fs+api proxy terminates because a secret is for its
 * host (PRODUCT.md §8): TLS to the vendor first (verified, nettls.h),
 * then "200 Connection established" and TLS to the agent with a leaf of
 * the session CA, then HTTP/1.1 both ways: the agent's request heads
 * rewritten (agents/secrets.h) and everything else streamed
 * (agents/httpstream.h), kept-alive requests included. Driven by the
 * proxy's poll loop like base/netpump.h.
 *
 *   struct netmitm *m = netmitm_new(tls, secrets, &target, cfd, ufd);
 *   loop: netmitm_events(m, &ev_c, &ev_u); poll …
 *         rc = netmitm_io(m, rev_c, rev_u);  1: open; 0: done; -1: failed (m->why);
 *                              -2: the vendor refused, nothing was said
 *                                  to the agent yet (answer 502, m->why)
 *   netmitm_free(m);  (the fds stay the caller's)
 *
 * Bounded like the tunnels: NETPUMP_BUF bytes of plaintext each way plus
 * one rewritten head; a side is read only when the other can take it.
 */
#include "base/common.h"
#include "agents/allowhosts.h"
#include "agents/secrets.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct nettls;
struct netmitm;

struct netmitm *netmitm_new(struct nettls *tls,
			    const struct secret_table *secrets,
			    const struct allowhost_target *target, int cfd,
			    int ufd);
void netmitm_events(const struct netmitm *m, short *ev_c, short *ev_u);
/* rev_c, rev_u: what poll said of each side (0 when it was not asked) */
int netmitm_io(struct netmitm *m, short rev_c, short rev_u);
/* Plaintext bytes moved: [0] to the vendor, [1] to the agent. */
const unsigned long long *netmitm_moved(const struct netmitm *m);
/* The names of the secrets put into its requests so far. */
const struct strvec *netmitm_used(const struct netmitm *m);
/* True once the vendor's certificate is verified. */
bool netmitm_verified(const struct netmitm *m);
/* Why it failed, or "". */
const char *netmitm_why(const struct netmitm *m);
void netmitm_free(struct netmitm *m);

#endif
