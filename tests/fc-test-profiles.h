/* fc-test-profiles.h - small hand-made profiles shared by the view tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

#define FC_TEST_BASE_NS G_GINT64_CONSTANT (1700000000000000000)
#define FC_TEST_MS      G_GINT64_CONSTANT (1000000)

/* frames of fc_test_profile_new() */
enum { FC_TEST_MAIN, FC_TEST_FOO, FC_TEST_BAR, FC_TEST_BAZ, FC_TEST_N_FRAMES };

static inline guint32
fc_test_frame (FcProfile  *profile,
               const char *function,
               const char *module,
               gboolean    in_app)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, function);
  frame.module = fc_profile_intern (profile, module);
  frame.filename = fc_profile_intern (profile, "app.py");
  frame.lineno = 10 + (gint32) fc_profile_get_n_frames (profile);
  frame.in_app = in_app ? FC_IN_APP_YES : FC_IN_APP_NO;
  return fc_profile_intern_frame (profile, &frame);
}

static inline void
fc_test_sample (FcProfile *profile,
                guint32    thread,
                gint64     ms,
                guint      n_frames,
                ...)
{
  guint32 frames[16];
  va_list args;

  g_assert (n_frames <= G_N_ELEMENTS (frames));
  /* given outermost first, as one reads a stack */
  va_start (args, n_frames);
  for (guint i = 0; i < n_frames; i++)
    frames[n_frames - 1 - i] = va_arg (args, guint32);
  va_end (args);

  fc_profile_append_sample (profile, FC_TEST_BASE_NS + ms * FC_TEST_MS, thread,
                            fc_profile_intern_stack_frames (profile, frames, n_frames), 0);
}

/*
 * Thread 0 ("1", named "main"), sampled every 10 ms with a pause:
 *    0 main>foo>bar    10 main>foo>bar   20 main>foo   30 main>baz
 *   40 main>foo>bar    50 (empty)       200 main>baz
 * Weights: 10 ms each, the sample at 50 weighs 20 ms (its 150 ms interval is
 * capped at twice the 10 ms median), the last weighs the median, 10 ms.
 *
 * Thread 1 ("2"): 0 main>baz, 5 main>baz (median 5 ms: 5 ms each).
 */
static inline FcProfile *
fc_test_profile_new (void)
{
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 foo = fc_test_frame (profile, "foo", "app.foo", TRUE);
  guint32 bar = fc_test_frame (profile, "bar", "libc", FALSE);
  guint32 baz = fc_test_frame (profile, "baz", "libz", FALSE);
  guint32 t0 = fc_profile_ensure_thread (profile, "1");
  guint32 t1 = fc_profile_ensure_thread (profile, "2");

  g_assert_cmpuint (main_f, ==, FC_TEST_MAIN);
  g_assert_cmpuint (foo, ==, FC_TEST_FOO);
  g_assert_cmpuint (bar, ==, FC_TEST_BAR);
  g_assert_cmpuint (baz, ==, FC_TEST_BAZ);

  fc_profile_set_thread_name (profile, t0, "main");

  fc_test_sample (profile, t0, 0, 3, main_f, foo, bar);
  fc_test_sample (profile, t0, 10, 3, main_f, foo, bar);
  fc_test_sample (profile, t0, 20, 2, main_f, foo);
  fc_test_sample (profile, t0, 30, 2, main_f, baz);
  fc_test_sample (profile, t0, 40, 3, main_f, foo, bar);
  fc_test_sample (profile, t0, 50, 0);
  fc_test_sample (profile, t0, 200, 2, main_f, baz);

  fc_test_sample (profile, t1, 0, 2, main_f, baz);
  fc_test_sample (profile, t1, 5, 2, main_f, baz);

  /* still building: tests add to it; sorted, so it reads as it is */
  fc_profile_sort_samples (profile);
  return profile;
}

G_END_DECLS
