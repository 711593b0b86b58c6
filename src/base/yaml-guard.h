/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_YAML_GUARD_H
#define AG_YAML_GUARD_H

/**
 * What a YAML or JSON file must pass before libfyaml sees it.
 *
 * libfyaml 0.7.12 has two known failures on hostile text, both found by our
 * fuzzers (docs/fuzzing.md):
 *  - it loops forever on a `%` directive followed by invalid UTF-8, so the
 *    text must be strict UTF-8 (base/utf8.c);
 *  - it frees memory twice when a block-context explicit key (`? `) holds a
 *    simple key whose `:` is followed by a tab and a block indicator
 *    (`? a:<TAB>- r`), so explicit keys are refused. Neither of our file
 *    formats needs them: every key is a plain or quoted string.
 * NUL bytes are refused too: no field may hold one.
 *
 * Pure, no allocation. The scan knows enough YAML to leave quoted and block
 * scalars and comments alone, so a `?` in text is fine. Where it
 * cannot tell (a plain scalar continued on a line that starts `? `), it
 * refuses: the message says how to write it instead.
 */
#include "base/common.h"

/*
 * Returns NULL when buf[0..len) may be handed to libfyaml. Otherwise returns
 * a static one-line reason and sets *line and *col (1-based, col in bytes)
 * of the offending byte.
 */
const char *yaml_guard(const char *buf, size_t len, int *line, int *col);

#endif
