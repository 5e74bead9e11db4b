/* fuzz-reader.c - the reader's content-detecting entry: V2, V1, envelopes, gzip
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fc_reader_load_bytes() tells the format by the content, so every format
 * that joins it is fuzzed here too. What reads is validated, written back and
 * read again: the writer's output must always be readable.
 */

#include "flamecast.h"
#include "fc-fuzz.h"

static void
load (GBytes      *bytes,
      FcReadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, flags, &error);
  g_autoptr(GPtrArray) problems = NULL;

  FC_FUZZ_CHECK_RESULT (doc != NULL, error, "fc_reader_load_bytes");
  if (doc == NULL)
    return;

  problems = fc_validate_document (doc);
  for (guint i = 0; i < fc_document_get_n_profiles (doc); i++)
    fc_fuzz_check_v2_round_trip (fc_document_get_profile (doc, i));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);

  load (bytes, FC_READ_FLAGS_NONE);
  load (bytes, FC_READ_LENIENT);
  return 0;
}
