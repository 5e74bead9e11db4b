/* fc-fuzz.c - set-up every fuzz harness shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>

#include "fc-fuzz.h"

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
  return 0;
}
