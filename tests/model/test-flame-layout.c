/* test-flame-layout.c - flamechart runs, rows, lanes, hit-testing, search and levels of detail
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "fc-flame-layout.h"
#include "fc-sample-weights.h"
#include "fc-test-profiles.h"

static void
assert_box (FcFlameLayout    *layout,
            const FcFlameBox *box,
            guint32           frame,
            gint64            begin_ms,
            gint64            end_ms,
            guint             n_samples)
{
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, frame);
  g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, box), ==, FC_TEST_BASE_NS + begin_ms * FC_TEST_MS);
  g_assert_cmpint (fc_flame_layout_box_end_ns (layout, box), ==, FC_TEST_BASE_NS + end_ms * FC_TEST_MS);
  g_assert_cmpuint (fc_flame_layout_box_n_samples (layout, box), ==, n_samples);
}

static void
test_runs (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, 0);
  g_autofree FcFlameBox *row0 = NULL;
  g_autofree FcFlameBox *row1 = NULL;
  g_autofree FcFlameBox *row2 = NULL;
  g_autofree FcFlameBox *row3 = NULL;
  const FcFlameBox *row;
  guint n = 0;
  gint64 begin, end;

  g_assert_cmpint (fc_flame_layout_get_thread (layout), ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 3);
  g_assert_cmpuint (fc_flame_layout_get_n_lanes (layout), ==, 1);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->thread, ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->first_row, ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->n_rows, ==, 3);

  fc_flame_layout_get_extent (layout, &begin, &end);
  g_assert_cmpint (begin, ==, FC_TEST_BASE_NS);
  g_assert_cmpint (end, ==, FC_TEST_BASE_NS + 210 * FC_TEST_MS);

  /* main runs through the first five samples, the empty one at 50 ends it,
   * and the pause before 200 keeps the last sample apart */
  row = row0 = fc_flame_layout_dup_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], FC_TEST_MAIN, 0, 50, 5);
  assert_box (layout, &row[1], FC_TEST_MAIN, 200, 210, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 1);
  g_assert_cmpuint (row[0].row, ==, 0);

  row = row1 = fc_flame_layout_dup_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 4);
  assert_box (layout, &row[0], FC_TEST_FOO, 0, 30, 3);
  g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, &row[0]), ==, 30 * FC_TEST_MS);
  assert_box (layout, &row[1], FC_TEST_BAZ, 30, 40, 1);
  assert_box (layout, &row[2], FC_TEST_FOO, 40, 50, 1);
  assert_box (layout, &row[3], FC_TEST_BAZ, 200, 210, 1);
  g_assert_cmpuint (row[0].row, ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 1), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 3), ==, -1);

  row = row2 = fc_flame_layout_dup_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], FC_TEST_BAR, 0, 20, 2);
  assert_box (layout, &row[1], FC_TEST_BAR, 40, 50, 1);
  /* the box's stack is the call path main>foo>bar */
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->frame, ==, FC_TEST_BAR);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 3);
  g_assert_cmpuint (fc_flame_layout_box_stack (layout, &row[0]), ==, fc_flame_layout_box_stack (layout, &row[1]));

  g_assert_cmpuint (fc_flame_layout_count_boxes (layout), ==, 8);
  g_assert_cmpuint (fc_flame_layout_get_n_positions (layout), ==, 7);
  row3 = fc_flame_layout_dup_row (layout, 3, &n);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_hit_test (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, 0);
  FcFlameBox box;

#define AT(ms) (FC_TEST_BASE_NS + (ms) * FC_TEST_MS)
  g_assert_true (fc_flame_layout_hit_test (layout, 1, AT (35), &box));
  assert_box (layout, &box, FC_TEST_BAZ, 30, 40, 1);
  g_assert_true (fc_flame_layout_hit_test (layout, 1, AT (30), &box));
  assert_box (layout, &box, FC_TEST_BAZ, 30, 40, 1);
  g_assert_true (fc_flame_layout_hit_test (layout, 1, AT (29), &box));
  assert_box (layout, &box, FC_TEST_FOO, 0, 30, 3);
  g_assert_true (fc_flame_layout_hit_test (layout, 0, AT (205), &box));
  assert_box (layout, &box, FC_TEST_MAIN, 200, 210, 1);
  g_assert_false (fc_flame_layout_hit_test (layout, 2, AT (25), &box));
  g_assert_false (fc_flame_layout_hit_test (layout, 0, AT (60), &box));
  g_assert_false (fc_flame_layout_hit_test (layout, 0, AT (210), &box));
  g_assert_false (fc_flame_layout_hit_test (layout, 0, AT (-1), &box));
  g_assert_false (fc_flame_layout_hit_test (layout, 7, AT (5), &box));

  /* the first box ending after a time, and the next ones */
  g_assert_true (fc_flame_layout_row_first_box (layout, 1, AT (0), &box));
  assert_box (layout, &box, FC_TEST_FOO, 0, 30, 3);
  g_assert_true (fc_flame_layout_row_first_box (layout, 1, AT (45), &box));
  assert_box (layout, &box, FC_TEST_FOO, 40, 50, 1);
  g_assert_true (fc_flame_layout_row_next_box (layout, &box, &box));
  assert_box (layout, &box, FC_TEST_BAZ, 200, 210, 1);
  g_assert_false (fc_flame_layout_row_next_box (layout, &box, &box));
  g_assert_true (fc_flame_layout_row_first_box (layout, 1, AT (100), &box));
  assert_box (layout, &box, FC_TEST_BAZ, 200, 210, 1);
  g_assert_false (fc_flame_layout_row_first_box (layout, 1, AT (300), &box));

  /* a box is found again by its row and any of its positions */
  g_assert_true (fc_flame_layout_box_at_position (layout, 1, 1, &box));
  assert_box (layout, &box, FC_TEST_FOO, 0, 30, 3);
  g_assert_false (fc_flame_layout_box_at_position (layout, 2, 2, &box));
  g_assert_false (fc_flame_layout_box_at_position (layout, 0, 5, &box));
  g_assert_false (fc_flame_layout_box_at_position (layout, 0, 7, &box));
#undef AT
}

static void
test_lanes (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = NULL;
  const FcFlameLane *lane;
  g_autofree FcFlameBox *row1 = NULL;
  g_autofree FcFlameBox *row6 = NULL;
  const FcFlameBox *row;
  guint n = 0;

  /* an idle thread is left out of "all threads" */
  fc_profile_ensure_thread (profile, "3");
  layout = fc_flame_layout_new (profile, -1);

  g_assert_cmpuint (fc_flame_layout_get_n_lanes (layout), ==, 2);
  /* row 0 is lane 0's header, rows 1-3 its frames, row 4 lane 1's header */
  lane = fc_flame_layout_get_lane (layout, 0);
  g_assert_cmpuint (lane->thread, ==, 0);
  g_assert_cmpuint (lane->first_row, ==, 1);
  g_assert_cmpuint (lane->n_rows, ==, 3);
  lane = fc_flame_layout_get_lane (layout, 1);
  g_assert_cmpuint (lane->thread, ==, 1);
  g_assert_cmpuint (lane->first_row, ==, 5);
  g_assert_cmpuint (lane->n_rows, ==, 2);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 7);

  g_free (fc_flame_layout_dup_row (layout, 0, &n));
  g_assert_cmpuint (n, ==, 0);
  g_free (fc_flame_layout_dup_row (layout, 4, &n));
  g_assert_cmpuint (n, ==, 0);
  row = row1 = fc_flame_layout_dup_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (row[0].row, ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 0), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 4), ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 7), ==, -1);

  row = row6 = fc_flame_layout_dup_row (layout, 6, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], FC_TEST_BAZ, 0, 10, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, row[0].row), ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 2);
  g_assert_cmpuint (row[0].row, ==, 6);
  /* lane 1's samples come after lane 0's */
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 1)->first_position, ==, 7);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 1)->n_positions, ==, 2);
}

static void
test_recursion_and_same_frame (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V1);
  g_autoptr(FcFlameLayout) layout = NULL;
  guint32 f = fc_test_frame (profile, "f", "m", TRUE);
  guint32 g = fc_test_frame (profile, "g", "m", TRUE);
  guint32 h = fc_test_frame (profile, "h", "m", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "7");
  g_autofree FcFlameBox *row0 = NULL;
  g_autofree FcFlameBox *row1 = NULL;
  g_autofree FcFlameBox *row2 = NULL;
  const FcFlameBox *row;
  guint n = 0;

  /* g at depth 1 under f, then under h: same frame, same depth, but a
   * different caller, so two boxes */
  fc_test_sample (profile, t, 0, 3, f, g, f);
  fc_test_sample (profile, t, 1, 3, f, g, f);
  fc_test_sample (profile, t, 2, 2, f, g);
  fc_test_sample (profile, t, 3, 3, f, g, f);
  fc_test_sample (profile, t, 4, 2, h, g);
  layout = fc_flame_layout_new (profile, 0);

  row = row0 = fc_flame_layout_dup_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], f, 0, 4, 4);
  assert_box (layout, &row[1], h, 4, 5, 1);

  row = row1 = fc_flame_layout_dup_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], g, 0, 4, 4);
  assert_box (layout, &row[1], g, 4, 5, 1);

  /* the recursive f leaves for one sample and comes back: two runs */
  row = row2 = fc_flame_layout_dup_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], f, 0, 2, 2);
  assert_box (layout, &row[1], f, 3, 4, 1);
}

/* A Node or Python SDK takes no samples while the process idles: Sentry's
 * and speedscope's flamecharts draw the frames on the stack on both sides
 * of such a gap as one box, so the root does not fall apart at every gap. */
static void
test_idle_gap (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcFlameLayout) layout = NULL;
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 tick = fc_test_frame (profile, "processTicks", "node:internal", FALSE);
  guint32 a = fc_test_frame (profile, "a", "app", TRUE);
  guint32 b = fc_test_frame (profile, "b", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  g_autofree FcFlameBox *row0 = NULL;
  g_autofree FcFlameBox *row1 = NULL;
  g_autofree FcFlameBox *row2 = NULL;
  const FcFlameBox *row;
  FcFlameBox hit;
  guint n = 0;

  /* every 10 ms, idle from 30 ms to 1000 ms and from 1020 ms to 5000 ms */
  fc_test_sample (profile, t, 0, 3, main_f, tick, a);
  fc_test_sample (profile, t, 10, 3, main_f, tick, a);
  fc_test_sample (profile, t, 20, 3, main_f, tick, a);
  fc_test_sample (profile, t, 1000, 3, main_f, tick, a);
  fc_test_sample (profile, t, 1010, 3, main_f, tick, b);
  fc_test_sample (profile, t, 5000, 2, main_f, tick);
  fc_test_sample (profile, t, 5010, 2, main_f, tick);
  layout = fc_flame_layout_new (profile, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 3);

  /* main and processTicks run through both gaps: one box each, from the
   * first sample to the end of the last (5010 + the 10 ms median) */
  row = row0 = fc_flame_layout_dup_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], main_f, 0, 5020, 7);
  /* ... but it ran for what its samples stand for, not through the gaps:
   * 10 + 10 + 20 (capped) + 10 + 20 (capped) + 10 + 10 ms */
  g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, &row[0]), ==, 90 * FC_TEST_MS);
  row = row1 = fc_flame_layout_dup_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], tick, 0, 5020, 7);
  g_assert_true (fc_flame_layout_hit_test (layout, 1, FC_TEST_BASE_NS + 3000 * FC_TEST_MS, &hit));
  g_assert_true (hit.row == row[0].row && hit.first == row[0].first && hit.last == row[0].last);

  /* a goes on across the first gap; b, only after it, ends where its
   * sample's time ends (twice the median at most), not at the next sample */
  row = row2 = fc_flame_layout_dup_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], a, 0, 1010, 4);
  assert_box (layout, &row[1], b, 1010, 1030, 1);
  g_assert_false (fc_flame_layout_hit_test (layout, 2, FC_TEST_BASE_NS + 3000 * FC_TEST_MS, &hit));
  g_assert_true (fc_flame_layout_hit_test (layout, 2, FC_TEST_BASE_NS + 500 * FC_TEST_MS, &hit));
  g_assert_true (hit.first == row[0].first && hit.last == row[0].last && hit.frame == a);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[1]))->frame, ==, b);
}


/* ---- against boxes found the plain way ---- */

/* Threads whose stacks change a few frames at a time (shared callers, as
 * real programs have), now and then all at once or to nothing, sampled
 * every ~10 ms with pauses; frames repeat, so recursion and the same
 * function under another caller happen. */
static FcProfile *
random_profile (guint32 seed,
                guint   n_samples)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  guint32 frames[12];
  guint32 stacks[3][40];
  guint depths[3] = { 0 };
  gint64 times[3] = { 0 };

  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", f);

      frames[f] = fc_test_frame (profile, name, "m", f % 2 == 0);
    }
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", t + 1);

      fc_profile_ensure_thread (profile, tid);
    }

  for (guint i = 0; i < n_samples; i++)
    {
      guint t = g_rand_int_range (rand, 0, 3);
      guint32 leaf_first[40];
      guint r = g_rand_int_range (rand, 0, 100);
      guint pop = g_rand_int_range (rand, 0, 4);

      /* a fresh stack now and then: a few frames replaced from the root */
      if (r < 8)
        depths[t] = MIN (depths[t], (guint) r % 3);
      else
        depths[t] -= MIN (depths[t], pop);
      for (guint k = g_rand_int_range (rand, 0, 4); k > 0 && depths[t] < G_N_ELEMENTS (stacks[t]); k--)
        stacks[t][depths[t]++] = frames[g_rand_int_range (rand, 0, G_N_ELEMENTS (frames))];
      if (r < 3)
        depths[t] = 0;

      for (guint k = 0; k < depths[t]; k++)
        leaf_first[k] = stacks[t][depths[t] - 1 - k];
      times[t] += g_rand_int_range (rand, 0, 50) == 0 ? g_rand_int_range (rand, 100, 3000) * FC_TEST_MS
                                                      : g_rand_int_range (rand, 8, 13) * FC_TEST_MS;
      fc_profile_append_sample (profile, FC_TEST_BASE_NS + times[t], t,
                                fc_profile_intern_stack_frames (profile, leaf_first, depths[t]), 0);
    }
  fc_profile_finish (profile);
  return profile;
}

typedef struct {
  FcFlameBox box;
  gint64     begin_ns;
  gint64     end_ns;
  gint64     sampled_ns;
} RefBox;

/* per row, the boxes by a walk over every sample and depth: a box goes on
 * while the samples' stacks have the same node at its depth */
static GArray **
reference_rows (FcFlameLayout *layout)
{
  FcProfile *profile = fc_flame_layout_get_profile (layout);
  guint n_rows = fc_flame_layout_get_n_rows (layout);
  GArray **rows = g_new0 (GArray *, n_rows + 1);

  for (guint r = 0; r < n_rows; r++)
    rows[r] = g_array_new (FALSE, FALSE, sizeof (RefBox));

  for (guint l = 0; l < fc_flame_layout_get_n_lanes (layout); l++)
    {
      const FcFlameLane *lane = fc_flame_layout_get_lane (layout, l);
      g_autoptr(FcSampleWeights) weights = fc_sample_weights_new (profile, lane->thread);
      const FcSample *samples = fc_profile_get_samples (profile, NULL);

      g_assert_cmpuint (weights->n_samples, ==, lane->n_positions);
      for (guint d = 0; d < lane->n_rows; d++)
        {
          GArray *row = rows[lane->first_row + d];
          guint32 open = G_MAXUINT32;

          for (guint i = 0; i < weights->n_samples; i++)
            {
              guint32 node = samples[weights->samples[i]].stack;
              gint64 end = weights->timestamps_ns[i] + weights->durations_ns[i];

              if (fc_profile_get_stack (profile, node)->depth <= d)
                {
                  open = G_MAXUINT32;
                  continue;
                }
              while (fc_profile_get_stack (profile, node)->depth > d + 1)
                node = fc_profile_get_stack (profile, node)->parent;

              if (node == open)
                {
                  RefBox *box = &g_array_index (row, RefBox, row->len - 1);

                  box->box.last = lane->first_position + i;
                  box->end_ns = end;
                  box->sampled_ns += weights->durations_ns[i];
                }
              else
                {
                  RefBox box = { { lane->first_position + i, lane->first_position + i,
                                   fc_profile_get_stack (profile, node)->frame, lane->first_row + d },
                                 weights->timestamps_ns[i], end, weights->durations_ns[i] };

                  g_array_append_val (row, box);
                  open = node;
                }
            }
        }
    }
  return rows;
}

static void
free_reference_rows (GArray **rows)
{
  for (guint r = 0; rows[r] != NULL; r++)
    g_array_unref (rows[r]);
  g_free (rows);
}

static void
assert_same_box (const FcFlameBox *box,
                 const RefBox     *ref)
{
  g_assert_cmpuint (box->row, ==, ref->box.row);
  g_assert_cmpuint (box->first, ==, ref->box.first);
  g_assert_cmpuint (box->last, ==, ref->box.last);
  g_assert_cmpuint (box->frame, ==, ref->box.frame);
}

static const RefBox *
find_ref (GArray *row,
          guint   first)
{
  for (guint i = 0; i < row->len; i++)
    if (g_array_index (row, RefBox, i).box.first == first)
      return &g_array_index (row, RefBox, i);
  return NULL;
}

/* Every box, its times, its samples, its stack and hit-testing, row by
 * row and sample by sample, on one thread and on all threads. */
static void
test_against_reference (void)
{
  for (guint32 seed = 1; seed <= 4; seed++)
    for (gint thread = -1; thread < 3; thread++)
      {
        g_autoptr(FcProfile) profile = random_profile (seed, 3000);
        g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, thread);
        g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
        GArray **ref = reference_rows (layout);
        guint64 n_boxes = 0;
        gint64 begin, end;

        fc_flame_layout_get_extent (layout, &begin, &end);
        for (guint r = 0; r < fc_flame_layout_get_n_rows (layout); r++)
          {
            g_autofree FcFlameBox *row = NULL;
            guint n = 0;

            row = fc_flame_layout_dup_row (layout, r, &n);
            g_assert_cmpuint (n, ==, ref[r]->len);
            n_boxes += n;
            for (guint i = 0; i < n; i++)
              {
                const RefBox *expected = &g_array_index (ref[r], RefBox, i);
                FcFlameBox again;

                assert_same_box (&row[i], expected);
                g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, &row[i]), ==, expected->begin_ns);
                g_assert_cmpint (fc_flame_layout_box_end_ns (layout, &row[i]), ==, expected->end_ns);
                g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, &row[i]), ==, expected->sampled_ns);
                g_assert_cmpuint (fc_flame_layout_box_n_samples (layout, &row[i]), ==,
                                  expected->box.last - expected->box.first + 1);
                g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[i]))->frame,
                                  ==, expected->box.frame);
                g_assert_true (fc_flame_layout_box_at_position (layout, r, expected->box.last, &again));
                assert_same_box (&again, expected);
              }

            /* hit-testing, at random times and at box edges */
            for (guint q = 0; q < 200; q++)
              {
                gint64 t = begin - 5 * FC_TEST_MS + (gint64) (g_rand_double (rand) * (end - begin + 10 * FC_TEST_MS));
                const RefBox *expected = NULL;
                FcFlameBox hit;

                /* half of them on either side of a box's edges */
                if (q % 2 && n > 0)
                  {
                    const RefBox *edge = &g_array_index (ref[r], RefBox, q % n);

                    t = (q % 4 == 1 ? edge->begin_ns : edge->end_ns) - (q % 8 < 4);
                  }
                for (guint i = 0; i < ref[r]->len; i++)
                  if (g_array_index (ref[r], RefBox, i).begin_ns <= t && t < g_array_index (ref[r], RefBox, i).end_ns)
                    expected = &g_array_index (ref[r], RefBox, i);
                g_assert_cmpint (fc_flame_layout_hit_test (layout, r, t, &hit), ==, expected != NULL);
                if (expected != NULL)
                  assert_same_box (&hit, expected);
              }
          }
        g_assert_cmpuint (fc_flame_layout_count_boxes (layout), ==, n_boxes);
        free_reference_rows (ref);
      }
}

/* The spans a view draws, at zooms from the whole profile to a few
 * samples: each box a pixel wide or more comes exactly as it is (times,
 * samples, frame); narrower ones merge by the pixel column they begin in,
 * from the first one's begin to where the last one ends; no box a pixel
 * wide is merged or missing, no column where a box begins is left out,
 * and a row never gives more spans than twice its pixels. */
static void
test_levels_of_detail (void)
{
  static const double zooms[] = { 1, 3, 17, 200, 5000 };
  static const int widths[] = { 37, 300, 1280 };

  for (guint32 seed = 5; seed <= 6; seed++)
    for (gint thread = -1; thread < 1; thread++)
      {
        g_autoptr(FcProfile) profile = random_profile (seed, 20000);
        g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, thread);
        g_autoptr(FcFlameFrameCache) cache = fc_flame_frame_cache_new ();
        g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
        GArray **ref = reference_rows (layout);
        gint64 extent_begin, extent_end;

        fc_flame_layout_get_extent (layout, &extent_begin, &extent_end);
        for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
          for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
            {
              gint64 span_ns = (gint64) ((extent_end - extent_begin) / zooms[z]);
              gint64 begin_ns = extent_begin + (gint64) (g_rand_double (rand) * (extent_end - extent_begin - span_ns));
              gint64 end_ns = begin_ns + span_ns;
              double px_per_ns = widths[w] / (double) span_ns;

              for (guint r = 0; r < fc_flame_layout_get_n_rows (layout); r++)
                {
                  GArray *row = ref[r];
                  g_autofree guint8 *seen = g_new0 (guint8, row->len + 1);
                  g_autofree guint8 *columns = g_new0 (guint8, widths[w] + 2);
                  FcFlameRowIter iter;
                  FcFlameSpan span;
                  guint n_spans = 0;
                  gint64 last_begin = G_MININT64;

                  /* a cache shared by every row and zoom, or none: the same */
                  fc_flame_row_iter_init (&iter, layout, r % 2 ? cache : NULL, r, begin_ns, end_ns, px_per_ns);
                  while (fc_flame_row_iter_next (&iter, &span))
                    {
                      const RefBox *box = find_ref (row, span.box.first);
                      double x0, x1;

                      g_assert_nonnull (box);
                      assert_same_box (&span.box, box);
                      g_assert_cmpint (span.begin_ns, ==, box->begin_ns);
                      g_assert_cmpint (span.begin_ns, >, last_begin);
                      g_assert_cmpint (span.begin_ns, <, end_ns);
                      g_assert_cmpint (box->end_ns, >, begin_ns);
                      last_begin = span.begin_ns;
                      seen[box - (const RefBox *) (gpointer) row->data] = 1;
                      x0 = (double) (box->begin_ns - begin_ns) * px_per_ns;
                      x1 = (double) (box->end_ns - begin_ns) * px_per_ns;
                      if (x0 >= 0)
                        columns[(guint) x0] = 1;

                      if (!span.merged)
                        {
                          g_assert_cmpfloat (x1 - x0, >=, 1.0);
                          g_assert_cmpint (span.end_ns, ==, box->end_ns);
                        }
                      else
                        {
                          gint64 boundary = begin_ns + (gint64) ceil ((floor (x0) + 1.0) / px_per_ns);
                          const RefBox *last = box;

                          g_assert_cmpfloat (x1 - x0, <, 1.0);
                          /* to the end of the last box beginning in the column */
                          for (const RefBox *b = box; b < (const RefBox *) (gpointer) row->data + row->len &&
                               b->begin_ns < boundary; b++)
                            last = b;
                          g_assert_cmpint (span.end_ns, ==, MIN (last->end_ns, boundary));
                        }
                      n_spans++;
                    }

                  g_assert_cmpuint (n_spans, <=, 2 * widths[w] + 4);
                  for (guint i = 0; i < row->len; i++)
                    {
                      const RefBox *box = &g_array_index (row, RefBox, i);
                      double x0 = (double) (box->begin_ns - begin_ns) * px_per_ns;
                      double x1 = (double) (box->end_ns - begin_ns) * px_per_ns;

                      if (box->end_ns <= begin_ns || box->begin_ns >= end_ns)
                        continue;
                      if (x1 - x0 >= 1.0)
                        g_assert_true (seen[i]);
                      if (x0 >= 0)
                        g_assert_true (columns[(guint) x0]);
                    }
                }
            }
        free_reference_rows (ref);
      }
}

/* Search: one match per unbroken run of matching frames down a stack, in
 * time order, outer rows first; the same as looking at every box. */
static void
test_find_runs (void)
{
  g_autoptr(FcProfile) profile = random_profile (9, 5000);
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, -1);
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (RefBox));
  guint n_frames = fc_profile_get_n_frames (profile);
  g_autofree guint8 *match = g_new0 (guint8, n_frames);
  GArray **ref = reference_rows (layout);
  const gint64 *begins;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();

  for (guint f = 0; f < n_frames; f++)
    match[f] = f % 3 != 1;

  for (guint r = 0; r < fc_flame_layout_get_n_rows (layout); r++)
    for (guint i = 0; i < ref[r]->len; i++)
      {
        const RefBox *box = &g_array_index (ref[r], RefBox, i);
        gint lane = fc_flame_layout_get_lane_of_row (layout, r);
        gboolean continues = FALSE;

        if (!match[box->box.frame])
          continue;
        /* the box above, where this one begins */
        if (r > fc_flame_layout_get_lane (layout, lane)->first_row)
          for (guint j = 0; j < ref[r - 1]->len; j++)
            {
              const RefBox *above = &g_array_index (ref[r - 1], RefBox, j);

              if (above->box.first <= box->box.first && box->box.first <= above->box.last)
                continues = match[above->box.frame];
            }
        if (!continues)
          g_array_append_val (expected, *box);
      }
  /* by begin time, then lane and row */
  for (guint i = 1; i < expected->len; i++)
    for (guint j = i; j > 0; j--)
      {
        RefBox *a = &g_array_index (expected, RefBox, j - 1);
        RefBox *b = &g_array_index (expected, RefBox, j);

        if (a->begin_ns < b->begin_ns || (a->begin_ns == b->begin_ns && a->box.row <= b->box.row))
          break;
        RefBox tmp = *a;
        *a = *b;
        *b = tmp;
      }

  runs = fc_flame_layout_find_runs (layout, match, n_frames, NULL);
  g_assert_cmpuint (runs->len, ==, expected->len);
  g_assert_cmpuint (runs->len, >, 100);
  fc_flame_layout_get_sample_times (layout, &begins, NULL);
  for (guint i = 0; i < runs->len; i++)
    {
      const FcFlameBoxStart *start = &g_array_index (runs, FcFlameBoxStart, i);
      FcFlameBox box;

      g_assert_cmpuint (start->row, ==, g_array_index (expected, RefBox, i).box.row);
      g_assert_cmpuint (start->first, ==, g_array_index (expected, RefBox, i).box.first);
      g_assert_true (fc_flame_layout_box_at_position (layout, start->row, start->first, &box));
      assert_same_box (&box, &g_array_index (expected, RefBox, i));
    }

  g_cancellable_cancel (cancelled);
  g_assert_null (fc_flame_layout_find_runs (layout, match, n_frames, cancelled));
  free_reference_rows (ref);
}

static void
built_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  FcFlameLayout **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = fc_flame_layout_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = NULL;

  fc_flame_layout_new_async (profile, 0, NULL, built_cb, &layout);
  while (layout == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (fc_flame_layout_get_profile (layout) == profile);
  g_assert_cmpuint (fc_flame_layout_count_boxes (layout), ==, 8);
}

static void
test_empty (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, -1);
  g_autoptr(FcFlameLayout) missing = fc_flame_layout_new (profile, 2);
  gint64 begin = -1, end = -1;
  FcFlameRowIter iter;
  FcFlameSpan span;
  FcFlameBox box;

  g_assert_cmpuint (fc_flame_layout_count_boxes (layout), ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_lanes (missing), ==, 0);
  fc_flame_layout_get_extent (layout, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 0);
  g_assert_false (fc_flame_layout_hit_test (layout, 0, 0, &box));
  g_assert_false (fc_flame_layout_row_first_box (layout, 0, 0, &box));
  fc_flame_row_iter_init (&iter, layout, NULL, 0, 0, 100, 1.0);
  g_assert_false (fc_flame_row_iter_next (&iter, &span));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/flame-layout/runs", test_runs);
  g_test_add_func ("/core/flame-layout/hit-test", test_hit_test);
  g_test_add_func ("/core/flame-layout/lanes", test_lanes);
  g_test_add_func ("/core/flame-layout/recursion-and-same-frame", test_recursion_and_same_frame);
  g_test_add_func ("/core/flame-layout/idle-gap", test_idle_gap);
  g_test_add_func ("/core/flame-layout/against-reference", test_against_reference);
  g_test_add_func ("/core/flame-layout/levels-of-detail", test_levels_of_detail);
  g_test_add_func ("/core/flame-layout/find-runs", test_find_runs);
  g_test_add_func ("/core/flame-layout/async", test_async);
  g_test_add_func ("/core/flame-layout/empty", test_empty);

  return g_test_run ();
}
