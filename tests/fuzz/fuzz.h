/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FUZZ_H
#define AG_FUZZ_H

/**
 * Shared helpers for the libFuzzer harnesses in tests/fuzz/.
 *
 * FUZZ_CHECK(cond, ...) aborts with a message when an invariant does not
 * hold, so libFuzzer records the input as a crash. Harnesses are built only
 * with `-Dfuzz=true` (see tests/fuzz/meson.build) and never ship.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz invariant failed: %s: ", #cond); \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
