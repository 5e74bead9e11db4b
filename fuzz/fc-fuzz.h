/* fc-fuzz.h - what every Flamecast fuzz harness shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each harness defines LLVMFuzzerTestOneInput(). Built with clang and
 * -fsanitize=fuzzer it is a libFuzzer program (`make fuzz`); built with the
 * project's compiler it links fc-fuzz-replay.c instead, which runs every file
 * of the corpus through it once (the 'fuzz' test suite of `make check`).
 */

#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "flamecast.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
/* fc-fuzz.c: makes GLib criticals and warnings abort */
int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv);

/* A failing input must say what failed and where: an error without a message
 * is a bug, and so is a failure without an error or an error on success. */
#define FC_FUZZ_CHECK_RESULT(ok, error, what)                                           \
  G_STMT_START {                                                                        \
    if ((ok) && (error) != NULL)                                                        \
      {                                                                                 \
        fprintf (stderr, "%s succeeded but set an error: %s\n", (what), (error)->message); \
        abort ();                                                                       \
      }                                                                                 \
    if (!(ok) && (error) == NULL)                                                       \
      {                                                                                 \
        fprintf (stderr, "%s failed without an error\n", (what));                       \
        abort ();                                                                       \
      }                                                                                 \
    if (!(ok) && ((error)->message == NULL || (error)->message[0] == '\0'))             \
      {                                                                                 \
        fprintf (stderr, "%s failed with an empty error message (%s %d)\n", (what),     \
                 g_quark_to_string ((error)->domain), (error)->code);                   \
        abort ();                                                                       \
      }                                                                                 \
  } G_STMT_END

/* fc-fuzz.c: the V2 writer's output for @profile must read back */
void fc_fuzz_check_v2_round_trip (FcProfile *profile);

/* documents with more samples in a profile are read, not written back */
#define FC_FUZZ_MAX_WRITTEN_SAMPLES 100000
/* what counts may expand to in the harnesses (fc_interop_set_max_expanded_samples()) */
#define FC_FUZZ_MAX_EXPANDED_SAMPLES 200000

typedef FcDocument *(*FcFuzzRead)  (GBytes      *bytes,
                                    GError     **error);
typedef GBytes     *(*FcFuzzWrite) (FcDocument  *document,
                                    GError     **error);

/* fc-fuzz.c: one import format's reader on @data, then what it read is
 * validated, written as V2 chunks that must read back, and (when the
 * format has a writer, @write) written back in the same format, which the
 * reader must detect and read again. */
void fc_fuzz_import              (const uint8_t *data,
                                  size_t         size,
                                  const char    *what,
                                  FcFuzzRead     read,
                                  FcFuzzWrite    write);
