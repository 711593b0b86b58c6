/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inert text for the operator's terminal (inert.h).
 *
 * Invariants (tests/unit/test-inert.c checks them over every byte value and
 * generated UTF-8):
 *  1. The output MUST NOT hold a byte below 0x20 (but the '\n' / '\t' a
 *     caller keeps), DEL, or a byte that is not part of valid UTF-8.
 *  2. The output MUST NOT hold a C1 control, a bidi control or a line or
 *     paragraph separator as a character.
 *  3. The output MUST decode back to the input in exactly one way: every
 *     backslash of the input is escaped, so `\` in the output always starts
 *     one of `\\`, `\xHH`, `\uHHHH`.
 *  4. The printf forms MUST escape every `%s` and `%c` argument, and MUST
 *     NOT read an argument they did not parse the type of (an unknown
 *     conversion is a BUG(), never a guess).
 */
#include "base/common.h"
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include "base/die.h"
#include "base/inert.h"
#include "base/utf8.h"

/* The code points written as \uHHHH: C1, bidi controls, separators. */
static bool cp_is_control(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static uint32_t utf8_cp(const unsigned char *s, size_t k)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & lead_mask[k];

	for (size_t i = 1; i < k; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

static void add_hex_escape(struct strbuf *sb, char kind, uint32_t v, int digits)
{
	static const char hex[] = "0123456789abcdef";

	strbuf_addch(sb, '\\');
	strbuf_addch(sb, kind);
	while (digits--)
		strbuf_addch(sb, hex[(v >> (4 * digits)) & 0xf]);
}

void strbuf_add_inert_mem(struct strbuf *sb, const void *p, size_t len,
			  unsigned flags)
{
	const unsigned char *s = p;
	size_t i = 0;

	strbuf_grow(sb, len);
	while (i < len) {
		unsigned char c = s[i];
		size_t k;

		if (c == '\\' && !(flags & INERT_KEEP_BACKSLASH)) {
			strbuf_addstr(sb, "\\\\");
			i++;
			continue;
		}
		if ((c == '\n' && (flags & INERT_KEEP_NL)) ||
		    (c == '\t' && (flags & INERT_KEEP_TAB)) ||
		    (c >= 0x20 && c < 0x7f)) { /* a kept '\\' too */
			strbuf_addch(sb, c);
			i++;
			continue;
		}
		k = c < 0x80 ? 0 : utf8_seq_len(s + i, len - i);
		if (!k) {
			/* C0, DEL, a byte that is not UTF-8 (raw C1 too) */
			add_hex_escape(sb, 'x', c, 2);
			i++;
			continue;
		}
		if (cp_is_control(utf8_cp(s + i, k)))
			add_hex_escape(sb, 'u', utf8_cp(s + i, k), 4);
		else
			strbuf_add(sb, s + i, k);
		i += k;
	}
}

/* How long a sequence the lead byte c starts (0: not a lead byte). */
static size_t utf8_lead_len(unsigned char c)
{
	return c >= 0xc2 && c <= 0xdf	? 2
	       : c >= 0xe0 && c <= 0xef ? 3
	       : c >= 0xf0 && c <= 0xf4 ? 4
					: 0;
}

size_t strbuf_add_inert_chunk(struct strbuf *sb, const void *p, size_t len,
			      unsigned flags)
{
	const unsigned char *s = p;
	size_t cut = len;

	/* a lead byte among the last three whose sequence runs past the end */
	for (size_t back = 1; back <= 3 && back <= len; back++) {
		unsigned char c = s[len - back];
		size_t want = utf8_lead_len(c);

		if (want) {
			if (want > back)
				cut = len - back;
			break;
		}
		if ((c & 0xc0) != 0x80)
			break; /* not a continuation byte: nothing pending */
	}
	strbuf_add_inert_mem(sb, s, cut, flags);
	return cut;
}

void strbuf_add_inert(struct strbuf *sb, const char *s, unsigned flags)
{
	if (s)
		strbuf_add_inert_mem(sb, s, strlen(s), flags);
}

/* One conversion of a printf format, as parsed. */
struct conv_spec {
	char flags[8];
	size_t nflags;
	int width; /* -1: none */
	int prec;  /* -1: none */
	char length[3];
	char conv;
};

static bool spec_has_flag(const struct conv_spec *cs, char f)
{
	return memchr(cs->flags, f, cs->nflags) != NULL;
}

/*
 * Parses the conversion after a '%' at fmt, taking `*` widths and
 * precisions from ap. Returns the position after the conversion character.
 */
static const char *parse_spec(const char *fmt, struct conv_spec *cs,
			      va_list *ap)
{
	size_t nlen = 0;

	memset(cs, 0, sizeof(*cs));
	cs->width = cs->prec = -1;
	while (*fmt && strchr("-+ #0", *fmt)) {
		if (cs->nflags == sizeof(cs->flags))
			BUG("printf_inert: too many flags");
		cs->flags[cs->nflags++] = *fmt++;
	}
	if (*fmt == '*') {
		cs->width = va_arg(*ap, int);
		fmt++;
		if (cs->width < 0) { /* as printf: a '-' flag */
			if (cs->width == INT_MIN ||
			    cs->nflags == sizeof(cs->flags))
				BUG("printf_inert: bad width");
			cs->width = -cs->width;
			cs->flags[cs->nflags++] = '-';
		}
	} else {
		for (cs->width = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
			cs->width = cs->width * 10 + (*fmt - '0');
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			cs->prec = va_arg(*ap, int);
			fmt++;
		} else {
			for (cs->prec = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
				cs->prec = cs->prec * 10 + (*fmt - '0');
		}
	}
	while (*fmt && strchr("hlzjtL", *fmt) && nlen < 2)
		cs->length[nlen++] = *fmt++;
	cs->conv = *fmt;
	if (!cs->conv || !strchr("diuoxXcspfFeEgGaA", cs->conv))
		BUG("printf_inert: unsupported conversion '%c'", cs->conv);
	return fmt + 1;
}

/* Appends text escaped, padded to the spec's width with spaces. */
static void add_padded(struct strbuf *sb, const struct conv_spec *cs,
		       const char *p, size_t n, unsigned flags)
{
	size_t start = sb->len, pad;

	strbuf_add_inert_mem(sb, p, n, flags);
	if (cs->width <= 0 || sb->len - start >= (size_t)cs->width)
		return;
	pad = (size_t)cs->width - (sb->len - start);
	strbuf_grow(sb, pad);
	if (!spec_has_flag(cs, '-')) {
		memmove(sb->buf + start + pad, sb->buf + start,
			sb->len - start);
		memset(sb->buf + start, ' ', pad);
	} else {
		memset(sb->buf + sb->len, ' ', pad);
	}
	strbuf_setlen(sb, sb->len + pad);
}

/*
 * The spec back as a format for one value, with `*` already resolved:
 * "%" flags width "." precision length conversion.
 */
static void spec_format(const struct conv_spec *cs, struct strbuf *out)
{
	strbuf_addch(out, '%');
	strbuf_add(out, cs->flags, cs->nflags);
	if (cs->width > 0)
		strbuf_addu(out, (unsigned long)cs->width);
	if (cs->prec >= 0) {
		strbuf_addch(out, '.');
		strbuf_addu(out, (unsigned long)cs->prec);
	}
	strbuf_addstr(out, cs->length);
	strbuf_addch(out, cs->conv);
}

/*
 * One value through strbuf_vaddf. The format is not a literal: it is one
 * conversion that parse_spec() read from the caller's (checked, literal)
 * format and spec_format() wrote back, and its argument was fetched with
 * the type that conversion names; hence the warning is off here alone.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void add_value(struct strbuf *sb, const char *spec, ...)
{
	va_list ap;

	va_start(ap, spec);
	strbuf_vaddf(sb, spec, ap);
	va_end(ap);
}
#pragma GCC diagnostic pop

static void add_integer(struct strbuf *sb, const struct conv_spec *cs,
			const char *spec, va_list *ap)
{
	bool sgn = cs->conv == 'd' || cs->conv == 'i';
	const char *l = cs->length;

	if (!strcmp(l, "l"))
		sgn ? add_value(sb, spec, va_arg(*ap, long))
		    : add_value(sb, spec, va_arg(*ap, unsigned long));
	else if (!strcmp(l, "ll"))
		sgn ? add_value(sb, spec, va_arg(*ap, long long))
		    : add_value(sb, spec, va_arg(*ap, unsigned long long));
	else if (!strcmp(l, "z"))
		sgn ? add_value(sb, spec, va_arg(*ap, ssize_t))
		    : add_value(sb, spec, va_arg(*ap, size_t));
	else if (!strcmp(l, "j"))
		sgn ? add_value(sb, spec, va_arg(*ap, intmax_t))
		    : add_value(sb, spec, va_arg(*ap, uintmax_t));
	else if (!strcmp(l, "t"))
		add_value(sb, spec, va_arg(*ap, ptrdiff_t));
	else if (!*l || !strcmp(l, "h") || !strcmp(l, "hh"))
		sgn ? add_value(sb, spec, va_arg(*ap, int))
		    : add_value(sb, spec, va_arg(*ap, unsigned int));
	else
		BUG("printf_inert: bad length '%s'", l);
}

static void add_conversion(struct strbuf *sb, const struct conv_spec *cs,
			   va_list *ap, unsigned flags)
{
	struct strbuf spec = STRBUF_INIT;
	const char *s;
	char c;

	spec_format(cs, &spec);
	switch (cs->conv) {
	case 's':
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		add_padded(sb, cs, s,
			   cs->prec >= 0 ? strnlen(s, (size_t)cs->prec)
					 : strlen(s),
			   flags);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		add_padded(sb, cs, &c, 1, flags);
		break;
	case 'p':
		add_value(sb, spec.buf, va_arg(*ap, void *));
		break;
	case 'f':
	case 'F':
	case 'e':
	case 'E':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		if (!strcmp(cs->length, "L"))
			add_value(sb, spec.buf, va_arg(*ap, long double));
		else
			add_value(sb, spec.buf, va_arg(*ap, double));
		break;
	default:
		add_integer(sb, cs, spec.buf, ap);
	}
	strbuf_release(&spec);
}

void strbuf_vaddf_inert_flags(struct strbuf *sb, unsigned flags,
			      const char *fmt, va_list ap)
{
	va_list cp;

	va_copy(cp, ap);
	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		struct conv_spec cs;

		if (!pct) {
			strbuf_addstr(sb, fmt);
			break;
		}
		strbuf_add(sb, fmt, (size_t)(pct - fmt));
		if (pct[1] == '%') {
			strbuf_addch(sb, '%');
			fmt = pct + 2;
			continue;
		}
		fmt = parse_spec(pct + 1, &cs, &cp);
		add_conversion(sb, &cs, &cp, flags);
	}
	va_end(cp);
}

void strbuf_vaddf_inert(struct strbuf *sb, const char *fmt, va_list ap)
{
	strbuf_vaddf_inert_flags(sb, 0, fmt, ap);
}

void strbuf_addf_inert(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf_inert(sb, fmt, ap);
	va_end(ap);
}

AG_PRINTF(2, 0) static int vfprintf_inert(FILE *fp, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	bool ok;
	int n;

	strbuf_vaddf_inert(&sb, fmt, ap);
	ok = fwrite(sb.buf, 1, sb.len, fp) == sb.len && sb.len <= INT_MAX;
	n = ok ? (int)sb.len : -1;
	strbuf_release(&sb);
	return n;
}

int fprintf_inert(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf_inert(fp, fmt, ap);
	va_end(ap);
	return n;
}

int printf_inert(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf_inert(stdout, fmt, ap);
	va_end(ap);
	return n;
}
