/* SPDX-License-Identifier: MIT */
/*
 * Shared by the libFuzzer targets in tests/fuzz.  Each target feeds one
 * parser of bytes from the network or the command line, from the real
 * librb, and checks properties of what it accepts: a failed property
 * aborts, so libFuzzer keeps the input as a crash like any sanitizer report.
 */
#ifndef RB_FUZZ_H
#define RB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where property failures are told: the real stderr. */
static FILE *fuzz_report;

/*
 * rb_err() and friends print through the stdio stream stderr.  libFuzzer
 * keeps its own handle on the stream it started with and the sanitizers
 * write to file descriptor 2, so pointing the glibc variable stderr at
 * /dev/null silences only the tool's diagnostics (millions of refusals
 * per minute otherwise).  FUZZ_VERBOSE=1 keeps them, to read why an
 * input is refused when replaying it.
 */
static inline void fuzz_quiet(void)
{
	FILE *null;

	fuzz_report = stderr;
	if (getenv("FUZZ_VERBOSE"))
		return;
	null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
}

#define FUZZ_CHECK(cond)                                                                    \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(fuzz_report ? fuzz_report : stderr,                         \
				"fuzz: property failed at %s:%d: %s\n", __FILE__, __LINE__, \
				#cond);                                                     \
			abort();                                                            \
		}                                                                           \
	} while (0)

/*
 * A refusal explains itself: @err, filled with 0xa5 before the call, now
 * holds a non-empty NUL-terminated message.
 */
#define FUZZ_CHECK_MESSAGE(err, len) FUZZ_CHECK((err)[0] && memchr((err), '\0', (len)))

/* A heap copy of exactly @len bytes, so ASan flags a read past the end. */
static inline uint8_t *fuzz_dup(const uint8_t *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	FUZZ_CHECK(q);
	if (len)
		memcpy(q, p, len);
	return q;
}

#endif
