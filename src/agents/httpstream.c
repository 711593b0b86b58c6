/* SPDX-License-Identifier: Apache-2.0 */
/* Request framing on a terminated connection; see httpstream.h. Pure. */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "agents/httpstream.h"
#include "agents/proxyreq.h"

#define CHUNK_LINE_MAX 1024
#define CHUNK_SIZE_MAX (1ULL << 60)

void httpstream_init(struct httpstream *hs, httpstream_head_fn fn, void *ctx)
{
	memset(hs, 0, sizeof(*hs));
	hs->on_head = fn;
	hs->ctx = ctx;
	strbuf_init(&hs->buf, 0);
	strbuf_init(&hs->why, 0);
}

void httpstream_release(struct httpstream *hs)
{
	strbuf_release(&hs->buf);
	strbuf_release(&hs->why);
}

static int bad(struct httpstream *hs, const char *why)
{
	hs->st = HS_BAD;
	strbuf_reset(&hs->why);
	strbuf_addstr(&hs->why, why);
	return -1;
}

/* The value of header line [p, eol) named `name`, trimmed; false if not. */
static bool header_value(const char *p, const char *eol, const char *name,
			 const char **v, size_t *vlen)
{
	size_t k = strlen(name);
	const char *e = eol;

	if ((size_t)(eol - p) <= k || p[k] != ':' || strncasecmp(p, name, k))
		return false;
	p += k + 1;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		e--;
	*v = p;
	*vlen = (size_t)(e - p);
	return true;
}

static int parse_length(const char *v, size_t n, unsigned long long *out)
{
	unsigned long long x = 0;

	if (!n || n > 18)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)v[i]))
			return -1;
		x = x * 10 + (unsigned long long)(v[i] - '0');
	}
	*out = x;
	return 0;
}

/* Invariant 2: the framing of the head in hs->buf. */
static int frame_head(struct httpstream *hs)
{
	const char *p = hs->buf.buf, *end = p + hs->buf.len, *v;
	unsigned long long len = 0;
	bool have_len = false, chunked = false, first = true;
	size_t n;

	hs->upgrade = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl + 1 : end;

		if (first) {
			hs->upgrade = !strncmp(p, "CONNECT ", 8);
		} else if (header_value(p, eol, "content-length", &v, &n)) {
			unsigned long long x;
			if (parse_length(v, n, &x) < 0 ||
			    (have_len && x != len))
				return bad(hs, "a bad Content-Length");
			len = x;
			have_len = true;
		} else if (header_value(p, eol, "transfer-encoding", &v, &n)) {
			if (chunked || n != 7 || strncasecmp(v, "chunked", 7))
				return bad(
					hs,
					"a Transfer-Encoding other than chunked");
			chunked = true;
		} else if (header_value(p, eol, "upgrade", &v, &n)) {
			hs->upgrade = true;
		}
		first = false;
		p = eol;
	}
	if (chunked && have_len)
		return bad(hs, "both Content-Length and Transfer-Encoding");
	if (hs->upgrade)
		hs->st = HS_RAW;
	else if (chunked)
		hs->st = HS_CHUNK_LINE;
	else if (have_len && len)
		hs->st = HS_BODY, hs->left = len;
	else
		hs->st = HS_HEAD;
	return 0;
}

/* HS_HEAD: takes bytes into the head; *used says how many. */
static int feed_head(struct httpstream *hs, const char *d, size_t len,
		     size_t *used, struct strbuf *out)
{
	size_t before = hs->buf.len, end;

	/* empty lines between requests are passed on */
	if (!hs->buf.len) {
		size_t skip = 0;
		while (skip < len && (d[skip] == '\r' || d[skip] == '\n'))
			skip++;
		strbuf_add(out, d, skip);
		if (skip) {
			*used = skip;
			return 0;
		}
	}
	strbuf_add(&hs->buf, d, len);
	end = proxyreq_head_end(hs->buf.buf, hs->buf.len);
	if (!end) {
		if (hs->buf.len > PROXYREQ_HEAD_MAX)
			return bad(hs,
				   "a request head longer than 16384 bytes");
		*used = len;
		return 0;
	}
	if (end > PROXYREQ_HEAD_MAX)
		return bad(hs, "a request head longer than 16384 bytes");
	if (memchr(hs->buf.buf, '\0', end))
		return bad(hs, "a NUL byte in a request head");
	*used = end - before;
	strbuf_setlen(&hs->buf, end);
	if (frame_head(hs) < 0)
		return -1;
	hs->on_head(hs->ctx, hs->buf.buf, hs->buf.len, out);
	hs->requests++;
	strbuf_reset(&hs->buf);
	return 0;
}

/* A chunk-size line or a trailer line: takes bytes up to its LF. */
static int feed_line(struct httpstream *hs, const char *d, size_t len,
		     size_t *used, struct strbuf *out)
{
	const char *nl = memchr(d, '\n', len);
	size_t n = nl ? (size_t)(nl - d) + 1 : len;
	unsigned long long size = 0;
	size_t digits = 0;

	strbuf_add(&hs->buf, d, n);
	strbuf_add(out, d, n);
	*used = n;
	if (hs->buf.len > CHUNK_LINE_MAX)
		return bad(hs,
			   "a chunk or trailer line longer than 1024 bytes");
	if (!nl)
		return 0;
	if (hs->st == HS_TRAILER) {
		bool empty = hs->buf.len <= 2 &&
			     (hs->buf.buf[0] == '\n' || hs->buf.buf[0] == '\r');
		strbuf_reset(&hs->buf);
		if (empty)
			hs->st = HS_HEAD;
		return 0;
	}
	while (digits < hs->buf.len &&
	       isxdigit((unsigned char)hs->buf.buf[digits])) {
		int c = tolower((unsigned char)hs->buf.buf[digits]);
		size = size * 16 + (unsigned long long)(isdigit(c)
								? c - '0'
								: c - 'a' + 10);
		if (++digits > 15 || size > CHUNK_SIZE_MAX)
			return bad(hs, "a chunk size out of range");
	}
	if (!digits || !strchr(";\r\n \t", hs->buf.buf[digits]))
		return bad(hs, "a malformed chunk size");
	strbuf_reset(&hs->buf);
	hs->left = size;
	hs->st = size ? HS_CHUNK_DATA : HS_TRAILER;
	return 0;
}

/* The CR LF after a chunk's data. */
static int feed_chunk_end(struct httpstream *hs, const char *d, size_t len,
			  size_t *used, struct strbuf *out)
{
	size_t i = 0;

	if (!hs->buf.len && d[0] == '\r') {
		strbuf_addch(&hs->buf, '\r');
		i = 1;
	}
	if (i < len) {
		if (d[i] != '\n')
			return bad(hs, "no CR LF after a chunk");
		strbuf_reset(&hs->buf);
		hs->st = HS_CHUNK_LINE;
		i++;
	}
	strbuf_add(out, d, i);
	*used = i;
	return 0;
}

int httpstream_feed(struct httpstream *hs, const char *d, size_t len,
		    struct strbuf *out)
{
	while (len) {
		size_t used = 0;
		int rc = 0;

		switch (hs->st) {
		case HS_HEAD:
			rc = feed_head(hs, d, len, &used, out);
			break;
		case HS_BODY:
		case HS_CHUNK_DATA:
			used = hs->left < len ? (size_t)hs->left : len;
			strbuf_add(out, d, used);
			hs->left -= used;
			if (!hs->left)
				hs->st = hs->st == HS_BODY ? HS_HEAD
							   : HS_CHUNK_END;
			break;
		case HS_CHUNK_END:
			rc = feed_chunk_end(hs, d, len, &used, out);
			break;
		case HS_CHUNK_LINE:
		case HS_TRAILER:
			rc = feed_line(hs, d, len, &used, out);
			break;
		case HS_RAW:
			strbuf_add(out, d, len);
			used = len;
			break;
		case HS_BAD:
			return -1;
		}
		if (rc < 0)
			return -1;
		d += used;
		len -= used;
	}
	return 0;
}
