/* bench-write.c - time of the V2 writer and the validator on a chunk the size of Relay's limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds in memory a model like bench-load's file (500k samples, 50k stacks,
 * 20k frames, 4 threads), then writes it as a V2 chunk, as a chunk envelope,
 * and validates it, printing the time of each and the output size. Prints
 * figures; never fails on them.
 */

#include <stdio.h>

#include "flamecast.h"
#include "fc-validate.h"
#include "fc-writer.h"

#define N_SAMPLES 500000
#define N_STACKS  50000
#define N_FRAMES  20000
#define N_THREADS 4
#define MAX_DEPTH 48
#define N_RUNS    3

static FcProfile *
build_profile (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  g_autofree guint32 *stacks = g_new (guint32, N_STACKS);
  guint32 threads[N_THREADS];
  guint32 frames[MAX_DEPTH];
  gint64 ts = G_GINT64_CONSTANT (1710805788000000000);

  fc_profile_set_meta_string (profile, "version", "2");
  fc_profile_set_meta_string (profile, "chunk_id", "0432a0a4c25f4697bf9f0a2fcbe6a814");
  fc_profile_set_meta_string (profile, "profiler_id", "4d229f1d3807421ba62a5f8bc295d836");
  fc_profile_set_meta_string (profile, "platform", "python");
  fc_profile_set_meta_string (profile, "release", "bench@1.0");
  fc_profile_set_meta_string (profile, "environment", "bench");

  for (guint i = 0; i < N_FRAMES; i++)
    {
      g_autofree char *function = g_strdup_printf ("module_%u.Class.function_%u", i % 300, i);
      g_autofree char *module = g_strdup_printf ("package.module_%u", i % 300);
      g_autofree char *filename = g_strdup_printf ("package/module_%u.py", i % 300);
      FcFrame frame;

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (profile, function);
      frame.module = fc_profile_intern (profile, module);
      frame.filename = fc_profile_intern (profile, filename);
      frame.lineno = 10 + i % 500;
      frame.in_app = i % 3 == 0 ? FC_IN_APP_YES : FC_IN_APP_NO;
      fc_profile_intern_frame (profile, &frame);
    }

  for (guint i = 0; i < N_STACKS; i++)
    {
      guint depth = g_rand_int_range (rand, 1, MAX_DEPTH + 1);

      for (guint d = 0; d < depth; d++)
        frames[d] = g_rand_int_range (rand, 0, N_FRAMES);
      stacks[i] = fc_profile_intern_stack_frames (profile, frames, depth);
    }

  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *tid = g_strdup_printf ("14023456789%04u", t);
      g_autofree char *name = g_strdup_printf ("worker-%u", t);

      threads[t] = fc_profile_ensure_thread (profile, tid);
      fc_profile_set_thread_name (profile, threads[t], name);
    }

  for (guint i = 0; i < N_SAMPLES; i++)
    {
      fc_profile_append_sample (profile, ts, threads[i % N_THREADS],
                                stacks[g_rand_int_range (rand, 0, N_STACKS)], 0);
      if (i % N_THREADS == N_THREADS - 1)
        ts += 10000000 / 100;  /* keep the chunk under 66 s */
    }

  fc_profile_finish (profile);
  return profile;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();

  profile = build_profile ();
  printf ("model: %u samples, %u stack nodes, %u frames, %u threads (built in %.2f s)\n",
          fc_profile_get_n_samples (profile), fc_profile_get_n_stacks (profile),
          fc_profile_get_n_frames (profile), fc_profile_get_n_threads (profile),
          g_timer_elapsed (timer, NULL));

  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GBytes) envelope = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      double write_s, envelope_s, validate_s;

      g_timer_start (timer);
      bytes = fc_writer_write_v2 (profile, &error);
      write_s = g_timer_elapsed (timer, NULL);
      if (bytes == NULL)
        {
          fprintf (stderr, "bench-write: %s\n", error->message);
          return 1;
        }

      g_timer_start (timer);
      envelope = fc_writer_write_chunk_envelope (profile, &error);
      envelope_s = g_timer_elapsed (timer, NULL);

      g_timer_start (timer);
      problems = fc_validate_profile (profile);
      validate_s = g_timer_elapsed (timer, NULL);

      printf ("run %u: write_v2 %.3f s (%.1f MB, %.0f MB/s), chunk envelope %.3f s, validate %.3f s (%u problems)\n",
              run + 1, write_s, g_bytes_get_size (bytes) / 1e6, g_bytes_get_size (bytes) / 1e6 / write_s,
              envelope_s, validate_s, problems->len);
    }

  return 0;
}
