/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_INERT_H
#define AG_INERT_H

/**
 * Inert text: strings that may come from an agent (argv, branch and file
 * names, commit subjects, paths recorded in snapshots, spool records, net
 * hosts) printed for the operator with every control character made
 * visible, so that nothing an agent wrote can drive the operator's terminal
 * (move the cursor, clear the screen, overwrite a line with `\r`, set the
 * window title, reorder text with a bidi override).
 *
 *   printf_inert("%s  %s\n", when, subject);     every %s is escaped
 *   strbuf_add_inert(&sb, body, INERT_KEEP_NL);  multi-line text
 *
 * The escape form (docs/commands.md, "Output"):
 *
 *   - a backslash                              -> `\\`
 *   - a C0 control byte (0x00-0x1f), DEL, and
 *     every byte that is not part of valid UTF-8
 *     (raw C1 bytes 0x80-0x9f among them)      -> `\xHH`  (lowercase hex)
 *   - the C1 controls as UTF-8 (U+0080-U+009F),
 *     the bidi controls (U+061C, U+200E, U+200F,
 *     U+202A-U+202E, U+2066-U+2069) and the line
 *     and paragraph separators (U+2028, U+2029) -> `\uHHHH` (lowercase hex)
 *   - everything else (printable ASCII, valid UTF-8) as it is.
 *
 * Because the backslash itself is escaped, the output decodes back to the
 * input bytes in exactly one way (`\\`, `\xHH`, `\uHHHH`, or one literal
 * character), and a name that holds the text `\x1b` prints as `\\x1b`.
 * The output is valid UTF-8 and holds no C0, DEL, C1 or bidi control except
 * the newline and tab a caller keeps with INERT_KEEP_NL / INERT_KEEP_TAB.
 *
 * Pure: no I/O but the FILE * of the printf convenience; allocation
 * failures die (strbuf). Machine-readable output (`--json`) does not use
 * this: it keeps the exact values with JSON's own escaping
 * (strbuf_add_json_str()).
 */
#include "base/common.h"
#include <stdarg.h>
#include "base/strbuf.h"

enum inert_flags {
	INERT_KEEP_NL = 1 << 0,	 /* '\n' passes as it is (multi-line text) */
	INERT_KEEP_TAB = 1 << 1, /* '\t' passes as it is */
	/*
	 * '\\' passes as it is: for text read as text (the content lines of
	 * a patch), where a doubled backslash in every C string would hurt
	 * more than the one-way decoding helps. The output is still free of
	 * controls; it no longer tells a control from its escaped spelling.
	 */
	INERT_KEEP_BACKSLASH = 1 << 2,
};

/* Appends s (NUL-terminated; NULL appends nothing) escaped as above. */
void strbuf_add_inert(struct strbuf *sb, const char *s, unsigned flags);
/* The same for len bytes at p, which may hold NUL bytes (as `\x00`). */
void strbuf_add_inert_mem(struct strbuf *sb, const void *p, size_t len,
			  unsigned flags);

/*
 * For a stream read in chunks: appends the escaped form of the longest
 * prefix of the len bytes at p that does not end inside a UTF-8 sequence
 * the next chunk may complete, and returns that prefix's length. The
 * caller keeps the rest (at most 3 bytes) in front of the next chunk, and
 * passes what is left at the end to strbuf_add_inert_mem().
 */
size_t strbuf_add_inert_chunk(struct strbuf *sb, const void *p, size_t len,
			      unsigned flags);

/*
 * printf into sb, with every `%s` (and `%c`) argument escaped as
 * strbuf_add_inert(sb, arg, 0) would; the format itself is the caller's
 * trusted text and is copied as it is. For `%s` a precision bounds the
 * bytes read from the argument (as printf does) and a width pads the
 * escaped text. Supports the flags `-+ #0`, widths and precisions (also
 * `*`), the length modifiers hh h l ll z j t L, and the conversions
 * d i u o x X c s p f F e E g G a A and %%; any other conversion is a
 * BUG(). A NULL `%s` prints `(null)`.
 */
AG_PRINTF(2, 3) void strbuf_addf_inert(struct strbuf *sb, const char *fmt, ...);
AG_PRINTF(2, 0)
void strbuf_vaddf_inert(struct strbuf *sb, const char *fmt, va_list ap);
/* The same with `flags` (enum inert_flags) applied to every argument. */
AG_PRINTF(3, 0)
void strbuf_vaddf_inert_flags(struct strbuf *sb, unsigned flags,
			      const char *fmt, va_list ap);
/* The same, written to fp (stdout); returns what fwrite wrote, or -1. */
AG_PRINTF(2, 3) int fprintf_inert(FILE *fp, const char *fmt, ...);
AG_PRINTF(1, 2) int printf_inert(const char *fmt, ...);

#endif
