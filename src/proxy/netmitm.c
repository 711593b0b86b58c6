/* SPDX-License-Identifier: Apache-2.0 */
/* A terminated CONNECT; see netmitm.h. */
#include "base/common.h"
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <openssl/err.h>
#include "agents/httpstream.h"
#include "base/netpump.h"
#include "base/xalloc.h"
#include "proxy/netmitm.h"
#include "proxy/nettls.h"

static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";

enum mstate { M_UP_HS, M_OK, M_DOWN_HS, M_PUMP, M_DONE };

/* One TLS side: what its last operations were waiting for. */
struct side {
	SSL *ssl;
	int fd;
	bool want_r, want_w;
	bool readable; /* poll said so, or no read has waited since */
	bool eof;      /* read its close_notify or EOF */
	bool shut;     /* passed the other side's EOF on */
};

struct netmitm {
	enum mstate st;
	struct nettls *tls;
	const struct secret_table *secrets;
	struct allowhost_target target;
	struct side c, u; /* the agent's side, the vendor's */
	size_t ok_off;
	struct httpstream hs;
	struct strbuf to_u; /* plaintext for the vendor (rewritten heads) */
	size_t to_u_off;
	char to_c[NETPUMP_BUF]; /* plaintext for the agent */
	size_t to_c_len, to_c_off;
	unsigned long long moved[2];
	struct strvec used;
	struct strbuf why;
};

static void on_head(void *ctx, const char *head, size_t len, struct strbuf *out)
{
	struct netmitm *m = ctx;

	secret_rewrite_head(m->secrets, &m->target, head, len, out, &m->used);
}

struct netmitm *netmitm_new(struct nettls *tls,
			    const struct secret_table *secrets,
			    const struct allowhost_target *target, int cfd,
			    int ufd)
{
	struct netmitm *m = xcalloc(1, sizeof(*m));

	m->tls = tls;
	m->secrets = secrets;
	m->target = *target;
	m->c.fd = cfd;
	m->u.fd = ufd;
	m->c.readable = m->u.readable = true;
	httpstream_init(&m->hs, on_head, m);
	strbuf_init(&m->to_u, 0);
	strvec_init(&m->used);
	strbuf_init(&m->why, 0);
	m->u.ssl = nettls_client(tls, target, ufd, &m->why);
	if (!m->u.ssl)
		m->st = M_DONE;
	return m;
}

/* 1: done; 0: would block (wants noted); -1: failed. */
static int ssl_result(struct side *s, int r, struct strbuf *why)
{
	int e = SSL_get_error(s->ssl, r);

	if (r > 0)
		return 1;
	if (e == SSL_ERROR_WANT_READ) {
		s->want_r = true;
		return 0;
	}
	if (e == SSL_ERROR_WANT_WRITE) {
		s->want_w = true;
		return 0;
	}
	if (e == SSL_ERROR_ZERO_RETURN ||
	    (e == SSL_ERROR_SYSCALL && !ERR_peek_error())) {
		s->eof = true;
		return -2;
	}
	nettls_why(s->ssl, why);
	return -1;
}

/*
 * Whether an SSL_read on `s` may find something: the socket polled
 * readable since its last read waited, or OpenSSL holds bytes already.
 * Otherwise the read is left to the next poll round: a read() that only
 * says EAGAIN is a syscall per side per request saved.
 */
static bool may_read(struct side *s)
{
	if (s->readable || SSL_has_pending(s->ssl))
		return true;
	s->want_r = true;
	return false;
}

/* The result of an SSL_read on `s`: as ssl_result, noting a wait. */
static int read_result(struct side *s, int r, struct strbuf *why)
{
	int rc = ssl_result(s, r, why);

	if (!rc && s->want_r)
		s->readable = false;
	return rc;
}

static int step_handshakes(struct netmitm *m)
{
	int r;

	if (m->st == M_UP_HS) {
		r = ssl_result(&m->u, SSL_do_handshake(m->u.ssl), &m->why);
		if (r < 0) {
			if (!m->why.len)
				strbuf_addstr(
					&m->why,
					"the host closed the connection during the TLS handshake");
			return -2; /* the agent hears a 502 */
		}
		if (!r)
			return 1;
		m->st = M_OK;
	}
	if (m->st == M_OK) {
		ssize_t n = send(m->c.fd, ok + m->ok_off,
				 sizeof(ok) - 1 - m->ok_off, MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (n > 0)
			m->ok_off += (size_t)n;
		if (m->ok_off < sizeof(ok) - 1) {
			m->c.want_w = true;
			return 1;
		}
		m->c.ssl = nettls_server(m->tls, &m->target, m->c.fd, &m->why);
		if (!m->c.ssl)
			return -1;
		m->st = M_DOWN_HS;
	}
	if (m->st == M_DOWN_HS) {
		r = ssl_result(&m->c, SSL_do_handshake(m->c.ssl), &m->why);
		if (r < 0)
			return -1;
		if (!r)
			return 1;
		m->st = M_PUMP;
	}
	return 1;
}

/* The agent's requests to the vendor; true when something moved. */
static int pump_to_u(struct netmitm *m, bool *moved)
{
	char buf[NETPUMP_BUF / 2];
	int r;

	if (m->to_u_off < m->to_u.len) {
		r = SSL_write(m->u.ssl, m->to_u.buf + m->to_u_off,
			      (int)(m->to_u.len - m->to_u_off));
		if (r > 0) {
			m->to_u_off += (size_t)r;
			*moved = true;
			return 0;
		}
		return ssl_result(&m->u, r, &m->why) == -1 ? -1 : 0;
	}
	/* a rewritten head held values: gone once sent */
	if (m->to_u.len)
		explicit_bzero(m->to_u.buf, m->to_u.len);
	strbuf_reset(&m->to_u);
	m->to_u_off = 0;
	if (m->c.eof) {
		if (!m->u.shut) {
			SSL_shutdown(m->u.ssl);
			shutdown(m->u.fd, SHUT_WR);
			m->u.shut = true;
		}
		return 0;
	}
	if (!may_read(&m->c))
		return 0;
	r = SSL_read(m->c.ssl, buf, sizeof(buf));
	if (r > 0) {
		m->moved[0] += (unsigned long long)r;
		if (httpstream_feed(&m->hs, buf, (size_t)r, &m->to_u) < 0) {
			strbuf_addf(&m->why, "the agent's request: %s",
				    m->hs.why.buf);
			return -1;
		}
		*moved = true;
		return 0;
	}
	r = read_result(&m->c, r, &m->why);
	if (r == -2)
		*moved = true;
	return r == -1 ? -1 : 0;
}

/* The vendor's answers to the agent, as they come. */
static int pump_to_c(struct netmitm *m, bool *moved)
{
	int r;

	if (m->to_c_off < m->to_c_len) {
		r = SSL_write(m->c.ssl, m->to_c + m->to_c_off,
			      (int)(m->to_c_len - m->to_c_off));
		if (r > 0) {
			m->to_c_off += (size_t)r;
			m->moved[1] += (unsigned long long)r;
			*moved = true;
			return 0;
		}
		return ssl_result(&m->c, r, &m->why) == -1 ? -1 : 0;
	}
	m->to_c_len = m->to_c_off = 0;
	if (m->u.eof) {
		if (!m->c.shut) {
			SSL_shutdown(m->c.ssl);
			shutdown(m->c.fd, SHUT_WR);
			m->c.shut = true;
		}
		return 0;
	}
	if (!may_read(&m->u))
		return 0;
	r = SSL_read(m->u.ssl, m->to_c, sizeof(m->to_c));
	if (r > 0) {
		m->to_c_len = (size_t)r;
		*moved = true;
		return 0;
	}
	r = read_result(&m->u, r, &m->why);
	if (r == -2)
		*moved = true;
	return r == -1 ? -1 : 0;
}

int netmitm_io(struct netmitm *m, short rev_c, short rev_u)
{
	bool moved = true;
	int rc;

	if (rev_c & (POLLIN | POLLERR | POLLHUP))
		m->c.readable = true;
	if (rev_u & (POLLIN | POLLERR | POLLHUP))
		m->u.readable = true;

	if (m->st == M_DONE)
		return m->why.len ? -1 : 0;
	m->c.want_r = m->c.want_w = m->u.want_r = m->u.want_w = false;
	if (m->st != M_PUMP) {
		rc = step_handshakes(m);
		if (rc < 0)
			return rc;
		if (m->st != M_PUMP)
			return 1;
	}
	/* until neither side can move: OpenSSL may hold decrypted bytes
	 * that no poll would announce */
	while (moved) {
		moved = false;
		m->c.want_r = m->c.want_w = m->u.want_r = m->u.want_w = false;
		if (pump_to_u(m, &moved) < 0 || pump_to_c(m, &moved) < 0) {
			m->st = M_DONE;
			return -1;
		}
	}
	if (m->c.eof && m->u.eof && m->to_c_off >= m->to_c_len &&
	    m->to_u_off >= m->to_u.len) {
		m->st = M_DONE;
		return 0;
	}
	/* one side gone and the other only waiting to read: done too */
	if ((m->u.eof && m->c.shut && m->to_c_off >= m->to_c_len) ||
	    (m->c.eof && m->u.shut && m->to_u_off >= m->to_u.len && m->u.eof)) {
		m->st = M_DONE;
		return 0;
	}
	return 1;
}

void netmitm_events(const struct netmitm *m, short *ev_c, short *ev_u)
{
	*ev_c = (short)((m->c.want_r ? POLLIN : 0) |
			(m->c.want_w ? POLLOUT : 0));
	*ev_u = (short)((m->u.want_r ? POLLIN : 0) |
			(m->u.want_w ? POLLOUT : 0));
}

const unsigned long long *netmitm_moved(const struct netmitm *m)
{
	return m->moved;
}

const struct strvec *netmitm_used(const struct netmitm *m)
{
	return &m->used;
}

bool netmitm_verified(const struct netmitm *m)
{
	return m->st != M_UP_HS && !(m->st == M_DONE && !m->c.ssl);
}

const char *netmitm_why(const struct netmitm *m)
{
	return m->why.buf;
}

void netmitm_free(struct netmitm *m)
{
	if (!m)
		return;
	SSL_free(m->c.ssl);
	SSL_free(m->u.ssl);
	httpstream_release(&m->hs);
	/* the rewritten heads held values */
	strbuf_wipe(&m->to_u);
	strvec_clear(&m->used);
	strbuf_release(&m->why);
	free(m);
}
