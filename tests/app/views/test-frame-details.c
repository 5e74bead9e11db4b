/* test-frame-details.c - FcFrameDetails: fields, self/total time, callers and callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include "fc-frame-details.h"
#include "fc-test-profiles.h"
#include "fc-view-util.h"

static void
wait_until_built (FcFrameDetails *details)
{
  while (fc_frame_details_get_busy (details))
    g_main_context_iteration (NULL, TRUE);
}

static void
assert_link (GArray  *links,
             guint    index,
             guint32  frame,
             gint64   total_ms)
{
  g_assert_cmpuint (index, <, links->len);
  g_assert_cmpuint (g_array_index (links, FcFrameLink, index).frame, ==, frame);
  g_assert_cmpint (g_array_index (links, FcFrameLink, index).total_ns, ==, total_ms * FC_TEST_MS);
}

static void
test_stats (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  GtkWidget *window = gtk_window_new ();
  const FcFrameStats *stats;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (details));
  gtk_window_present (GTK_WINDOW (window));
  fc_frame_details_set_session (details, session);
  wait_until_built (details);

  stats = fc_frame_details_get_stats (details);
  g_assert_cmpuint (stats->frame, ==, FC_SESSION_NO_FRAME);

  /* foo on thread 0: 10 ms alone, 40 ms with bar; called by main, calls bar */
  fc_session_set_selected_frame (session, FC_TEST_FOO);
  wait_until_built (details);
  stats = fc_frame_details_get_stats (details);
  g_assert_cmpuint (stats->frame, ==, FC_TEST_FOO);
  g_assert_cmpint (stats->self_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->total_ns, ==, 40 * FC_TEST_MS);
  g_assert_cmpuint (stats->self_samples, ==, 1);
  g_assert_cmpuint (stats->total_samples, ==, 4);
  g_assert_cmpint (stats->all_ns, ==, 80 * FC_TEST_MS);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 1);
  assert_link (fc_frame_details_get_callers (details), 0, FC_TEST_MAIN, 40);
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 1);
  assert_link (fc_frame_details_get_callees (details), 0, FC_TEST_BAR, 30);

  /* main: the entry point, nothing calls it */
  fc_session_set_selected_frame (session, FC_TEST_MAIN);
  wait_until_built (details);
  g_assert_cmpint (stats->self_ns, ==, 0);
  g_assert_cmpint (stats->total_ns, ==, 60 * FC_TEST_MS);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 0);
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 2);
  assert_link (fc_frame_details_get_callees (details), 0, FC_TEST_FOO, 40);
  assert_link (fc_frame_details_get_callees (details), 1, FC_TEST_BAZ, 20);

  /* another thread: baz twice on thread 1, 5 ms each */
  fc_session_set_thread (session, 1);
  wait_until_built (details);
  fc_session_set_selected_frame (session, FC_TEST_BAZ);
  wait_until_built (details);
  g_assert_cmpint (stats->self_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->total_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->all_ns, ==, 10 * FC_TEST_MS);

  /* Back retraces the frames picked: baz, main, foo (and not further) */
  g_assert_true (fc_frame_details_can_go_back (details));
  g_assert_true (fc_frame_details_go_back (details));
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_TEST_MAIN);
  g_assert_true (fc_frame_details_go_back (details));
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_TEST_FOO);
  g_assert_false (fc_frame_details_can_go_back (details));
  g_assert_false (fc_frame_details_go_back (details));
  fc_session_set_thread (session, 0);
  fc_session_set_selected_frame (session, FC_TEST_FOO);
  wait_until_built (details);
  {
    /* a callee link, clicked, is a step Back undoes */
    GtkWidget *link = NULL;
    g_autoptr(GPtrArray) todo = g_ptr_array_new ();

    g_ptr_array_add (todo, details);
    while (todo->len > 0 && link == NULL)
      {
        GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);

        if (GTK_IS_BUTTON (w) && g_object_get_data (G_OBJECT (w), "frame") != NULL &&
            GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (w), "frame")) == FC_TEST_BAR)
          link = w;
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (todo, c);
      }
    g_assert_nonnull (link);
    g_signal_emit_by_name (link, "clicked");
    g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_TEST_BAR);
    g_assert_true (fc_frame_details_can_go_back (details));
    g_assert_true (fc_frame_details_go_back (details));
    g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_TEST_FOO);
  }
  fc_session_set_selected_frame (session, FC_SESSION_NO_FRAME);

  wait_until_built (details);
  g_assert_cmpuint (stats->frame, ==, FC_SESSION_NO_FRAME);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (details);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_recursion (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 walk = fc_test_frame (profile, "walk", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  const FcFrameStats *stats;

  /* walk > walk > walk: counted once in total, and once among callers:
   * the caller is who called the outermost walk, as in Sentry */
  fc_test_sample (profile, t, 0, 4, main_f, walk, walk, walk);
  fc_test_sample (profile, t, 10, 2, main_f, walk);
  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_frame_details_set_session (details, session);
  wait_until_built (details);

  fc_session_set_selected_frame (session, walk);

  wait_until_built (details);
  stats = fc_frame_details_get_stats (details);
  g_assert_cmpint (stats->total_ns, ==, 20 * FC_TEST_MS);
  g_assert_cmpint (stats->self_ns, ==, 20 * FC_TEST_MS);
  g_assert_cmpuint (stats->total_samples, ==, 2);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 1);
  g_assert_cmpuint (g_array_index (fc_frame_details_get_callers (details), FcFrameLink, 0).frame, ==, main_f);
  g_assert_cmpint (g_array_index (fc_frame_details_get_callers (details), FcFrameLink, 0).total_ns, ==, 20 * FC_TEST_MS);
  /* the innermost walk is the leaf every time: no callee */
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 0);

  fc_frame_details_set_session (details, NULL);
  g_assert_finalize_object (details);
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* the value shown next to field @name, or NULL */
static char *
field_value (GtkWidget  *widget,
             const char *name)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GPtrArray *stack = g_ptr_array_new ();

  /* every label, depth first in child order: a grid row is name, value */
  g_ptr_array_add (stack, widget);
  while (stack->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);
      g_autoptr(GPtrArray) children = g_ptr_array_new ();

      if (GTK_IS_LABEL (w))
        g_ptr_array_add (labels, w);
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (children, c);
      for (guint i = children->len; i > 0; i--)
        g_ptr_array_add (stack, g_ptr_array_index (children, i - 1));
    }
  g_ptr_array_unref (stack);

  for (guint i = 0; i + 1 < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), name) &&
        gtk_widget_get_visible (g_ptr_array_index (labels, i)))
      return g_strdup (gtk_label_get_text (g_ptr_array_index (labels, i + 1)));
  return NULL;
}

static guint32
js_frame (FcProfile  *profile,
          const char *function,
          const char *path,
          gint32      lineno,
          gint32      colno)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, function);
  frame.abs_path = fc_profile_intern (profile, path);
  frame.platform = fc_profile_intern (profile, "node");
  frame.lineno = lineno;
  frame.colno = colno;
  return fc_profile_intern_frame (profile, &frame);
}

/* Node frames without in_app, merged by function as the window shows them:
 * the details give the line and column when every call site agrees,
 * "several lines" when not, the index in the file, and say in_app was
 * inferred */
static void
test_location (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  guint32 main_f = js_frame (profile, "main", "/srv/app/index.js", 1, 1);
  guint32 work10 = js_frame (profile, "work", "/srv/app/work.js", 10, 3);
  guint32 work20 = js_frame (profile, "work", "/srv/app/work.js", 20, 3);
  guint32 parse = js_frame (profile, "parse", "/srv/app/node_modules/p/index.js", 30, 4);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  g_autofree char *location = NULL;
  g_autofree char *index = NULL;
  g_autofree char *in_app = NULL;
  g_autofree char *tooltip = NULL;
  guint32 parse_view = G_MAXUINT32;
  guint32 work_view = G_MAXUINT32;

  fc_test_sample (profile, t, 0, 3, main_f, work10, parse);
  fc_test_sample (profile, t, 10, 3, main_f, work20, parse);
  fc_profile_finish (profile);
  fc_document_add_profile (document, profile);
  view = fc_profile_dup_for_view (profile, NULL);
  for (guint32 f = 0; f < fc_profile_get_n_frames (view); f++)
    {
      const char *name = fc_profile_string (view, fc_profile_get_frame (view, f)->function);

      if (g_str_equal (name, "parse"))
        parse_view = f;
      else if (g_str_equal (name, "work"))
        work_view = f;
    }
  fc_session_set_document_full (session, document, view, NULL);
  fc_frame_details_set_session (details, session);

  fc_session_set_selected_frame (session, parse_view);
  wait_until_built (details);
  location = field_value (GTK_WIDGET (details), "Location");
  index = field_value (GTK_WIDGET (details), "Frame index");
  in_app = field_value (GTK_WIDGET (details), "In app");
  g_assert_cmpstr (location, ==, "/srv/app/node_modules/p/index.js:30:4");
  g_assert_cmpuint (g_ascii_strtoull (index, NULL, 10), ==, parse);
  g_assert_cmpstr (in_app, ==, "No (inferred)");

  fc_session_set_selected_frame (session, work_view);
  wait_until_built (details);
  g_clear_pointer (&location, g_free);
  g_clear_pointer (&index, g_free);
  g_clear_pointer (&in_app, g_free);
  location = field_value (GTK_WIDGET (details), "Location");
  index = field_value (GTK_WIDGET (details), "Frame index");
  in_app = field_value (GTK_WIDGET (details), "In app");
  g_assert_cmpstr (location, ==, "/srv/app/work.js (several lines)");
  g_assert_cmpuint (g_ascii_strtoull (index, NULL, 10), ==, work10);
  g_assert_cmpstr (in_app, ==, "Yes (inferred)");

  /* the tooltip of one call path agrees where the function's does not */
  tooltip = fc_view_frame_tooltip (view, work_view, 20 * FC_TEST_MS, 0, NULL);
  g_assert_nonnull (strstr (tooltip, "/srv/app/work.js (several lines)"));
  g_assert_nonnull (strstr (tooltip, "Application frame (inferred)"));
  g_clear_pointer (&tooltip, g_free);
  {
    const FcStackNode *node;
    guint32 leaf = FC_STACK_EMPTY;

    for (guint32 s = 1; s < fc_profile_get_n_stacks (view); s++)
      if ((node = fc_profile_get_stack (view, s))->frame == parse_view)
        leaf = s;
    tooltip = fc_view_frame_tooltip_at (view, parse_view, leaf, 20 * FC_TEST_MS, 0, NULL);
    g_assert_nonnull (strstr (tooltip, "/srv/app/node_modules/p/index.js:30:4"));
    g_assert_nonnull (strstr (tooltip, "System frame (inferred)"));
  }

  fc_frame_details_set_session (details, NULL);
  g_assert_finalize_object (details);
  g_assert_finalize_object (g_steal_pointer (&session));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/frame-details/stats", test_stats);
  g_test_add_func ("/app/frame-details/recursion", test_recursion);
  g_test_add_func ("/app/frame-details/location", test_location);

  return g_test_run ();
}
