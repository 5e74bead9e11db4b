/* fc-test-screenshot.h - widget tests photograph what they assert, for people to look at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

/* Iterates until @widget's window has painted what changed (a worker's
 * layout, a new allocation), at most 10 s: a widget not on screen never
 * paints, and the caller's assertions say what was missing. */
static inline void
fc_test_painted_cb (GdkFrameClock *clock,
                    gboolean      *painted)
{
  *painted = TRUE;
}

static inline gboolean
fc_test_wake_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static inline void
fc_test_wait_for_paint (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  gboolean painted = FALSE;
  guint wake;
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (fc_test_painted_cb), &painted);
  wake = g_timeout_add (100, fc_test_wake_cb, NULL);
  gtk_widget_queue_draw (widget);
  while (!painted && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
  g_signal_handler_disconnect (clock, id);
}

/* With FC_SCREENSHOT_DIR set, saves @widget as drawn to DIR/@name.png (the
 * README's and the reviewers' pictures of what a test asserts); without it,
 * nothing. */
static inline void
fc_test_screenshot (GtkWidget  *widget,
                    const char *name)
{
  const char *dir = g_getenv ("FC_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  int width, height;

  if (dir == NULL || *dir == '\0')
    return;
  /* crossfades (stack pages, toasts) take a few hundred milliseconds */
  {
    gint64 settle = g_get_monotonic_time () + 600 * 1000;
    guint wake = g_timeout_add (50, fc_test_wake_cb, NULL);

    while (g_get_monotonic_time () < settle)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (wake);
  }
  fc_test_wait_for_paint (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  file = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}
