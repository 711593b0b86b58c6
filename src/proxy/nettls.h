/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PROXY_NETTLS_H
#define AG_PROXY_NETTLS_H

/**
 * The fs+api proxy's TLS (PRODUCT.md §8, §12: OpenSSL's libssl; why in
 * docs/architecture.md). Only the proxy program links it.
 *
 *   struct nettls *t = nettls_new(tls_ca_file, &err);   // the session CA
 *   nettls_write_bundle(t, path, &err);  // its certificate + system roots
 *   SSL *up = nettls_client(t, &target, ufd);   // to the vendor, verified
 *   SSL *down = nettls_server(t, &target, cfd); // to the agent, a leaf
 *   nettls_free(t);
 *
 * Security module. Invariants (tests: t0617):
 *  1. The session CA's private key is made in memory, per proxy run, and
 *     is never written anywhere; the cage gets its certificate alone.
 *  2. The connection to the vendor verifies the vendor's chain against
 *     the system's store (the compiled-in default file and directory,
 *     never the SSL_CERT_* variables, which name the cage's bundle) plus
 *     `tls_ca_file`, and the vendor's name (or address) against the
 *     host the agent asked for and the allow-list allowed; TLS 1.2 or
 *     newer.
 *  3. A leaf is minted for exactly the host the agent's CONNECT named,
 *     whatever its ClientHello's SNI says; both sides offer only
 *     `http/1.1` by ALPN.
 *  4. A vendor's TLS session is kept (after its certificate verified as
 *     in 2) and offered again only to the same host:port as the agent
 *     named it, so a new connection to it resumes; a server that cannot
 *     resume it makes a full handshake, verified as in 2.
 */
#include "base/common.h"
#include <openssl/ssl.h>
#include "agents/allowhosts.h"
#include "base/strbuf.h"

struct nettls;

struct nettls *nettls_new(const char *tls_ca_file, struct strbuf *err);
/* The session CA's certificate, then the system roots, as PEM at `path`
 * (created 0644 or replaced). 0, or -1 with err. */
int nettls_write_bundle(struct nettls *t, const char *path, struct strbuf *err);
/* A non-blocking SSL on `fd`, in the client role towards `target`
 * (invariant 2), or NULL with err. */
SSL *nettls_client(struct nettls *t, const struct allowhost_target *target,
		   int fd, struct strbuf *err);
/* A non-blocking SSL on `fd`, in the server role with a leaf for
 * `target` (invariant 3), or NULL with err. */
SSL *nettls_server(struct nettls *t, const struct allowhost_target *target,
		   int fd, struct strbuf *err);
/* The last OpenSSL error (and the verify result of `ssl`, when not OK). */
void nettls_why(SSL *ssl, struct strbuf *out);
void nettls_free(struct nettls *t);

#endif
