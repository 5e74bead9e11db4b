/* test-frame-location.c - lines and addresses kept while frames merge by function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"

#define BASE_NS G_GINT64_CONSTANT (1700000000000000000)
#define MS      G_GINT64_CONSTANT (1000000)

static guint32
frame_at (FcProfile  *profile,
          const char *function,
          gint32      lineno,
          gint32      colno,
          gint64      addr)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = function != NULL ? fc_profile_intern (profile, function) : FC_STRING_NONE;
  frame.filename = fc_profile_intern (profile, "app.js");
  frame.lineno = lineno;
  frame.colno = colno;
  if (addr >= 0)
    {
      frame.has_instruction_addr = TRUE;
      frame.instruction_addr = (guint64) addr;
    }
  return fc_profile_intern_frame (profile, &frame);
}

/* outermost first */
static guint32
stack_of (FcProfile *view,
          guint      n,
          ...)
{
  guint32 stack = FC_STACK_EMPTY;
  va_list args;

  va_start (args, n);
  for (guint i = 0; i < n; i++)
    {
      const char *function = va_arg (args, const char *);
      guint32 found = G_MAXUINT32;

      for (guint32 s = 1; s < fc_profile_get_n_stacks (view); s++)
        {
          const FcStackNode *node = fc_profile_get_stack (view, s);

          if (node->parent == stack &&
              g_strcmp0 (fc_profile_string (view, fc_profile_get_frame (view, node->frame)->function), function) == 0)
            found = s;
        }
      g_assert_cmpuint (found, !=, G_MAXUINT32);
      stack = found;
    }
  va_end (args);
  return stack;
}

static guint32
frame_named (FcProfile  *view,
             const char *function)
{
  for (guint32 f = 0; f < fc_profile_get_n_frames (view); f++)
    if (g_strcmp0 (fc_profile_string (view, fc_profile_get_frame (view, f)->function), function) == 0)
      return f;
  g_assert_not_reached ();
}

static void
append (FcProfile *profile,
        guint32    thread,
        gint64     ms,
        guint      n,
        const guint32 *outermost_first)
{
  guint32 leaf_first[8];

  for (guint i = 0; i < n; i++)
    leaf_first[i] = outermost_first[n - 1 - i];
  fc_profile_append_sample (profile, BASE_NS + ms * MS, thread,
                            fc_profile_intern_stack_frames (profile, leaf_first, n), 0);
}

/*
 * main > work (line 10) > parse (line 30, col 4)
 * main > work (line 20) > parse (line 30, col 4)
 * main > idle (line 40)          other > idle (line 41)
 * main > 0x1000 (no name)        main > hash at 0x2000
 */
static void
test_merged (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  guint32 main_f = frame_at (profile, "main", 1, FC_LINE_NONE, -1);
  guint32 work10 = frame_at (profile, "work", 10, FC_LINE_NONE, -1);
  guint32 work20 = frame_at (profile, "work", 20, FC_LINE_NONE, -1);
  guint32 parse = frame_at (profile, "parse", 30, 4, -1);
  guint32 idle40 = frame_at (profile, "idle", 40, FC_LINE_NONE, -1);
  guint32 other = frame_at (profile, "other", 2, FC_LINE_NONE, -1);
  guint32 idle41 = frame_at (profile, "idle", 41, FC_LINE_NONE, -1);
  guint32 hash = frame_at (profile, "hash", FC_LINE_NONE, FC_LINE_NONE, 0x2000);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  FcFrameLocation location;

  append (profile, t, 0, 3, (guint32[]) { main_f, work10, parse });
  append (profile, t, 10, 3, (guint32[]) { main_f, work20, parse });
  append (profile, t, 20, 2, (guint32[]) { main_f, idle40 });
  append (profile, t, 30, 2, (guint32[]) { other, idle41 });
  append (profile, t, 40, 2, (guint32[]) { main_f, hash });
  fc_profile_finish (profile);

  view = fc_profile_dup_for_view (profile, NULL);
  /* merged: one work, one idle, lines gone from the frames themselves */
  g_assert_cmpint (fc_profile_get_frame (view, frame_named (view, "work"))->lineno, ==, FC_LINE_NONE);

  /* work: called from two lines, the first kept, flagged as several */
  g_assert_true (fc_profile_get_frame_location (view, frame_named (view, "work"), &location));
  g_assert_cmpint (location.lineno, ==, 10);
  g_assert_true (location.several);
  g_assert_cmpuint (location.source_frame, ==, work10);
  g_assert_true (fc_profile_get_stack_location (view, stack_of (view, 2, "main", "work"), &location));
  g_assert_true (location.several);

  /* parse: both call paths merged into one node agree on 30:4 */
  g_assert_true (fc_profile_get_stack_location (view, stack_of (view, 3, "main", "work", "parse"), &location));
  g_assert_false (location.several);
  g_assert_cmpint (location.lineno, ==, 30);
  g_assert_cmpint (location.colno, ==, 4);
  g_assert_cmpuint (location.source_frame, ==, parse);

  /* idle: two lines over the function, one line per call path */
  g_assert_true (fc_profile_get_frame_location (view, frame_named (view, "idle"), &location));
  g_assert_true (location.several);
  g_assert_true (fc_profile_get_stack_location (view, stack_of (view, 2, "main", "idle"), &location));
  g_assert_false (location.several);
  g_assert_cmpint (location.lineno, ==, 40);
  g_assert_true (fc_profile_get_stack_location (view, stack_of (view, 2, "other", "idle"), &location));
  g_assert_false (location.several);
  g_assert_cmpint (location.lineno, ==, 41);
  g_assert_cmpuint (location.source_frame, ==, idle41);

  /* the instruction address survives the merge */
  g_assert_true (fc_profile_get_stack_location (view, stack_of (view, 2, "main", "hash"), &location));
  g_assert_true (location.has_instruction_addr);
  g_assert_cmphex (location.instruction_addr, ==, 0x2000);
  g_assert_cmpuint (location.source_frame, ==, hash);

  /* an unmerged profile answers with the frame's own fields and id */
  g_assert_true (fc_profile_get_frame_location (profile, work20, &location));
  g_assert_cmpint (location.lineno, ==, 20);
  g_assert_false (location.several);
  g_assert_cmpuint (location.source_frame, ==, work20);
  g_assert_false (fc_profile_get_frame_location (profile, 999, &location));
  g_assert_false (fc_profile_get_stack_location (view, FC_STACK_EMPTY, &location));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/frame-location/merged", test_merged);

  return g_test_run ();
}
