/* test-minimap.c - the overview strip: drawing, window dragging, range selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>

#include "fc-minimap-private.h"
#include "fc-session.h"
#include "fc-test-profiles.h"

#define AT(ms) (FC_TEST_BASE_NS + (gint64) ((ms) * FC_TEST_MS))
#define WIDTH  800
#define HEIGHT 64

static void
assert_visible (FcSession *session,
                double     begin_ms,
                double     end_ms)
{
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, AT (begin_ms));
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, AT (end_ms));
}

static void
test_minimap (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(GskRenderNode) node = NULL;
  FcSession *session = fc_session_new ();
  FcMinimap *minimap;
  GtkWidget *window;
  gint64 begin, end;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);

  minimap = FC_MINIMAP (g_object_ref_sink (fc_minimap_new ()));
  fc_flame_view_set_session (FC_FLAME_VIEW (minimap), session);
  g_assert_true (fc_flame_view_get_session (FC_FLAME_VIEW (minimap)) == session);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (minimap));
  gtk_window_present (GTK_WINDOW (window));
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (minimap)) == NULL ||
         gtk_widget_get_width (GTK_WIDGET (minimap)) != WIDTH)
    g_main_context_iteration (NULL, TRUE);

  /* the whole thread, 0-210 ms (the last sample, at 200 ms, weighs 10 ms),
   * at 0.2625 ms per px */
  fc_minimap_get_range (minimap, &begin, &end);
  g_assert_cmpint (begin, ==, AT (0));
  g_assert_cmpint (end, ==, AT (210));

  /* one rectangle per run of one colour in each row: main, main;
   * foo, baz, foo, baz; bar, bar (the last sample's main and baz included) */
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (minimap), WIDTH, HEIGHT);
  g_assert_nonnull (node);
  g_assert_cmpuint (fc_minimap_get_n_drawn_rects (minimap), ==, 8);

  /* drag the visible window (50-100 ms is 190.5-381 px): 100 px are 26.25 ms */
  fc_session_zoom_to (session, AT (50), AT (100));
  fc_minimap_pointer_down (minimap, 300);
  fc_minimap_pointer_move (minimap, 50);
  assert_visible (session, 63.125, 113.125);
  fc_minimap_pointer_up (minimap, 100);
  assert_visible (session, 76.25, 126.25);
  g_assert_false (fc_session_has_selection (session));

  /* drag outside it: a time selection, whichever way; 120 px and 40 px are
   * 31.5 and 10.5 ms */
  fc_minimap_pointer_down (minimap, 120);
  fc_minimap_pointer_move (minimap, -80);
  g_assert_cmpint (fc_session_get_selection_begin_ns (session), ==, AT (10.5));
  g_assert_cmpint (fc_session_get_selection_end_ns (session), ==, AT (31.5));
  fc_minimap_pointer_up (minimap, -80);
  assert_visible (session, 76.25, 126.25);

  /* a click outside the window centers the view there: 700 px, 183.75 ms */
  fc_minimap_pointer_down (minimap, 700);
  fc_minimap_pointer_up (minimap, 1);
  assert_visible (session, 158.75, 208.75);
  g_assert_cmpint (fc_session_get_selection_begin_ns (session), ==, AT (10.5));

  /* the window cannot leave the thread's range: dragged 200 px (52.5 ms)
   * to the right, it stops at 210 ms */
  fc_minimap_pointer_down (minimap, 700);
  fc_minimap_pointer_up (minimap, 200);
  assert_visible (session, 160, 210);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (minimap);
  g_assert_finalize_object (session);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/minimap/drag-and-select", test_minimap);

  return g_test_run ();
}
