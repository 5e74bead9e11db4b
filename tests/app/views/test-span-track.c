/* test-span-track.c - transactions and spans over the flamechart, in the real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "fc-format.h"
#include "fc-span-track.h"
#include "fc-window.h"
#include "fc-test-util.h"

static FcWindow *
open_and_wait (const char *relative)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", relative, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  FcWindow *window = g_object_ref (fc_window_new (NULL));

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));
  return window;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

static double
x_of (FcSession *session,
      int        width,
      gint64     ns)
{
  gint64 begin = fc_session_get_visible_begin_ns (session);
  gint64 end = fc_session_get_visible_end_ns (session);

  return (double) (ns - begin) * width / (double) (end - begin);
}

static void
painted_cb (GdkFrameClock *clock,
            gboolean      *painted)
{
  *painted = TRUE;
}

/* until the window has drawn what changed */
static void
wait_for_paint (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (painted_cb), &painted);

  gtk_widget_queue_draw (widget);
  while (!painted)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
}

static const FcSpan *
bar_with_op (FcSpanTrack     *track,
             const char      *op,
             graphene_rect_t *rect)
{
  for (guint i = 0; i < fc_span_track_get_n_bars (track); i++)
    {
      const FcSpan *span = fc_span_track_get_bar (track, i, rect);

      if (g_strcmp0 (span->op, op) == 0)
        return span;
    }
  g_assert_not_reached ();
}

/* A V2 envelope: the transaction with the chunk's profiler_id and its three
 * spans are four nested bars on the flamechart's time axis; an unrelated
 * transaction is not drawn. A click selects a span's time range, a double
 * click zooms to it, and the bars follow. */
static void
test_envelope_v2 (void)
{
  FcWindow *window = open_and_wait ("good/node-v2-spans.envelope");
  FcSession *session = fc_window_get_session (window);
  FcSpanTrack *track = fc_window_get_part (window, "span_track");
  GtkWidget *chart = GTK_WIDGET (fc_window_get_part (window, "flame_chart"));
  graphene_rect_t rect, tx_rect;
  const FcSpan *span;
  int width;

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (track)));
  g_assert_cmpuint (fc_session_get_spans (session)->len, ==, 4);
  while (fc_span_track_get_n_bars (track) != 4 || gtk_widget_get_width (GTK_WIDGET (track)) < 100)
    g_main_context_iteration (NULL, TRUE);

  /* the same width as the flamechart below it: one time axis */
  width = gtk_widget_get_width (GTK_WIDGET (track));
  g_assert_cmpint (width, ==, gtk_widget_get_width (chart));
  /* three rows: transaction, its spans, the span nested in the http one */
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (track)), ==, 3 * FC_SPAN_TRACK_ROW_HEIGHT);

  /* the transaction (0.4 s to 0.6 s) is wider than the samples: edge to edge */
  span = fc_span_track_get_bar (track, 0, &tx_rect);
  g_assert_cmpstr (span->description, ==, "job");
  g_assert_cmpfloat (tx_rect.origin.x, <=, 0);
  g_assert_cmpfloat (tx_rect.origin.x + tx_rect.size.width, >=, width);
  g_assert_cmpfloat (tx_rect.origin.y, <, FC_SPAN_TRACK_ROW_HEIGHT);

  /* each span where its times fall on the axis, one row per depth */
  span = bar_with_op (track, "http.client", &rect);
  g_assert_cmpfloat_with_epsilon (rect.origin.x, x_of (session, width, span->start_ns), 1.0);
  g_assert_cmpfloat_with_epsilon (rect.origin.x + rect.size.width, x_of (session, width, span->end_ns), 1.0);
  g_assert_cmpfloat (rect.origin.y, >=, FC_SPAN_TRACK_ROW_HEIGHT);
  g_assert_cmpfloat (rect.origin.y, <, 2 * FC_SPAN_TRACK_ROW_HEIGHT);
  span = bar_with_op (track, "serialize", &rect);
  g_assert_cmpfloat (rect.origin.y, >=, 2 * FC_SPAN_TRACK_ROW_HEIGHT);
  g_assert_cmpfloat_with_epsilon (rect.origin.x, x_of (session, width, span->start_ns), 1.0);

  /* its tooltip: description, operation, duration, trace */
  {
    g_autofree char *markup = fc_span_track_dup_tooltip_markup (track, rect.origin.x + 1, rect.origin.y + 4);
    g_autofree char *duration = fc_format_duration (span->end_ns - span->start_ns);
    g_autofree char *expected = g_strdup_printf ("<b>to_json</b>\nserialize · %s\nTrace cccccccccccccccccccccccccccccccc",
                                                 duration);

    g_assert_cmpstr (markup, ==, expected);
    g_assert_null (fc_span_track_dup_tooltip_markup (track, rect.origin.x - 5, rect.origin.y + 4));
  }

  /* a click on it selects exactly its time range in the flamechart */
  g_assert_false (fc_session_has_selection (session));
  g_assert_true (fc_span_track_click (track, rect.origin.x + rect.size.width / 2, rect.origin.y + 4, 1));
  g_assert_true (fc_session_has_selection (session));
  g_assert_cmpint (fc_session_get_selection_begin_ns (session), ==, span->start_ns);
  g_assert_cmpint (fc_session_get_selection_end_ns (session), ==, span->end_ns);
  /* the innermost span wins where bars overlap, the transaction elsewhere */
  g_assert_true (fc_span_track_span_at (track, rect.origin.x + 1, rect.origin.y + 4) == span);
  g_assert_true (fc_span_track_span_at (track, 1, tx_rect.origin.y + 4) ==
                 g_ptr_array_index (fc_session_get_spans (session), 0));
  g_assert_null (fc_span_track_span_at (track, rect.origin.x - 5, rect.origin.y + 4));
  g_assert_false (fc_span_track_click (track, rect.origin.x - 5, rect.origin.y + 4, 1));

  /* the wheel over the track moves the flamechart's time axis: Ctrl zooms
   * around the pointer (the time under it stays), otherwise it pans */
  {
    gint64 b = fc_session_get_visible_begin_ns (session);
    gint64 e = fc_session_get_visible_end_ns (session);
    gint64 at = b + (e - b) / 4;

    fc_span_track_scroll (track, width / 4.0, 0, -1, TRUE);
    g_assert_cmpint (fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session), <, e - b);
    g_assert_cmpfloat_with_epsilon (x_of (session, width, at), width / 4.0, 1.0);
    b = fc_session_get_visible_begin_ns (session);
    e = fc_session_get_visible_end_ns (session);
    fc_span_track_scroll (track, 0, 0, width / 10.0, FALSE);
    g_assert_cmpint (fc_session_get_visible_begin_ns (session), >, b);
    g_assert_cmpint (fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session), ==, e - b);
    fc_session_reset_view (session);
  }

  /* a double click zooms the flamechart to the span; the bars follow */
  span = bar_with_op (track, "http.client", &rect);
  g_assert_true (fc_span_track_click (track, rect.origin.x + rect.size.width / 2, rect.origin.y + 4, 2));
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), <=, span->start_ns);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), >=, span->end_ns);
  g_assert_cmpint (fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session), <,
                   (span->end_ns - span->start_ns) * 3 / 2);
  wait_for_paint (GTK_WIDGET (track));
  g_assert_true (bar_with_op (track, "http.client", &rect) == span);
  g_assert_cmpfloat (rect.size.width, >, width * 2 / 3.0);
  g_assert_cmpfloat_with_epsilon (rect.origin.x, x_of (session, width, span->start_ns), 1.0);

  window_free (window);
}

/* V1: the transaction whose id the profile names. */
static void
test_envelope_v1 (void)
{
  FcWindow *window = open_and_wait ("good/python-v1.envelope");
  GPtrArray *spans = fc_session_get_spans (fc_window_get_session (window));

  g_assert_cmpuint (spans->len, ==, 1);
  g_assert_cmpstr (((FcSpan *) g_ptr_array_index (spans, 0))->description, ==, "GET /");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "span_track"))));
  while (fc_span_track_get_n_bars (fc_window_get_part (window, "span_track")) != 1)
    g_main_context_iteration (NULL, TRUE);
  window_free (window);
}

/* Nothing to show: the track is out of the way. */
static void
test_hidden (void)
{
  FcWindow *window = open_and_wait ("good/compact-v2.json");

  g_assert_cmpuint (fc_session_get_spans (fc_window_get_session (window))->len, ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "span_track"))));
  window_free (window);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/span-track/envelope-v2", test_envelope_v2);
  g_test_add_func ("/app/span-track/envelope-v1", test_envelope_v1);
  g_test_add_func ("/app/span-track/hidden", test_hidden);

  return fc_test_run ();
}
