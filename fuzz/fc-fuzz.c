/* fc-fuzz.c - set-up every fuzz harness shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-fuzz.h"
#include "fc-interop-private.h"

/* A critical (a broken precondition) or a warning while reading outside bytes
 * is a bug like a crash. G_DEBUG=fatal-criticals would end the process with
 * SIGTRAP, which libFuzzer does not catch: abort() is, and saves the input. */
static GLogWriterOutput
fatal_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  GLogWriterOutput out = g_log_writer_default (log_level, fields, n_fields, user_data);

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
  return out;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_writer_func (fatal_writer, NULL, NULL);
  /* A count of ten million (the importers' limit) reads for ~15 s of CPU
   * under ASan, and the fuzzer finds such counts at once: every run would
   * end in a timeout. The limit's own check works the same at a lower one. */
  fc_interop_set_max_expanded_samples (FC_FUZZ_MAX_EXPANDED_SAMPLES);
  return 0;
}

void
fc_fuzz_check_v2_round_trip (FcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = fc_writer_write_profile_full (profile, FC_WRITE_KEEP_CLIENT_SDK, &error);
  g_autoptr(FcProfile) again = NULL;
  gconstpointer data;
  gsize len;

  FC_FUZZ_CHECK_RESULT (written != NULL, error, "writing a profile that was read");
  if (written == NULL)
    return;

  data = g_bytes_get_data (written, &len);
  again = fc_reader_parse_payload (data, len, FC_READ_LENIENT, NULL, &error);
  if (again == NULL)
    {
      fprintf (stderr, "the writer's own output does not read back: %s\n%.*s\n",
               error->message, (int) MIN (len, 4096), (const char *) data);
      abort ();
    }
}

void
fc_fuzz_import (const uint8_t *data,
                size_t         size,
                const char    *what,
                FcFuzzRead     read,
                FcFuzzWrite    write)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = read (bytes, &error);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(FcDocument) again = NULL;

  FC_FUZZ_CHECK_RESULT (doc != NULL, error, what);
  if (doc == NULL)
    return;

  problems = fc_validate_document (doc);
  g_assert (problems != NULL);
  /* Counts expand (pprof, OTLP, folded: up to 50 million samples from a
   * few bytes). Writing millions of samples three times is slow, not
   * interesting: the writers see the smaller documents. */
  for (guint i = 0; i < fc_document_get_n_profiles (doc); i++)
    if (fc_profile_get_n_samples (fc_document_get_profile (doc, i)) > FC_FUZZ_MAX_WRITTEN_SAMPLES)
      return;
  for (guint i = 0; i < fc_document_get_n_profiles (doc); i++)
    fc_fuzz_check_v2_round_trip (fc_document_get_profile (doc, i));

  /* what was read can be written again, and that reads */
  if (write == NULL)
    return;
  written = write (doc, &error);
  FC_FUZZ_CHECK_RESULT (written != NULL, error, what);
  if (written == NULL)
    return;
  /* through the reader's own detection, which also undoes pprof's gzip */
  again = fc_reader_load_bytes (written, FC_READ_LENIENT, &error);
  if (again == NULL)
    {
      gsize len;
      const char *out = g_bytes_get_data (written, &len);

      fprintf (stderr, "%s: the writer's own output does not read back: %s\n%.*s\n",
               what, error->message, (int) MIN (len, 4096), out);
      abort ();
    }
}
