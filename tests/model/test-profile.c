/* test-profile.c - the interned profile model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"

static guint32
add_frame (FcProfile  *p,
           const char *function)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (p, function);
  return fc_profile_intern_frame (p, &frame);
}

static void
test_intern_strings_frames (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  FcFrame frame;
  guint32 a, b, c;

  g_assert_cmpuint (fc_profile_intern (p, NULL), ==, FC_STRING_NONE);
  a = fc_profile_intern (p, "main");
  g_assert_cmpuint (a, !=, FC_STRING_NONE);
  g_assert_cmpuint (fc_profile_intern (p, "main"), ==, a);
  g_assert_cmpuint (fc_profile_intern_len (p, "mainly", 4), ==, a);
  g_assert_cmpstr (fc_profile_string (p, a), ==, "main");

  a = add_frame (p, "main");
  b = add_frame (p, "work");
  g_assert_cmpuint (a, !=, b);
  g_assert_cmpuint (add_frame (p, "main"), ==, a);

  /* Same function, another line: another frame. */
  fc_frame_init (&frame);
  frame.function = fc_profile_intern (p, "main");
  frame.lineno = 12;
  c = fc_profile_intern_frame (p, &frame);
  g_assert_cmpuint (c, !=, a);
  g_assert_cmpuint (fc_profile_get_n_frames (p), ==, 3);

  /* Enough frames to grow the table several times, all still found. */
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      guint32 id = add_frame (p, name);

      g_assert_cmpuint (add_frame (p, name), ==, id);
    }
  g_assert_cmpuint (fc_profile_get_n_frames (p), ==, 5003);
}

static void
test_stacks_prefix_tree (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  guint32 main_ = add_frame (p, "main");
  guint32 work = add_frame (p, "work");
  guint32 leaf = add_frame (p, "leaf");
  guint32 s1[] = { leaf, work, main_ };
  guint32 s2[] = { work, main_ };
  guint32 out[8];
  guint32 id1, id2;

  id1 = fc_profile_intern_stack_frames (p, s1, 3);
  id2 = fc_profile_intern_stack_frames (p, s2, 2);
  g_assert_cmpuint (fc_profile_get_stack (p, id1)->parent, ==, id2);
  g_assert_cmpuint (fc_profile_get_stack (p, id1)->depth, ==, 3);
  g_assert_cmpuint (fc_profile_intern_stack_frames (p, s1, 3), ==, id1);
  g_assert_cmpuint (fc_profile_intern_stack_frames (p, NULL, 0), ==, FC_STACK_EMPTY);
  /* root + main + work + leaf */
  g_assert_cmpuint (fc_profile_get_n_stacks (p), ==, 4);

  g_assert_cmpuint (fc_profile_stack_frames (p, id1, out, G_N_ELEMENTS (out)), ==, 3);
  g_assert_cmpuint (out[0], ==, leaf);
  g_assert_cmpuint (out[2], ==, main_);
  /* truncated copy still reports the full depth */
  g_assert_cmpuint (fc_profile_stack_frames (p, id1, out, 1), ==, 3);
  g_assert_cmpuint (out[0], ==, leaf);
}

static void
test_samples_threads_ranges (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  guint32 f = add_frame (p, "main");
  guint32 stack = fc_profile_intern_stack (p, FC_STACK_EMPTY, f);
  guint32 t1 = fc_profile_ensure_thread (p, "100");
  guint32 t2 = fc_profile_ensure_thread (p, "200");
  const guint32 *idx;
  const FcSample *samples;
  guint n, first, last;
  gint64 lo, hi;

  g_assert_cmpuint (fc_profile_ensure_thread (p, "100"), ==, t1);
  g_assert_true (fc_profile_lookup_thread (p, "200", &n));
  g_assert_cmpuint (n, ==, t2);
  g_assert_false (fc_profile_lookup_thread (p, "300", NULL));
  fc_profile_set_thread_name (p, t1, "main");
  g_assert_cmpstr (fc_profile_string (p, fc_profile_get_thread (p, t1)->name), ==, "main");

  /* out of order on purpose */
  fc_profile_append_sample (p, 3000, t1, stack, 0);
  fc_profile_append_sample (p, 1000, t1, stack, 0);
  fc_profile_append_sample (p, 2000, t2, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (p, 4000, t2, stack, 0);
  /* getters never sort: the builder does, once */
  fc_profile_sort_samples (p);

  samples = fc_profile_get_samples (p, &n);
  g_assert_cmpuint (n, ==, 4);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (samples[i - 1].timestamp_ns, <=, samples[i].timestamp_ns);

  idx = fc_profile_get_thread_samples (p, t2, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (samples[idx[0]].timestamp_ns, ==, 2000);
  g_assert_cmpint (fc_profile_get_thread (p, t1)->first_ns, ==, 1000);
  g_assert_cmpint (fc_profile_get_thread (p, t1)->last_ns, ==, 3000);

  fc_profile_find_range (p, t1, 1500, 3001, &first, &last);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (last, ==, 2);
  fc_profile_find_range (p, G_MAXUINT32, 0, 2500, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (last, ==, 2);

  /* appending in order keeps the per-thread index live */
  fc_profile_append_sample (p, 5000, t1, stack, 0);
  idx = fc_profile_get_thread_samples (p, t1, &n);
  g_assert_cmpuint (n, ==, 3);
  samples = fc_profile_get_samples (p, NULL);
  g_assert_cmpint (samples[idx[2]].timestamp_ns, ==, 5000);

  fc_profile_get_time_range (p, &lo, &hi);
  g_assert_cmpint (lo, ==, 1000);
  g_assert_cmpint (hi, ==, 5000);
}

static FcProfile *
make_profile (void)
{
  FcProfile *p = fc_profile_new (FC_FORMAT_V2);
  guint32 a = add_frame (p, "a");
  guint32 b = add_frame (p, "b");
  guint32 sa[] = { b, a };
  guint32 stack = fc_profile_intern_stack_frames (p, sa, 2);
  guint32 t = fc_profile_ensure_thread (p, "1");

  fc_profile_set_meta_string (p, "platform", "native");
  fc_profile_set_meta_string (p, "release", "1.0");
  for (guint i = 0; i < 10; i++)
    fc_profile_append_sample (p, 1000000000 + i * 10000000, t, i % 2 ? stack : fc_profile_get_stack (p, stack)->parent, 0);
  return p;
}

static void
test_copy_import_equal (void)
{
  g_autoptr(FcProfile) p = make_profile ();
  g_autoptr(FcProfile) all = fc_profile_copy_range (p, 0, 0);
  g_autoptr(FcProfile) part = fc_profile_copy_range (p, 1000000000, 1050000000);
  g_autoptr(FcProfile) merged = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GString) why = g_string_new (NULL);

  g_assert_true (fc_profile_equal_samples (p, all, why));
  g_assert_cmpstr (fc_profile_get_platform (all), ==, "native");
  g_assert_cmpuint (fc_profile_get_n_samples (part), ==, 5);
  g_assert_false (fc_profile_equal_samples (p, part, why));
  g_assert_nonnull (strstr (why->str, "10 samples vs 5"));

  fc_profile_import (merged, part, 0, 0);
  fc_profile_import (merged, p, 1050000000, 2000000000);
  g_assert_true (fc_profile_equal_samples (p, merged, why));
  /* the same frames, not copies of them */
  g_assert_cmpuint (fc_profile_get_n_frames (merged), ==, 2);
  g_assert_cmpuint (fc_profile_get_n_stacks (merged), ==, 3);
}

static void
test_dup_by_function (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) byfn = NULL;
  guint32 t = fc_profile_ensure_thread (p, "1");
  guint32 leaf = add_frame (p, "leaf");
  guint32 anon[2];
  FcFrame frame;

  /* main calls leaf from two lines; two address-only frames stay apart */
  for (guint i = 0; i < 2; i++)
    {
      guint32 stack[2];

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (p, "main");
      frame.lineno = 10 + i;
      frame.has_instruction_addr = TRUE;
      frame.instruction_addr = 0x1000 + i;
      stack[0] = leaf;
      stack[1] = fc_profile_intern_frame (p, &frame);
      fc_profile_append_sample (p, i * 10, t, fc_profile_intern_stack_frames (p, stack, 2), 0);

      fc_frame_init (&frame);
      frame.has_instruction_addr = TRUE;
      frame.instruction_addr = 0x2000 + i;
      anon[i] = fc_profile_intern_frame (p, &frame);
      fc_profile_append_sample (p, 100 + i * 10, t, fc_profile_intern_stack (p, FC_STACK_EMPTY, anon[i]), 0);
    }

  g_assert_cmpuint (fc_profile_get_n_frames (p), ==, 5);
  byfn = fc_profile_dup_by_function (p);
  g_assert_cmpuint (fc_profile_get_n_samples (byfn), ==, 4);
  /* leaf, main, and the two anonymous addresses */
  g_assert_cmpuint (fc_profile_get_n_frames (byfn), ==, 4);
  /* root, main, main>leaf, anon0, anon1 */
  g_assert_cmpuint (fc_profile_get_n_stacks (byfn), ==, 5);
  g_assert_cmpint (fc_profile_get_frame (byfn, 1)->lineno, ==, FC_LINE_NONE);
}

/* "a>b>c" for stack @stack, by function name */
static char *
function_path (FcProfile *p,
               guint32    stack)
{
  GString *path = g_string_new (NULL);

  for (; stack != FC_STACK_EMPTY; stack = fc_profile_get_stack (p, stack)->parent)
    {
      const char *name = fc_profile_string (p, fc_profile_get_frame (p, fc_profile_get_stack (p, stack)->frame)->function);

      g_string_prepend (path, ">");
      g_string_prepend (path, name);
    }
  return g_string_free (path, FALSE);
}

/* A copy pushes new stack nodes without a lookup until two frames become
 * one; a merge after thousands of nodes must still find every node that
 * was pushed, and none may be there twice. */
static void
test_by_function_late_merge (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) byfn = NULL;
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  guint32 t = fc_profile_ensure_thread (p, "1");
  const FcSample *src_samples, *samples;
  guint n;

  /* distinct frames (one line each) in deep stacks, then the same functions
   * at other lines: their stacks merge into the first ones */
  for (guint line = 1; line <= 2; line++)
    for (guint i = 0; i < 400; i++)
      {
        guint32 frames[24];
        guint depth = 1 + g_rand_int_range (rand, 0, G_N_ELEMENTS (frames));
        FcFrame frame;

        for (guint k = 0; k < depth; k++)
          {
            g_autofree char *name = g_strdup_printf ("f%d", g_rand_int_range (rand, 0, line == 1 ? 300 : 30));

            fc_frame_init (&frame);
            frame.function = fc_profile_intern (p, name);
            frame.lineno = line;
            frames[k] = fc_profile_intern_frame (p, &frame);
          }
        fc_profile_append_sample (p, (line * 1000 + i) * 10, t, fc_profile_intern_stack_frames (p, frames, depth), 0);
        /* the same stack again at the other line, once the first lines are all in */
        if (line == 2)
          {
            for (guint k = 0; k < depth; k++)
              {
                fc_frame_init (&frame);
                frame.function = fc_profile_get_frame (p, frames[k])->function;
                frame.lineno = 1;
                frames[k] = fc_profile_intern_frame (p, &frame);
              }
            fc_profile_append_sample (p, (line * 1000 + i) * 10 + 5, t,
                                      fc_profile_intern_stack_frames (p, frames, depth), 0);
          }
      }
  fc_profile_finish (p);

  byfn = fc_profile_dup_by_function (p);
  src_samples = fc_profile_get_samples (p, &n);
  samples = fc_profile_get_samples (byfn, NULL);
  /* frames merged: the nodes are the copy's own */
  g_assert_true (samples != src_samples);
  g_assert_true (fc_profile_get_stacks (byfn, NULL) != fc_profile_get_stacks (p, NULL));
  g_assert_cmpuint (fc_profile_get_n_samples (byfn), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *want = function_path (p, src_samples[i].stack);
      g_autofree char *got = function_path (byfn, samples[i].stack);

      g_assert_cmpstr (got, ==, want);
      /* every prefix of a sampled stack, once */
      for (guint32 s = src_samples[i].stack; s != FC_STACK_EMPTY; s = fc_profile_get_stack (p, s)->parent)
        g_hash_table_add (paths, function_path (p, s));
    }
  g_assert_cmpuint (fc_profile_get_n_stacks (byfn), ==, g_hash_table_size (paths) + 1);
}

/* No two frames merge by function and the source is finished (most big
 * chunks): the view reads the source's stack nodes, samples and thread
 * indexes in place, with its own frames (no lines) and strings; each node
 * keeps its own location and says whether it was inlined there; and the
 * view outlives the source's other owners. */
static void
test_by_function_shares (void)
{
  FcProfile *p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  guint32 t1 = fc_profile_ensure_thread (p, "100");
  guint32 t2 = fc_profile_ensure_thread (p, "200");
  guint32 frames[3], inlined, outer;
  const FcStackNode *nodes;
  const FcSample *samples;
  FcFrameLocation location;
  guint n_nodes, n_samples;
  FcFrame frame;

  /* main (0x10) > run (0x100) > mix inlined into run at 0x100 */
  fc_frame_init (&frame);
  frame.has_instruction_addr = TRUE;
  frame.function = fc_profile_intern (p, "main");
  frame.lineno = 7;
  frame.instruction_addr = 0x10;
  frames[2] = fc_profile_intern_frame (p, &frame);
  frame.function = fc_profile_intern (p, "run");
  frame.lineno = 30;
  frame.instruction_addr = 0x100;
  frames[1] = fc_profile_intern_frame (p, &frame);
  frame.function = fc_profile_intern (p, "mix");
  frame.lineno = 3;
  frames[0] = fc_profile_intern_frame (p, &frame);
  inlined = fc_profile_intern_stack_frames (p, frames, 3);
  outer = fc_profile_intern_stack_frames (p, frames + 1, 2);
  fc_profile_append_sample (p, 20, t2, outer, 0);
  fc_profile_append_sample (p, 10, t1, inlined, 0);
  fc_profile_append_sample (p, 30, t1, outer, 0);
  fc_profile_finish (p);

  view = fc_profile_dup_for_view (p, NULL);
  nodes = fc_profile_get_stacks (view, &n_nodes);
  g_assert_true (nodes == fc_profile_get_stacks (p, NULL));
  g_assert_cmpuint (n_nodes, ==, fc_profile_get_n_stacks (p));
  samples = fc_profile_get_samples (view, &n_samples);
  g_assert_true (samples == fc_profile_get_samples (p, NULL));
  g_assert_cmpuint (n_samples, ==, 3);
  for (guint32 t = 0; t < 2; t++)
    {
      guint n_view, n_src;

      g_assert_true (fc_profile_get_thread_samples (view, t, &n_view) == fc_profile_get_thread_samples (p, t, &n_src));
      g_assert_cmpuint (n_view, ==, n_src);
      g_assert_cmpuint (fc_profile_get_thread (view, t)->n_samples, ==, n_src);
    }
  g_assert_cmpuint (fc_profile_get_n_frames (view), ==, 3);
  for (guint32 f = 0; f < 3; f++)
    {
      g_assert_cmpint (fc_profile_get_frame (view, f)->lineno, ==, FC_LINE_NONE);
      g_assert_true (fc_profile_get_frame_location (view, f, &location));
      g_assert_cmpint (location.lineno, ==, fc_profile_get_frame (p, f)->lineno);
      g_assert_false (location.several);
      g_assert_true (location.inlined == (f == frames[0]));
    }
  g_assert_true (fc_profile_get_stack_location (view, inlined, &location));
  g_assert_true (location.inlined);
  g_assert_cmpint (location.lineno, ==, 3);
  g_assert_true (fc_profile_get_stack_location (view, outer, &location));
  g_assert_false (location.inlined);
  g_assert_cmpint (location.lineno, ==, 30);

  /* the view holds what it reads */
  g_object_unref (p);
  samples = fc_profile_get_samples (view, NULL);
  g_assert_cmpint (samples[0].timestamp_ns, ==, 10);
  g_assert_cmpstr (fc_profile_string (view, fc_profile_get_frame (view, fc_profile_get_stack (view, samples[0].stack)->frame)->function),
                   ==, "mix");
  g_assert_cmpstr (fc_profile_string (view, fc_profile_get_thread (view, samples[1].thread)->tid), ==, "200");
}

/* A builder that reserves room interns as one that does not. */
static void
test_reserve_stacks (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  guint32 frames[3] = { add_frame (p, "c"), add_frame (p, "b"), add_frame (p, "a") };
  guint32 abc, ab;

  abc = fc_profile_intern_stack_frames (p, frames, 3);
  fc_profile_reserve_stacks (p, 100000);
  g_assert_cmpuint (fc_profile_intern_stack_frames (p, frames, 3), ==, abc);
  ab = fc_profile_intern_stack_frames (p, frames + 1, 2);
  g_assert_cmpuint (fc_profile_get_stack (p, abc)->parent, ==, ab);
  g_assert_cmpuint (fc_profile_get_n_stacks (p), ==, 4);
  /* a guess below what is there changes nothing */
  fc_profile_reserve_stacks (p, 1);
  g_assert_cmpuint (fc_profile_intern_stack_frames (p, frames, 3), ==, abc);
  fc_profile_finish (p);
  g_assert_cmpuint (fc_profile_get_n_stacks (p), ==, 4);
  g_assert_cmpuint (fc_profile_get_stack (p, abc)->depth, ==, 3);
}

/* No two frames merge: the copy's nodes are the source's, id for id (read
 * in order, not walked up from each sample), each with its own location,
 * whatever order the samples reach them in. */
static void
test_by_function_same_ids (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  guint32 t = fc_profile_ensure_thread (p, "1");
  guint32 frames[3], deep, shallow;
  FcFrameLocation location;
  FcFrame frame;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (p, name);
      frame.lineno = 10 + i;
      frames[i] = fc_profile_intern_frame (p, &frame);
    }
  shallow = fc_profile_intern_stack (p, FC_STACK_EMPTY, frames[1]);
  deep = fc_profile_intern_stack_frames (p, frames, 3);
  /* the deep stack first, then the shallow one */
  fc_profile_append_sample (p, 0, t, deep, 0);
  fc_profile_append_sample (p, 10, t, shallow, 0);

  view = fc_profile_dup_by_function (p);
  g_assert_cmpuint (fc_profile_get_n_stacks (view), ==, fc_profile_get_n_stacks (p));
  for (guint32 id = 1; id < fc_profile_get_n_stacks (p); id++)
    {
      const FcStackNode *a = fc_profile_get_stack (p, id);
      const FcStackNode *b = fc_profile_get_stack (view, id);

      g_assert_cmpuint (a->parent, ==, b->parent);
      g_assert_cmpuint (a->depth, ==, b->depth);
      g_assert_cmpstr (fc_profile_string (p, fc_profile_get_frame (p, a->frame)->function), ==,
                       fc_profile_string (view, fc_profile_get_frame (view, b->frame)->function));
      g_assert_cmpint (fc_profile_get_frame (view, b->frame)->lineno, ==, FC_LINE_NONE);
      g_assert_true (fc_profile_get_stack_location (view, id, &location));
      g_assert_cmpint (location.lineno, ==, fc_profile_get_frame (p, a->frame)->lineno);
    }
  g_assert_cmpuint (fc_profile_get_samples (view, NULL)[0].stack, ==, deep);
  g_assert_cmpuint (fc_profile_get_samples (view, NULL)[1].stack, ==, shallow);
}

/* A function inlined into its caller names the file its code is in (a
 * header), its own out-of-line code another: in a view it is one function,
 * one frame, one node (not siblings), whose location says it was inlined. */
static void
test_by_function_inlined (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  guint32 t = fc_profile_ensure_thread (p, "1");
  guint32 frames[3], stack;
  FcFrameLocation location;
  FcFrame frame;

  /* main (0x10 calls) > mix inlined at 0x100 into run (0x100) */
  fc_frame_init (&frame);
  frame.function = fc_profile_intern (p, "main");
  frame.filename = fc_profile_intern (p, "main.c");
  frame.has_instruction_addr = TRUE;
  frame.instruction_addr = 0x10;
  frames[2] = fc_profile_intern_frame (p, &frame);
  frame.function = fc_profile_intern (p, "run");
  frame.filename = fc_profile_intern (p, "run.c");
  frame.instruction_addr = 0x100;
  frames[1] = fc_profile_intern_frame (p, &frame);
  frame.function = fc_profile_intern (p, "mix");
  frame.filename = fc_profile_intern (p, "mix.h");
  frame.lineno = 3;
  frames[0] = fc_profile_intern_frame (p, &frame);
  stack = fc_profile_intern_stack_frames (p, frames, 3);
  fc_profile_append_sample (p, 0, t, stack, 0);
  /* main > run (0x120 calls) > mix, out of line, in mix.c */
  frame.function = fc_profile_intern (p, "run");
  frame.filename = fc_profile_intern (p, "run.c");
  frame.lineno = FC_LINE_NONE;
  frame.instruction_addr = 0x120;
  frames[1] = fc_profile_intern_frame (p, &frame);
  frame.function = fc_profile_intern (p, "mix");
  frame.filename = fc_profile_intern (p, "mix.c");
  frame.lineno = 20;
  frame.instruction_addr = 0x500;
  frames[0] = fc_profile_intern_frame (p, &frame);
  fc_profile_append_sample (p, 10, t, fc_profile_intern_stack_frames (p, frames, 3), 0);
  /* mix alone, out of line: never inlined there */
  fc_profile_append_sample (p, 20, t, fc_profile_intern_stack (p, FC_STACK_EMPTY, frames[0]), 0);

  view = fc_profile_dup_by_function (p);
  /* main, run, mix: one frame each */
  g_assert_cmpuint (fc_profile_get_n_frames (view), ==, 3);
  /* the root, main, main>run, main>run>mix (one node for both), mix */
  g_assert_cmpuint (fc_profile_get_n_stacks (view), ==, 5);
  for (guint32 f = 0; f < 3; f++)
    {
      const char *name = fc_profile_string (view, fc_profile_get_frame (view, f)->function);

      g_assert_true (fc_profile_get_frame_location (view, f, &location));
      /* only mix was ever inlined */
      g_assert_true (location.inlined == (g_strcmp0 (name, "mix") == 0));
    }
  /* per call path: inlined under run, not on its own */
  {
    const FcSample *samples = fc_profile_get_samples (view, NULL);

    g_assert_true (samples[0].stack == samples[1].stack);
    g_assert_true (fc_profile_get_stack_location (view, samples[0].stack, &location));
    g_assert_true (location.inlined);
    g_assert_true (location.several);
    g_assert_true (fc_profile_get_stack_location (view, samples[2].stack, &location));
    g_assert_false (location.inlined);
  }
}

static void
test_metadata (void)
{
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  GList *members;

  g_assert_true (json_parser_load_from_data (parser,
    "{\"platform\":\"python\",\"transactions\":[{\"id\":\"x\",\"active_thread_id\":259}],\"zzz\":[1,2]}", -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  members = json_object_get_members (root);
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (fc_profile_get_meta (p), l->data,
                            json_node_copy (json_object_get_member (root, l->data)));
  g_list_free (members);

  g_assert_cmpstr (fc_profile_get_platform (p), ==, "python");
  g_assert_null (fc_profile_get_release (p));
  g_assert_nonnull (fc_profile_get_transaction (p));
  g_assert_cmpstr (fc_profile_get_active_thread_id (p), ==, "259");
  g_assert_true (json_object_has_member (fc_profile_get_meta (p), "zzz"));

  fc_profile_set_start_ns (p, 42);
  g_assert_cmpint (fc_profile_get_start_ns (p), ==, 42);
}

static void
test_document_merge (void)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_ENVELOPE);
  g_autoptr(FcProfile) p = make_profile ();
  g_autoptr(FcProfile) early = fc_profile_copy_range (p, 0, 1050000000);
  g_autoptr(FcProfile) late = fc_profile_copy_range (p, 1050000000, G_MAXINT64);
  g_autoptr(FcProfile) merged = NULL;

  fc_document_add_profile (doc, late);
  fc_document_add_profile (doc, early);
  merged = fc_document_dup_merged_profile (doc);
  g_assert_true (fc_profile_equal_samples (p, merged, NULL));
  g_assert_cmpstr (fc_document_kind_to_string (fc_document_get_kind (doc)), ==, "envelope");

  fc_document_add_problem (doc, fc_problem_new (FC_PROBLEM_ERROR, "profile.samples[3]", "bad %d", 3));
  {
    g_autofree char *s = fc_problem_to_string (g_ptr_array_index (fc_document_get_problems (doc), 0));
    g_assert_cmpstr (s, ==, "error: profile.samples[3]: bad 3");
  }
}

/* Two threads sampled at one tick share a timestamp; a live source may publish
 * them in two batches. Importing batch by batch keeps both, once. */
static void
test_import_range (void)
{
  g_autoptr(FcProfile) src = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) dst = fc_profile_new (FC_FORMAT_V2);
  guint32 stack = fc_profile_intern_stack (src, FC_STACK_EMPTY, add_frame (src, "main"));
  guint32 t1 = fc_profile_ensure_thread (src, "100");
  guint32 t2 = fc_profile_ensure_thread (src, "200");
  const FcSample *samples;
  guint n;

  fc_profile_publish (src);
  fc_profile_publish (dst);
  fc_profile_append_sample (src, 1000, t1, stack, 0);
  fc_profile_append_sample (src, 2000, t1, stack, 0);
  fc_profile_publish (src);
  fc_profile_import_range (dst, src, 0, 2);
  fc_profile_publish (dst);
  fc_profile_append_sample (src, 2000, t2, stack, 0);
  fc_profile_publish (src);
  fc_profile_import_range (dst, src, 2, 1);
  fc_profile_publish (dst);

  samples = fc_profile_get_samples (dst, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (samples[2].timestamp_ns, ==, 2000);
  g_assert_cmpstr (fc_profile_string (dst, fc_profile_get_thread (dst, samples[2].thread)->tid), ==, "200");
  g_assert_cmpstr (fc_profile_string (dst, fc_profile_get_frame (dst, fc_profile_get_stack (dst, samples[2].stack)->frame)->function), ==, "main");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/profile/intern", test_intern_strings_frames);
  g_test_add_func ("/core/profile/stacks", test_stacks_prefix_tree);
  g_test_add_func ("/core/profile/samples", test_samples_threads_ranges);
  g_test_add_func ("/core/profile/copy-import", test_copy_import_equal);
  g_test_add_func ("/core/profile/metadata", test_metadata);
  g_test_add_func ("/core/profile/dup-by-function", test_dup_by_function);
  g_test_add_func ("/core/profile/by-function-inlined", test_by_function_inlined);
  g_test_add_func ("/core/profile/by-function-late-merge", test_by_function_late_merge);
  g_test_add_func ("/core/profile/by-function-same-ids", test_by_function_same_ids);
  g_test_add_func ("/core/profile/by-function-shares", test_by_function_shares);
  g_test_add_func ("/core/profile/reserve-stacks", test_reserve_stacks);
  g_test_add_func ("/core/document/merge", test_document_merge);
  g_test_add_func ("/core/profile/import-range", test_import_range);

  return g_test_run ();
}
