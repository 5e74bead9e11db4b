/* test-profile-growing.c - a live profile read by a worker while it grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Also built under ThreadSanitizer by `make check-tsan`.
 */

#include "fc-call-tree.h"
#include "fc-flame-layout.h"
#include "fc-frame-location.h"
#include "fc-profile.h"
#include "fc-test-util.h"

#define N_SAMPLES   100000
#define BASE_NS     G_GINT64_CONSTANT (1700000000000000000)
#define INTERVAL_NS G_GINT64_CONSTANT (1000000)

typedef struct {
  FcProfile *profile;
  gint       done;          /* atomic: the builder has finished */
  guint      rounds;        /* the worker's, read after the join */
  guint      distinct;      /* how many different prefixes the worker saw */
  GMutex     lock;
  GCond      cond;
  guint      checked;       /* under lock: the longest prefix the worker has checked */
} Shared;

/* Everything the worker asserts holds for any published prefix: samples are
 * sample i at BASE_NS + i ms, so a prefix of n samples is exactly the time
 * range [BASE_NS, BASE_NS + n ms). */
static void
check_prefix (FcProfile *profile,
              guint      n)
{
  gint64 end_ns = BASE_NS + (gint64) n * INTERVAL_NS;
  g_autoptr(FcCallTree) top_down = fc_call_tree_new (profile, -1, BASE_NS, end_ns, FALSE);
  g_autoptr(FcCallTree) bottom_up = fc_call_tree_new (profile, -1, BASE_NS, end_ns, TRUE);
  const FcSample *samples;
  guint n_threads;
  guint n_now;
  guint in_threads = 0;
  guint first, last;

  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (top_down)), ==, n);
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (bottom_up)), ==, n);

  n_threads = fc_profile_get_n_threads (profile);
  for (guint32 t = 0; t < n_threads; t++)
    {
      const guint32 *idx;
      guint n_idx;

      fc_profile_find_range (profile, t, BASE_NS, end_ns, &first, &last);
      in_threads += last - first;

      /* the thread table first (a publish puts it out after the indexes, so
       * indexes read later hold at least its count), then the indexes, then
       * the samples they point into */
      guint n_thread = fc_profile_get_thread (profile, t)->n_samples;
      idx = fc_profile_get_thread_samples (profile, t, &n_idx);
      samples = fc_profile_get_samples (profile, &n_now);
      g_assert_cmpuint (n_idx, >=, n_thread);
      for (guint i = first; i < last; i++)
        {
          g_assert_cmpuint (idx[i], <, n_now);
          g_assert_cmpuint (samples[idx[i]].thread, ==, t);
          g_assert_cmpint (samples[idx[i]].timestamp_ns, ==, BASE_NS + (gint64) idx[i] * INTERVAL_NS);
          g_assert_cmpuint (samples[idx[i]].stack, <, fc_profile_get_n_stacks (profile));
        }
    }
  g_assert_cmpuint (in_threads, ==, n);

  fc_profile_find_range (profile, G_MAXUINT32, BASE_NS, end_ns, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (last, ==, n);

  /* a box's frame and its label resolve whatever was published after */
  {
    g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, -1);
    guint n_boxes = 0;
    char buf[64];

    for (guint r = 0; r < fc_flame_layout_get_n_rows (layout); r++)
      {
        FcFlameBox box;

        for (gboolean more = fc_flame_layout_row_first_box (layout, r, G_MININT64, &box);
             more;
             more = fc_flame_layout_row_next_box (layout, &box, &box))
          {
            g_assert_nonnull (fc_profile_frame_label (profile, box.frame, buf, sizeof buf));
            n_boxes++;
          }
      }
    g_assert_true (n == 0 || n_boxes > 0);
    g_assert_cmpuint (n_boxes, ==, fc_flame_layout_count_boxes (layout));
  }
}

static gpointer
reader_thread (gpointer data)
{
  Shared *shared = data;
  guint last_n = 0;
  gboolean finished;

  do
    {
      guint n;

      finished = g_atomic_int_get (&shared->done);
      n = fc_profile_get_n_samples (shared->profile);
      g_assert_cmpuint (n, >=, last_n);
      if (n != last_n || shared->rounds == 0)
        shared->distinct++;
      last_n = n;

      check_prefix (shared->profile, n);
      shared->rounds++;
      g_mutex_lock (&shared->lock);
      shared->checked = n;
      g_cond_broadcast (&shared->cond);
      g_mutex_unlock (&shared->lock);
    }
  while (!finished);

  g_assert_cmpuint (last_n, ==, N_SAMPLES);
  return NULL;
}

static guint32
add_frame (FcProfile *profile,
           guint      i)
{
  g_autofree char *name = g_strdup_printf ("function_%u", i);
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, name);
  frame.module = fc_profile_intern (profile, i % 2 ? "libapp.so" : "app");
  frame.in_app = i % 2 ? FC_IN_APP_NO : FC_IN_APP_YES;
  return fc_profile_intern_frame (profile, &frame);
}

static void
test_growing (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GRand) rand = g_rand_new_with_seed (8);
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  Shared shared = { profile, 0, 0, 0 };
  guint n_batches = 0;
  const FcSample *early;
  GThread *reader;
  guint next = 0;
  guint n_frames = 0;

  {
    guint32 t = fc_profile_ensure_thread (profile, "1");
    guint32 frame = add_frame (profile, n_frames++);
    guint32 stack = fc_profile_intern_stack (profile, FC_STACK_EMPTY, frame);

    g_array_append_val (threads, t);
    g_array_append_val (stacks, stack);
    fc_profile_set_thread_name (profile, t, "main");
    fc_profile_append_sample (profile, BASE_NS, t, stack, 0);
    next = 1;
  }
  /* live from here: the reader only ever sees what is published */
  fc_profile_publish (profile);
  g_assert_true (fc_profile_is_live (profile));
  early = fc_profile_get_samples (profile, NULL);

  g_mutex_init (&shared.lock);
  g_cond_init (&shared.cond);
  reader = g_thread_new ("growing-reader", reader_thread, &shared);

  while (next < N_SAMPLES)
    {
      guint batch = g_rand_int_range (rand, 1, 3000);
      g_autofree guint *order = NULL;

      batch = MIN (batch, N_SAMPLES - next);
      order = g_new (guint, batch);

      /* new threads, frames, strings and deeper stacks keep arriving */
      if (g_rand_int_range (rand, 0, 4) == 0 && threads->len < 16)
        {
          g_autofree char *tid = g_strdup_printf ("%u", threads->len + 1);
          guint32 t = fc_profile_ensure_thread (profile, tid);

          g_array_append_val (threads, t);
        }
      for (guint k = 0; k < 3; k++)
        {
          guint32 parent = g_array_index (stacks, guint32, g_rand_int_range (rand, 0, stacks->len));
          guint32 stack = fc_profile_intern_stack (profile, parent, add_frame (profile, n_frames++));

          g_array_append_val (stacks, stack);
        }

      /* a batch arrives in any order; publishing puts it in time order */
      for (guint i = 0; i < batch; i++)
        order[i] = next + i;
      for (guint i = batch; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i);
          guint tmp = order[i - 1];

          order[i - 1] = order[j];
          order[j] = tmp;
        }
      for (guint i = 0; i < batch; i++)
        fc_profile_append_sample (profile, BASE_NS + (gint64) order[i] * INTERVAL_NS,
                                  g_array_index (threads, guint32, order[i] % threads->len),
                                  g_array_index (stacks, guint32, g_rand_int_range (rand, 0, stacks->len)),
                                  0);
      next += batch;

      /* unpublished samples are nobody's business yet */
      g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, next - batch);
      fc_profile_publish (profile);
      g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, next);

      /* every eighth batch, the reader checks a prefix that holds it before more come: it
       * reads while the profile grows, however the threads are scheduled */
      if (n_batches++ % 8 == 0)
        {
          g_mutex_lock (&shared.lock);
          fc_test_cond_wait_until (&shared.cond, &shared.lock, shared.checked >= next);
          g_mutex_unlock (&shared.lock);
        }
    }

  fc_profile_finish (profile);
  g_atomic_int_set (&shared.done, TRUE);
  g_thread_join (reader);

  g_test_message ("the reader built trees over %u prefixes in %u rounds", shared.distinct, shared.rounds);
  /* one prefix for every eighth batch at least (and the whole profile) */
  g_assert_cmpuint (shared.distinct, >=, (n_batches + 7) / 8);
  g_mutex_clear (&shared.lock);
  g_cond_clear (&shared.cond);
  g_assert_true (fc_profile_is_finished (profile));

  /* what a reader got before the storage grew is still there, unchanged */
  g_assert_cmpint (early[0].timestamp_ns, ==, BASE_NS);
  g_assert_cmpuint (fc_profile_get_thread (profile, 0)->n_samples, >, 0);
  check_prefix (profile, N_SAMPLES);
}

static void
test_late_sample (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  const FcSample *samples;
  guint n;

  fc_profile_append_sample (profile, 200, t, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (profile, 100, t, FC_STACK_EMPTY, 0);
  /* the first publish sorts whatever came before */
  fc_profile_publish (profile);
  samples = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (samples[0].timestamp_ns, ==, 100);
  g_assert_cmpint (samples[1].timestamp_ns, ==, 200);

  /* older than what readers already have: moved up to the published end */
  fc_profile_append_sample (profile, 300, t, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (profile, 150, t, FC_STACK_EMPTY, 0);
  fc_profile_publish (profile);
  samples = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (samples[1].timestamp_ns, ==, 200);
  g_assert_cmpint (samples[2].timestamp_ns, ==, 200);
  g_assert_cmpint (samples[3].timestamp_ns, ==, 300);
  g_assert_cmpuint (fc_profile_get_thread (profile, t)->n_samples, ==, 4);
}

static void
test_finished_is_immutable (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 t = fc_profile_ensure_thread (profile, "1");

  fc_profile_append_sample (profile, 200, t, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (profile, 100, t, FC_STACK_EMPTY, 0);
  fc_profile_finish (profile);
  g_assert_cmpint (fc_profile_get_samples (profile, NULL)[0].timestamp_ns, ==, 100);

  if (g_test_subprocess ())
    {
      fc_profile_append_sample (profile, 300, t, FC_STACK_EMPTY, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*finished*");
}

typedef struct {
  FcProfileFollower *follower;
  FcProfile         *src;
  gint               done;       /* atomic: the source has all its samples */
  guint              updates;
  GMutex             lock;
  GCond              cond;
  guint              copied;     /* under lock: samples in the copy after the last update */
} Following;

/* The window's worker: brings the copy up to date while the source grows. */
static gpointer
follow_thread (gpointer data)
{
  Following *following = data;
  FcProfile *view = fc_profile_follower_get_profile (following->follower);
  gboolean done;

  do
    {
      done = g_atomic_int_get (&following->done);
      fc_profile_follower_update (following->follower);
      following->updates++;
      g_mutex_lock (&following->lock);
      following->copied = fc_profile_get_n_samples (view);
      g_cond_broadcast (&following->cond);
      g_mutex_unlock (&following->lock);
      g_usleep (100);   /* a throttle, as a window's worker has */
    }
  while (!done);
  return NULL;
}

/* the source's thread waits until the copy holds everything published so far */
static void
wait_copied (Following *following,
             guint      n)
{
  g_mutex_lock (&following->lock);
  fc_test_cond_wait_until (&following->cond, &following->lock, following->copied >= n);
  g_mutex_unlock (&following->lock);
}

/* A view's reader of the copy: frames by function only, counts only grow. */
static gpointer
view_thread (gpointer data)
{
  Following *following = data;
  FcProfile *view = fc_profile_follower_get_profile (following->follower);
  guint last_n = 0;
  gboolean done;

  do
    {
      const FcSample *samples;
      guint n;

      done = g_atomic_int_get (&following->done);
      samples = fc_profile_get_samples (view, &n);
      g_assert_cmpuint (n, >=, last_n);
      for (guint i = last_n; i < n; i++)
        {
          const FcStackNode *leaf;
          const FcFrame *frame;

          if (samples[i].stack == FC_STACK_EMPTY)
            continue;
          leaf = fc_profile_get_stack (view, samples[i].stack);
          frame = fc_profile_get_frame (view, leaf->frame);

          g_assert_true (g_str_has_prefix (fc_profile_string (view, frame->function), "function_"));
          g_assert_false (frame->has_instruction_addr);

          /* the addresses merged into it, read while the copy grows: one of
           * the call sites (or none yet, when not published) */
          {
            FcFrameLocation location;

            if (fc_profile_get_stack_location (view, samples[i].stack, &location))
              {
                g_assert_true (location.has_instruction_addr);
                g_assert_cmpuint (location.instruction_addr, >=, 0x1000);
                g_assert_cmpuint (location.instruction_addr, <, 0x1000 + 37 * 16);
              }
          }
        }
      last_n = n;
    }
  while (!done);
  return NULL;
}

/* What a recording's live view shows: by function, as the finished view
 * will, while the recording grows on another thread. */
static void
test_follower (void)
{
  g_autoptr(FcProfile) src = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) by_function = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  Following following = { NULL, src, 0, 0 };
  guint n_waits = 0;
  FcProfile *view;
  GThread *updater, *reader;
  guint32 t1 = fc_profile_ensure_thread (src, "1");
  guint32 t2;

  fc_profile_publish (src);
  following.follower = fc_profile_follower_new (src);
  view = fc_profile_follower_get_profile (following.follower);
  g_assert_true (fc_profile_is_live (view));
  g_mutex_init (&following.lock);
  g_cond_init (&following.cond);
  updater = g_thread_new ("follower", follow_thread, &following);
  reader = g_thread_new ("view", view_thread, &following);

  for (guint batch = 0; batch < 200; batch++)
    {
      /* now and then the copy catches up before the source grows on: it follows while the
       * source grows, and has the first samples before the thread is named */
      if (batch % 50 == 0 && batch > 0)
        {
          wait_copied (&following, batch * 50);
          n_waits++;
        }
      if (batch == 50)
        fc_profile_set_thread_name (src, t1, "main");
      for (guint i = 0; i < 50; i++)
        {
          guint k = (batch * 50 + i) % 37;
          g_autofree char *name = g_strdup_printf ("function_%u", k % 7);
          FcFrame frame;
          guint32 stack;

          /* one function, several call sites: one frame per address, as a recorder interns them */
          fc_frame_init (&frame);
          frame.function = fc_profile_intern (src, name);
          frame.module = fc_profile_intern (src, "app");
          frame.has_instruction_addr = TRUE;
          frame.instruction_addr = 0x1000 + k * 16;
          stack = fc_profile_intern_stack (src, FC_STACK_EMPTY, add_frame (src, 1000 + k % 3));
          stack = fc_profile_intern_stack (src, stack, fc_profile_intern_frame (src, &frame));
          fc_profile_append_sample (src, BASE_NS + (gint64) (batch * 50 + i) * INTERVAL_NS, t1, stack, 0);
        }
      fc_profile_publish (src);
    }
  t2 = fc_profile_ensure_thread (src, "2");
  fc_profile_append_sample (src, BASE_NS + (gint64) 10000 * INTERVAL_NS, t2, FC_STACK_EMPTY, 0);
  fc_profile_finish (src);
  g_atomic_int_set (&following.done, TRUE);
  g_thread_join (updater);
  g_thread_join (reader);

  /* a copy of each prefix waited for, and the last */
  g_assert_cmpuint (n_waits, ==, 3);
  g_assert_cmpuint (following.updates, >=, n_waits + 1);
  g_mutex_clear (&following.lock);
  g_cond_clear (&following.cond);
  g_assert_cmpuint (fc_profile_follower_update (following.follower), ==, 0);
  g_assert_cmpuint (fc_profile_get_n_samples (view), ==, 10001);
  g_assert_cmpuint (fc_profile_get_n_threads (view), ==, 2);
  /* named after its first samples were copied: the copy has the name too */
  g_assert_cmpstr (fc_profile_string (view, fc_profile_get_thread (view, 0)->name), ==, "main");
  /* 37 call sites of 7 functions, under 3 callers: 7 + 3 frames */
  g_assert_cmpuint (fc_profile_get_n_frames (view), ==, 10);
  /* the same as the finished view by function */
  fc_profile_finish (view);
  by_function = fc_profile_dup_by_function (src);
  g_assert_true (fc_profile_equal_samples (by_function, view, why));
  /* and the same lines and addresses behind each box as the finished view */
  {
    const FcSample *a, *b;
    guint n_a, n_b;

    a = fc_profile_get_samples (by_function, &n_a);
    b = fc_profile_get_samples (view, &n_b);
    g_assert_cmpuint (n_a, ==, n_b);
    for (guint i = 0; i < n_a; i++)
      {
        FcFrameLocation x, y;

        if (a[i].stack == FC_STACK_EMPTY)
          continue;
        g_assert_true (fc_profile_get_stack_location (by_function, a[i].stack, &x));
        g_assert_true (fc_profile_get_stack_location (view, b[i].stack, &y));
        g_assert_cmpuint (x.several, ==, y.several);
        g_assert_cmpuint (x.instruction_addr, ==, y.instruction_addr);
        g_assert_true (fc_profile_get_frame_location (view, fc_profile_get_stack (view, b[i].stack)->frame, &y));
        /* every function has several call sites */
        g_assert_true (y.several);
      }
  }
  fc_profile_follower_unref (following.follower);
}

/* A recording's view follows chunk after chunk: each a source added while
 * the updater runs, finished and let go (source_done) when the next starts;
 * the copy is every chunk by function, one thread per id. */
static void
test_follower_chunks (void)
{
  Following following = { NULL, NULL, 0, 0 };
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func (g_object_unref);
  FcProfile *view;
  GThread *updater, *reader;
  guint n_samples = 0;

  following.follower = fc_profile_follower_new (NULL);
  view = fc_profile_follower_get_profile (following.follower);
  updater = g_thread_new ("follower", follow_thread, &following);
  reader = g_thread_new ("view", view_thread, &following);

  for (guint c = 0; c < 5; c++)
    {
      FcProfile *chunk = fc_profile_new (FC_FORMAT_V2);
      guint32 t = fc_profile_ensure_thread (chunk, "1");

      g_ptr_array_add (chunks, chunk);
      fc_profile_publish (chunk);
      fc_profile_follower_add_source (following.follower, chunk);
      for (guint batch = 0; batch < 20; batch++)
        {
          for (guint i = 0; i < 20; i++)
            {
              guint k = (c * 400 + batch * 20 + i) % 37;
              g_autofree char *name = g_strdup_printf ("function_%u", k % 7);
              FcFrame frame;

              fc_frame_init (&frame);
              frame.function = fc_profile_intern (chunk, name);
              frame.module = fc_profile_intern (chunk, "app");
              frame.has_instruction_addr = TRUE;
              frame.instruction_addr = 0x1000 + k * 16;
              fc_profile_append_sample (chunk, BASE_NS + (gint64) (c * 400 + batch * 20 + i) * INTERVAL_NS, t,
                                        fc_profile_intern_stack (chunk, FC_STACK_EMPTY,
                                                                 fc_profile_intern_frame (chunk, &frame)), 0);
              n_samples++;
            }
          fc_profile_publish (chunk);
        }
      fc_profile_finish (chunk);
      fc_profile_follower_source_done (following.follower, chunk);
    }
  g_atomic_int_set (&following.done, TRUE);
  g_thread_join (updater);
  g_thread_join (reader);

  g_assert_true (fc_profile_follower_finish (following.follower) == view);
  g_assert_true (fc_profile_is_finished (view));
  g_assert_cmpuint (fc_profile_get_n_samples (view), ==, n_samples);
  g_assert_cmpuint (fc_profile_get_n_threads (view), ==, 1);
  /* 7 functions, whatever chunk their frames came from */
  g_assert_cmpuint (fc_profile_get_n_frames (view), ==, 7);
  g_assert_cmpuint (fc_profile_follower_update (following.follower), ==, 0);
  fc_profile_follower_unref (following.follower);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/profile-growing/reader-while-appending", test_growing);
  g_test_add_func ("/core/profile-growing/late-sample", test_late_sample);
  g_test_add_func ("/core/profile-growing/finished-is-immutable", test_finished_is_immutable);
  g_test_add_func ("/core/profile-growing/follower", test_follower);
  g_test_add_func ("/core/profile-growing/follower-chunks", test_follower_chunks);

  return g_test_run ();
}
