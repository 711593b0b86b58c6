/* SPDX-License-Identifier: Apache-2.0 */
/* The proxy's session CA, leaf certificates and TLS contexts; see
 * nettls.h. */
#include "base/common.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "proxy/nettls.h"

#define LEAF_CACHE 64
#define CA_DAYS 30
#define BUNDLE_ROOTS_MAX (8 << 20)

struct leaf {
	char host[ALLOWHOST_NAME_MAX + 1];
	X509 *cert;
};

/* A vendor's TLS session, to resume: for exactly `host:port`. */
struct upsess {
	char key[ALLOWHOST_NAME_MAX + 8];
	SSL_SESSION *sess;
};

struct nettls {
	EVP_PKEY *key; /* the CA's and every leaf's: in memory only */
	X509 *ca;
	SSL_CTX *server, *client;
	struct leaf leaves[LEAF_CACHE];
	size_t nr_leaves, next_leaf;
	struct upsess sessions[LEAF_CACHE];
	size_t nr_sessions, next_session;
};

/* the SSL ex_data slot that holds a client connection's `host:port` */
static int key_idx = -1;

static const unsigned char alpn_h11[] = "\x08http/1.1";

void nettls_why(SSL *ssl, struct strbuf *out)
{
	unsigned long e = ERR_peek_last_error();
	char buf[256];
	long v = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;

	if (v != X509_V_OK) {
		strbuf_addf(out, "certificate verify failed: %s",
			    X509_verify_cert_error_string(v));
	} else if (e) {
		ERR_error_string_n(e, buf, sizeof(buf));
		strbuf_addstr(out, buf);
	} else {
		strbuf_addstr(out, errno ? strerror(errno) : "TLS failed");
	}
	ERR_clear_error();
}

static int fail(struct strbuf *err, const char *what)
{
	strbuf_addf(err, "%s: ", what);
	nettls_why(NULL, err);
	return -1;
}

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int rc;

	X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return -1;
	rc = X509_add_ext(cert, ext, -1) ? 0 : -1;
	X509_EXTENSION_free(ext);
	return rc;
}

/* A certificate for `key` with subject CN=`cn`, valid from an hour ago. */
static X509 *new_cert(EVP_PKEY *key, const char *cn)
{
	X509 *c = X509_new();
	X509_NAME *name = X509_NAME_new();
	unsigned char serial[16];
	BIGNUM *bn = NULL;

	if (!c || !name || RAND_bytes(serial, sizeof(serial)) != 1)
		goto bad;
	serial[0] &= 0x7f;
	bn = BN_bin2bn(serial, sizeof(serial), NULL);
	if (!bn || !BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c)) ||
	    !X509_set_version(c, 2) ||
	    !X509_gmtime_adj(X509_getm_notBefore(c), -3600) ||
	    !X509_gmtime_adj(X509_getm_notAfter(c), 86400L * CA_DAYS) ||
	    !X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
					(const unsigned char *)"agentic-git",
					-1, -1, 0) ||
	    !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
					(const unsigned char *)cn, -1, -1, 0) ||
	    !X509_set_subject_name(c, name) || !X509_set_pubkey(c, key))
		goto bad;
	BN_free(bn);
	X509_NAME_free(name);
	return c;
bad:
	BN_free(bn);
	X509_NAME_free(name);
	X509_free(c);
	return NULL;
}

static int make_ca(struct nettls *t, struct strbuf *err)
{
	t->key = EVP_EC_gen("P-256");
	if (!t->key)
		return fail(err, "cannot make the session CA's key");
	t->ca = new_cert(t->key, "agentic-git session CA");
	if (!t->ca ||
	    !X509_set_issuer_name(t->ca, X509_get_subject_name(t->ca)) ||
	    add_ext(t->ca, t->ca, NID_basic_constraints,
		    "critical,CA:TRUE,pathlen:0") < 0 ||
	    add_ext(t->ca, t->ca, NID_key_usage,
		    "critical,keyCertSign,cRLSign") < 0 ||
	    add_ext(t->ca, t->ca, NID_subject_key_identifier, "hash") < 0 ||
	    !X509_sign(t->ca, t->key, EVP_sha256()))
		return fail(err, "cannot make the session CA");
	return 0;
}

/* Invariant 3: only http/1.1, or no ALPN at all. */
static int alpn_select(SSL *ssl, const unsigned char **out,
		       unsigned char *outlen, const unsigned char *in,
		       unsigned int inlen, void *arg)
{
	unsigned char *sel;

	if (SSL_select_next_proto(&sel, outlen, alpn_h11, sizeof(alpn_h11) - 1,
				  in, inlen) != OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_NOACK;
	*out = sel;
	return SSL_TLSEXT_ERR_OK;
}

static void free_key(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx,
		     long argl, void *argp)
{
	(void)parent;
	(void)ad;
	(void)idx;
	(void)argl;
	(void)argp;
	free(ptr);
}

static struct upsess *session_slot(struct nettls *t, const char *key, bool make)
{
	struct upsess *u;

	for (size_t i = 0; i < t->nr_sessions; i++)
		if (!strcmp(t->sessions[i].key, key))
			return &t->sessions[i];
	if (!make)
		return NULL;
	if (t->nr_sessions < LEAF_CACHE) {
		u = &t->sessions[t->nr_sessions++];
	} else {
		u = &t->sessions[t->next_session++ % LEAF_CACHE];
		SSL_SESSION_free(u->sess);
		u->sess = NULL;
	}
	snprintf(u->key, sizeof(u->key), "%s", key);
	return u;
}

/*
 * Invariant 4: a session the vendor gave, once its certificate verified
 * (the handshake fails otherwise), kept for the same host:port alone.
 * 1: the reference is ours.
 */
static int new_session(SSL *ssl, SSL_SESSION *sess)
{
	struct nettls *t = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	const char *key = SSL_get_ex_data(ssl, key_idx);
	struct upsess *u;

	if (!t || !key || SSL_get_verify_result(ssl) != X509_V_OK ||
	    !SSL_SESSION_is_resumable(sess))
		return 0;
	u = session_slot(t, key, true);
	SSL_SESSION_free(u->sess);
	u->sess = sess;
	return 1;
}

static int make_ctxs(struct nettls *t, const char *tls_ca_file,
		     struct strbuf *err)
{
	t->server = SSL_CTX_new(TLS_server_method());
	t->client = SSL_CTX_new(TLS_client_method());
	if (!t->server || !t->client)
		return fail(err, "cannot set up TLS");
	SSL_CTX_set_min_proto_version(t->server, TLS1_2_VERSION);
	SSL_CTX_set_min_proto_version(t->client, TLS1_2_VERSION);
	SSL_CTX_set_alpn_select_cb(t->server, alpn_select, NULL);
	SSL_CTX_set_mode(t->server,
			 SSL_MODE_ENABLE_PARTIAL_WRITE |
				 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_mode(t->client,
			 SSL_MODE_ENABLE_PARTIAL_WRITE |
				 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	/* a record in one read(), not its header and then its body: half
	 * the read() calls of a kept-alive request */
	SSL_CTX_set_read_ahead(t->server, 1);
	SSL_CTX_set_read_ahead(t->client, 1);
	if (SSL_CTX_set_alpn_protos(t->client, alpn_h11, sizeof(alpn_h11) - 1))
		return fail(err, "cannot set up TLS");
	SSL_CTX_set_verify(t->client, SSL_VERIFY_PEER, NULL);
	/* resumption: the sessions are ours, per host:port (new_session) */
	if (key_idx < 0)
		key_idx = SSL_get_ex_new_index(0, NULL, NULL, NULL, free_key);
	if (key_idx < 0 || !SSL_CTX_set_app_data(t->client, t))
		return fail(err, "cannot set up TLS");
	SSL_CTX_set_session_cache_mode(
		t->client,
		SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(t->client, new_session);
	/* invariant 2: the compiled-in store, not SSL_CERT_FILE's */
	SSL_CTX_load_verify_locations(t->client, X509_get_default_cert_file(),
				      X509_get_default_cert_dir());
	ERR_clear_error();
	if (tls_ca_file && *tls_ca_file &&
	    SSL_CTX_load_verify_locations(t->client, tls_ca_file, NULL) != 1) {
		strbuf_addf(err, "tls_ca_file '%s': ", tls_ca_file);
		nettls_why(NULL, err);
		return -1;
	}
	return 0;
}

struct nettls *nettls_new(const char *tls_ca_file, struct strbuf *err)
{
	struct nettls *t = xcalloc(1, sizeof(*t));

	if (make_ca(t, err) < 0 || make_ctxs(t, tls_ca_file, err) < 0) {
		nettls_free(t);
		return NULL;
	}
	return t;
}

static int pem_cert(X509 *c, struct strbuf *out)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p;
	long n;

	if (!b || !PEM_write_bio_X509(b, c)) {
		BIO_free(b);
		return -1;
	}
	n = BIO_get_mem_data(b, &p);
	strbuf_add(out, p, (size_t)n);
	BIO_free(b);
	return 0;
}

int nettls_write_bundle(struct nettls *t, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *roots = NULL;
	int rc = -1;

	if (pem_cert(t->ca, &sb) < 0) {
		fail(err, "cannot write the session CA");
		goto out;
	}
	/* the system's roots after it, so other hosts still verify (the
	 * default file is a link to ca-certificates.crt on Debian) */
	roots = real_path(X509_get_default_cert_file());
	if (roots && read_small_file(roots, BUNDLE_ROOTS_MAX, &sb) < 0) {
		strbuf_addf(err, "cannot read the system's CA roots '%s': %s",
			    X509_get_default_cert_file(), strerror(errno));
		goto out;
	}
	if (write_file_atomic(path, sb.buf, sb.len, 0644) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(roots);
	strbuf_release(&sb);
	return rc;
}

static X509 *mint_leaf(struct nettls *t, const struct allowhost_target *tg)
{
	struct strbuf san = STRBUF_INIT;
	X509 *c = new_cert(t->key, tg->host);

	strbuf_addf(&san, "%s:%s", tg->kind == AH_NAME ? "DNS" : "IP",
		    tg->host);
	if (!c || !X509_set_issuer_name(c, X509_get_subject_name(t->ca)) ||
	    add_ext(c, t->ca, NID_basic_constraints, "critical,CA:FALSE") < 0 ||
	    add_ext(c, t->ca, NID_key_usage, "critical,digitalSignature") < 0 ||
	    add_ext(c, t->ca, NID_ext_key_usage, "serverAuth") < 0 ||
	    add_ext(c, t->ca, NID_subject_alt_name, san.buf) < 0 ||
	    add_ext(c, t->ca, NID_authority_key_identifier, "keyid:always") <
		    0 ||
	    !X509_sign(c, t->key, EVP_sha256())) {
		X509_free(c);
		c = NULL;
	}
	strbuf_release(&san);
	return c;
}

/* The leaf of `tg->host`, minted at its first use, kept for the run. */
static X509 *leaf_for(struct nettls *t, const struct allowhost_target *tg)
{
	struct leaf *l;
	X509 *c;

	for (size_t i = 0; i < t->nr_leaves; i++)
		if (!strcmp(t->leaves[i].host, tg->host))
			return t->leaves[i].cert;
	c = mint_leaf(t, tg);
	if (!c)
		return NULL;
	if (t->nr_leaves < LEAF_CACHE) {
		l = &t->leaves[t->nr_leaves++];
	} else {
		l = &t->leaves[t->next_leaf++ % LEAF_CACHE];
		X509_free(l->cert);
	}
	snprintf(l->host, sizeof(l->host), "%s", tg->host);
	l->cert = c;
	return c;
}

SSL *nettls_server(struct nettls *t, const struct allowhost_target *target,
		   int fd, struct strbuf *err)
{
	X509 *leaf = leaf_for(t, target);
	SSL *s = leaf ? SSL_new(t->server) : NULL;

	if (!s || !SSL_use_certificate(s, leaf) ||
	    !SSL_use_PrivateKey(s, t->key) || !SSL_add1_chain_cert(s, t->ca) ||
	    !SSL_set_fd(s, fd)) {
		SSL_free(s);
		fail(err, "cannot serve TLS to the agent");
		return NULL;
	}
	SSL_set_accept_state(s);
	return s;
}

SSL *nettls_client(struct nettls *t, const struct allowhost_target *target,
		   int fd, struct strbuf *err)
{
	SSL *s = SSL_new(t->client);
	bool ok = s && SSL_set_fd(s, fd);
	struct strbuf key = STRBUF_INIT;
	struct upsess *u;

	allowhost_format(target, &key);
	if (ok) {
		ok = SSL_set_ex_data(s, key_idx, key.buf);
		if (ok)
			strbuf_detach(&key, NULL);
	}
	/* invariant 4: resumed only towards the host:port it came from */
	u = ok ? session_slot(t, SSL_get_ex_data(s, key_idx), false) : NULL;
	if (u && u->sess)
		ok = SSL_set_session(s, u->sess);

	/* invariant 2: the name (or address) the allow-list allowed */
	if (ok && target->kind == AH_NAME)
		ok = SSL_set_tlsext_host_name(s, target->host) &&
		     SSL_set1_host(s, target->host);
	else if (ok)
		ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s),
						   target->host);
	strbuf_release(&key);
	if (!ok) {
		SSL_free(s);
		fail(err, "cannot start TLS to the host");
		return NULL;
	}
	SSL_set_connect_state(s);
	return s;
}

void nettls_free(struct nettls *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_leaves; i++)
		X509_free(t->leaves[i].cert);
	for (size_t i = 0; i < t->nr_sessions; i++)
		SSL_SESSION_free(t->sessions[i].sess);
	SSL_CTX_free(t->server);
	SSL_CTX_free(t->client);
	X509_free(t->ca);
	EVP_PKEY_free(t->key);
	free(t);
}
