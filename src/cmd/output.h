/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_OUTPUT_H
#define AG_CMD_OUTPUT_H

/**
 * What the commands print for a person is inert by default
 * (docs/commands.md, "Output"; base/inert.h).
 *
 * The build force-includes this header in every file of the command layer
 * (src/main.c and src/cmd/, src/meson.build), so that no print site there
 * can forget it:
 *
 *   - printf() and fprintf() *are* printf_inert() and fprintf_inert():
 *     every %s and %c argument has its control characters made visible;
 *     the format is the site's own trusted text and is copied as it is;
 *   - die(), error() and warning() are inert for every program (base/die.c).
 *
 * Exact bytes go out only where a site says so, through fputs(), fwrite()
 * or putchar(): machine-readable output (--json, built with
 * strbuf_add_json_str()), fixed text (a usage), a colour code, git's
 * output passed through to a person only after strbuf_add_inert_mem(), and
 * text made inert in a strbuf (strbuf_addf_inert()). A strbuf filled with a
 * plain strbuf_addf() from an agent's string never reaches fputs().
 */
#include "base/common.h"
#include "base/inert.h"

#undef printf
#define printf(...) printf_inert(__VA_ARGS__)
#undef fprintf
#define fprintf(...) fprintf_inert(__VA_ARGS__)
/* no va_list form of the inert printf for a FILE: build a strbuf */
#undef vprintf
#define vprintf(...) BANNED(vprintf)
#undef vfprintf
#define vfprintf(...) BANNED(vfprintf)

#endif
