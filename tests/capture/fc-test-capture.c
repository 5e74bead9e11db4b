/* fc-test-capture.c - what the sampler tests check alike
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

#include "fc-profile.h"
#include "fc-test-capture.h"

static void
count_up (GHashTable *counts,
          int         tid)
{
  gpointer key = GINT_TO_POINTER (tid);

  g_hash_table_insert (counts, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
}

GHashTable *
fc_test_count_thread_samples (GPtrArray   *chunks,
                              const char  *function,
                              GHashTable **with)
{
  GHashTable *counts = g_hash_table_new (NULL, NULL);

  g_assert ((function == NULL) == (with == NULL));
  if (with != NULL)
    *with = g_hash_table_new (NULL, NULL);
  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          int tid = atoi (fc_profile_string (chunk, fc_profile_get_thread (chunk, samples[i].thread)->tid));
          guint32 frames[256];
          guint depth;

          count_up (counts, tid);
          if (function == NULL)
            continue;
          depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          for (guint k = 0; k < depth; k++)
            if (g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function),
                           function) == 0)
              {
                count_up (*with, tid);
                break;
              }
        }
    }
  return counts;
}

/**
 * fc_test_assert_ticks_add_up:
 * @summary: a wall-mode recording's summary
 * @chunks: (nullable): the recording's chunks (FcProfile), to hold the summary's counts against
 *
 * Each thread's ticks add up: every one requested was captured or lost for a reason the summary
 * names, and (with @chunks) the captured ones are the thread's samples in the recording. A
 * thread that fails, or that has no sample, is logged with its account.
 */
void
fc_test_assert_ticks_add_up (const FcCaptureSummary *summary,
                             GPtrArray              *chunks)
{
  g_autoptr(GHashTable) counts = chunks != NULL ? fc_test_count_thread_samples (chunks, NULL, NULL) : NULL;

  for (guint i = 0; i < summary->threads->len; i++)
    {
      const FcThreadSummary *t = &g_array_index (summary->threads, FcThreadSummary, i);
      guint64 in_recording = counts != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (counts, GINT_TO_POINTER (t->tid)))
                                            : t->n_samples;

      if (summary->threads->len <= 64 || t->n_samples == 0 || in_recording != t->n_samples ||
          fc_thread_summary_unaccounted (t) != 0)
        g_test_message ("thread %d %s: %" G_GUINT64_FORMAT " ticks requested, %" G_GUINT64_FORMAT " samples (%"
                        G_GUINT64_FORMAT " in the recording); lost %" G_GUINT64_FORMAT " late %" G_GUINT64_FORMAT
                        " refused %" G_GUINT64_FORMAT " too short; %" G_GUINT64_FORMAT " not Python",
                        t->tid, t->name != NULL ? t->name : "-", t->n_ticks, t->n_samples, in_recording, t->n_late,
                        t->n_refused, t->n_too_short, t->n_not_python);
      g_assert_cmpuint (t->n_samples, ==, in_recording);
      g_assert_cmpuint (t->n_samples + t->n_late + t->n_refused + t->n_too_short + t->n_not_python, ==, t->n_ticks);
      g_assert_cmpint (fc_thread_summary_unaccounted (t), ==, 0);
    }
}

gboolean
fc_test_tasks_in_syscall (GPid     pid,
                          int      nr,
                          gboolean skip_main,
                          gboolean every)
{
  g_autofree char *dir_path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/syscall", dir_path, name);
      g_autofree char *text = NULL;
      gboolean in = FALSE;

      if (skip_main && atoi (name) == pid)
        continue;
      in = g_file_get_contents (path, &text, NULL, NULL) && g_ascii_isdigit (text[0]) && atoi (text) == nr;
      if (in && !every)
        return TRUE;
      if (!in && every)
        return FALSE;
    }
  return every;
}
