/* fc-flame-chart-lanes.c - where the flamechart's rows and lanes sit, and scrolling
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>

#include "fc-flame-chart-private.h"

/* All threads: a lane shows this many rows until its header is clicked, so
 * one very deep thread does not push the others out of reach. */
#define COLLAPSED_ROWS 12

double
fc_flame_chart_max_scroll (FcFlameChart *self)
{
  double view = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  return MAX (0.0, self->content_height - view + ROW_HEIGHT);
}

gboolean
fc_flame_chart_has_lane_headers (FcFlameChart *self)
{
  return fc_flame_chart_layout (self) != NULL && fc_flame_layout_get_thread (fc_flame_chart_layout (self)) < 0;
}

/* The scrollbar follows scroll_y (never the other way round while we set it). */
void
fc_flame_chart_update_adjustment (FcFlameChart *self)
{
  double view = MAX (0.0, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT);

  gtk_adjustment_configure (self->vadjustment, self->scroll_y, 0.0,
                            MAX (view, self->content_height + ROW_HEIGHT), ROW_HEIGHT * 3, view, view);
  gtk_widget_set_visible (self->scrollbar, self->content_height > view);
}

void
fc_flame_chart_set_scroll_y (FcFlameChart *self,
                             double        scroll_y)
{
  scroll_y = CLAMP (scroll_y, 0.0, fc_flame_chart_max_scroll (self));
  if (scroll_y == self->scroll_y)
    return;
  self->scroll_y = scroll_y;
  gtk_adjustment_set_value (self->vadjustment, scroll_y);
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

static void
vadjustment_changed_cb (FcFlameChart  *self,
                        GtkAdjustment *adjustment)
{
  fc_flame_chart_set_scroll_y (self, gtk_adjustment_get_value (adjustment));
}

static gboolean
lane_is_expanded (FcFlameChart *self,
                  guint         lane)
{
  const FcFlameLane *l = fc_flame_layout_get_lane (fc_flame_chart_layout (self), lane);

  return g_hash_table_contains (self->expanded, GUINT_TO_POINTER (l->thread));
}

/* Row and lane positions: with one thread, row r at r rows down; with all
 * threads, each lane is a header row and its rows, the deep ones cut to
 * COLLAPSED_ROWS until expanded. */
void
fc_flame_chart_update_geometry (FcFlameChart *self)
{
  FcFlameLayout *layout = fc_flame_chart_layout (self);
  gboolean headers = fc_flame_chart_has_lane_headers (self);
  double y = 0;

  g_clear_pointer (&self->row_tops, g_free);
  g_clear_pointer (&self->lane_tops, g_free);
  g_clear_pointer (&self->lane_shown, g_free);
  self->n_geometry_rows = layout ? fc_flame_layout_get_n_rows (layout) : 0;
  self->n_geometry_lanes = layout ? fc_flame_layout_get_n_lanes (layout) : 0;
  self->row_tops = g_new (double, MAX (1, self->n_geometry_rows));
  self->lane_tops = g_new0 (double, MAX (1, self->n_geometry_lanes));
  self->lane_shown = g_new0 (guint, MAX (1, self->n_geometry_lanes));

  for (guint r = 0; r < self->n_geometry_rows; r++)
    self->row_tops[r] = -1;

  for (guint l = 0; l < self->n_geometry_lanes; l++)
    {
      const FcFlameLane *lane = fc_flame_layout_get_lane (layout, l);
      guint shown = lane->n_rows;

      self->lane_tops[l] = y;
      if (headers)
        {
          y += ROW_HEIGHT;
          if (shown > COLLAPSED_ROWS && !lane_is_expanded (self, l))
            shown = COLLAPSED_ROWS;
        }
      self->lane_shown[l] = shown;
      for (guint d = 0; d < shown; d++)
        self->row_tops[lane->first_row + d] = y + d * (double) ROW_HEIGHT;
      y += shown * (double) ROW_HEIGHT;
    }

  self->content_height = y;
  self->scroll_y = CLAMP (self->scroll_y, 0.0, fc_flame_chart_max_scroll (self));
  fc_flame_chart_update_adjustment (self);
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

static double
lane_bottom (FcFlameChart *self,
             guint         lane)
{
  return self->lane_tops[lane] + (1 + self->lane_shown[lane]) * (double) ROW_HEIGHT;
}

/* Where a lane's header is drawn, in widget pixels: at its place, or, for
 * the lane that runs past the top edge, pinned under the ruler until the
 * next lane's header pushes it up. */
double
fc_flame_chart_header_y (FcFlameChart *self,
                         guint         lane)
{
  double y = self->lane_tops[lane] - self->scroll_y;
  double bottom = lane_bottom (self, lane) - self->scroll_y;

  if (y < 0 && bottom > 0)
    y = MIN (0.0, bottom - ROW_HEIGHT);
  return RULER_HEIGHT + y;
}

/* the lane whose header is under @y (widget pixels), or -1 */
gint
fc_flame_chart_header_at (FcFlameChart *self,
                          double        y)
{
  if (!fc_flame_chart_has_lane_headers (self) || y < RULER_HEIGHT)
    return -1;

  for (guint l = 0; l < self->n_geometry_lanes; l++)
    {
      double top = fc_flame_chart_header_y (self, l);

      if (y >= top && y < top + ROW_HEIGHT)
        return (gint) l;
    }
  return -1;
}

/* the layout row drawn at content y @cy, or -1 */
static gint
row_at (FcFlameChart *self,
        double        cy)
{
  guint lo = 0, hi = self->n_geometry_lanes;
  guint lane;
  double d;

  if (hi == 0 || cy < 0)
    return -1;

  /* the last lane starting at or above cy */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->lane_tops[mid] <= cy)
        lo = mid;
      else
        hi = mid;
    }
  lane = lo;

  d = floor ((cy - self->lane_tops[lane]) / ROW_HEIGHT) - (fc_flame_chart_has_lane_headers (self) ? 1 : 0);
  if (d < 0 || d >= self->lane_shown[lane])
    return -1;
  return (gint) (fc_flame_layout_get_lane (fc_flame_chart_layout (self), lane)->first_row + (guint) d);
}

/* "main (1234) · 5,210 samples", and with @with_rows, what a collapsed
 * lane hides ("· 106 more rows") */
char *
fc_flame_chart_lane_title (FcFlameChart *self,
                           guint         lane,
                           gboolean      with_rows)
{
  FcProfile *profile = fc_flame_layout_get_profile (fc_flame_chart_layout (self));
  const FcFlameLane *l = fc_flame_layout_get_lane (fc_flame_chart_layout (self), lane);
  const FcThread *thread = fc_profile_get_thread (profile, l->thread);
  const char *name = fc_profile_string (profile, thread->name);
  const char *tid = fc_profile_string (profile, thread->tid);
  g_autofree char *who = NULL;
  g_autofree char *count = g_strdup_printf ("%'u", thread->n_samples);
  GString *title;

  if (tid == NULL || tid[0] == '\0')
    tid = "?";
  who = name != NULL && name[0] != '\0' ? g_strdup_printf ("%s (%s)", name, tid)
                                          : g_strdup_printf (_("Thread %s"), tid);
  title = g_string_new (who);
  /* Translators: after a thread's name, "· 5,210 samples" */
  g_string_append_printf (title, ngettext (" · %s sample", " · %s samples", thread->n_samples), count);

  if (with_rows && l->n_rows > COLLAPSED_ROWS)
    {
      guint hidden = l->n_rows - self->lane_shown[lane];

      if (hidden > 0)
        /* Translators: a folded lane of the flamechart, "· 106 more rows (click to show)" */
        g_string_append_printf (title, ngettext (" · %u more row (click to show)",
                                                 " · %u more rows (click to show)", hidden), hidden);
      else
        g_string_append (title, _(" · click to fold"));
    }

  return g_string_free (title, FALSE);
}

static void
lane_row_activated_cb (FcFlameChart  *self,
                       GtkListBoxRow *row,
                       GtkListBox    *list)
{
  fc_flame_chart_show_lane (self, (guint) gtk_list_box_row_get_index (row));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->lanes_button));
}

/* all threads: the lane list, one row per lane, to jump to it */
void
fc_flame_chart_update_lane_list (FcFlameChart *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->lanes_list))) != NULL)
    gtk_list_box_remove (self->lanes_list, child);

  gtk_widget_set_visible (self->lanes_button, fc_flame_chart_has_lane_headers (self));
  if (!fc_flame_chart_has_lane_headers (self))
    return;

  for (guint l = 0; l < self->n_geometry_lanes; l++)
    {
      g_autofree char *title = fc_flame_chart_lane_title (self, l, FALSE);
      GtkWidget *label = gtk_label_new (title);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_margin_start (label, 6);
      gtk_widget_set_margin_end (label, 6);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_list_box_append (self->lanes_list, label);
    }
}

gboolean
fc_flame_chart_box_at (FcFlameChart *self,
                       double        x,
                       double        y,
                       FcFlameBox   *box)
{
  gint row;

  g_return_val_if_fail (FC_IS_FLAME_CHART (self), FALSE);
  g_return_val_if_fail (box != NULL, FALSE);

  if (fc_flame_chart_layout (self) == NULL || y < RULER_HEIGHT || x < 0 || fc_flame_chart_header_at (self, y) >= 0)
    return FALSE;

  row = row_at (self, y - RULER_HEIGHT + self->scroll_y);
  if (row < 0 || (guint) row >= fc_flame_layout_get_n_rows (fc_flame_chart_layout (self)))
    return FALSE;

  return fc_flame_layout_hit_test (fc_flame_chart_layout (self), (guint) row, fc_flame_chart_time_at (self, x), box);
}

/* FALSE (and an empty rectangle) for a box of a collapsed lane's hidden rows */
gboolean
fc_flame_chart_box_bounds (FcFlameChart     *self,
                           const FcFlameBox *box,
                           gint64            begin_ns,
                           double            px_per_ns,
                           graphene_rect_t  *bounds)
{
  FcFlameLayout *layout = fc_flame_chart_layout (self);
  double x0 = (double) (fc_flame_layout_box_begin_ns (layout, box) - begin_ns) * px_per_ns;
  double x1 = (double) (fc_flame_layout_box_end_ns (layout, box) - begin_ns) * px_per_ns;
  guint row = box->row;
  double top = row < self->n_geometry_rows ? self->row_tops[row] : -1;

  if (top < 0)
    {
      graphene_rect_init (bounds, x0, 0, 0, 0);
      return FALSE;
    }
  graphene_rect_init (bounds, x0, RULER_HEIGHT + top - self->scroll_y, x1 - x0, ROW_HEIGHT);
  return TRUE;
}

void
fc_flame_chart_get_box_bounds (FcFlameChart     *self,
                               const FcFlameBox *box,
                               graphene_rect_t  *bounds)
{
  gint64 b, e;
  int width;

  g_return_if_fail (FC_IS_FLAME_CHART (self));
  g_return_if_fail (box != NULL && bounds != NULL);

  width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  fc_flame_chart_get_visible (self, &b, &e);
  fc_flame_chart_box_bounds (self, box, b, (double) width / (double) (e - b), bounds);
}

void
fc_flame_chart_reveal_row (FcFlameChart *self,
                           guint         row)
{
  double view = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;
  /* all threads: the pinned header covers the top row */
  double margin = fc_flame_chart_has_lane_headers (self) ? ROW_HEIGHT : 0;
  double top;

  if (row >= self->n_geometry_rows)
    return;

  /* a row below a collapsed lane's cut: show the lane in full */
  if (self->row_tops[row] < 0)
    {
      gint lane = fc_flame_layout_get_lane_of_row (fc_flame_chart_layout (self), row);

      if (lane < 0)
        return;
      fc_flame_chart_set_lane_expanded (self, (guint) lane, TRUE);
      if (self->row_tops[row] < 0)
        return;
    }

  top = self->row_tops[row];
  if (top - margin < self->scroll_y)
    fc_flame_chart_set_scroll_y (self, top - margin);
  else if (top + ROW_HEIGHT > self->scroll_y + view)
    fc_flame_chart_set_scroll_y (self, top + ROW_HEIGHT - view);
}

double
fc_flame_chart_get_scroll_y (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->scroll_y;
}

GtkAdjustment *
fc_flame_chart_get_vadjustment (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), NULL);
  return self->vadjustment;
}

GtkListBox *
fc_flame_chart_get_lane_list (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), NULL);
  return self->lanes_list;
}

guint
fc_flame_chart_get_n_lanes (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return fc_flame_chart_has_lane_headers (self) ? self->n_geometry_lanes : 0;
}

/**
 * fc_flame_chart_get_lane_y:
 *
 * Where lane @lane's header is drawn (widget pixels): its place, or pinned
 * under the ruler while the lane runs past the top edge.
 */
double
fc_flame_chart_get_lane_y (FcFlameChart *self,
                           guint         lane)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  g_return_val_if_fail (lane < fc_flame_chart_get_n_lanes (self), 0);
  return fc_flame_chart_header_y (self, lane);
}

/* the lane's height with its header, as drawn */
double
fc_flame_chart_get_lane_height (FcFlameChart *self,
                                guint         lane)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  g_return_val_if_fail (lane < fc_flame_chart_get_n_lanes (self), 0);
  return lane_bottom (self, lane) - self->lane_tops[lane];
}

char *
fc_flame_chart_dup_lane_title (FcFlameChart *self,
                               guint         lane)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), NULL);
  g_return_val_if_fail (lane < fc_flame_chart_get_n_lanes (self), NULL);
  return fc_flame_chart_lane_title (self, lane, TRUE);
}

gboolean
fc_flame_chart_get_lane_expanded (FcFlameChart *self,
                                  guint         lane)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), FALSE);
  g_return_val_if_fail (lane < fc_flame_chart_get_n_lanes (self), FALSE);
  return self->lane_shown[lane] == fc_flame_layout_get_lane (fc_flame_chart_layout (self), lane)->n_rows;
}

/* Folds or unfolds a lane deeper than COLLAPSED_ROWS; the lane's header stays
 * where it is on screen. Remembered per thread for later layouts. */
void
fc_flame_chart_set_lane_expanded (FcFlameChart *self,
                                  guint         lane,
                                  gboolean      expanded)
{
  guint thread;

  g_return_if_fail (FC_IS_FLAME_CHART (self));
  g_return_if_fail (lane < fc_flame_chart_get_n_lanes (self));

  thread = fc_flame_layout_get_lane (fc_flame_chart_layout (self), lane)->thread;
  if (expanded == lane_is_expanded (self, lane))
    return;
  if (expanded)
    g_hash_table_add (self->expanded, GUINT_TO_POINTER (thread));
  else
    g_hash_table_remove (self->expanded, GUINT_TO_POINTER (thread));

  fc_flame_chart_update_geometry (self);
  /* folding the lane pinned at the top: show its header, not the lane below */
  if (self->lane_tops[lane] < self->scroll_y)
    fc_flame_chart_set_scroll_y (self, self->lane_tops[lane]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* scrolls so that lane @lane's header is the top row */
void
fc_flame_chart_show_lane (FcFlameChart *self,
                          guint         lane)
{
  g_return_if_fail (FC_IS_FLAME_CHART (self));
  g_return_if_fail (lane < fc_flame_chart_get_n_lanes (self));

  fc_flame_chart_set_scroll_y (self, self->lane_tops[lane]);
}

/* the height the chart asks for: its rows, up to a limit */
int
fc_flame_chart_natural_height (FcFlameChart *self)
{
  return RULER_HEIGHT + (int) MIN (self->content_height, 2000.0) + ROW_HEIGHT;
}

void
fc_flame_chart_init_lanes (FcFlameChart *self)
{

  self->expanded = g_hash_table_new (NULL, NULL);
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, ROW_HEIGHT * 3, 0, 0));
  g_signal_connect_object (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb),
                           self, G_CONNECT_SWAPPED);
  self->scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  gtk_widget_set_parent (self->scrollbar, GTK_WIDGET (self));

  {
    GtkWidget *scroller = gtk_scrolled_window_new ();
    GtkWidget *popover = gtk_popover_new ();

    self->lanes_list = GTK_LIST_BOX (gtk_list_box_new ());
    gtk_list_box_set_activate_on_single_click (self->lanes_list, TRUE);
    gtk_widget_add_css_class (GTK_WIDGET (self->lanes_list), "navigation-sidebar");
    g_signal_connect_object (self->lanes_list, "row-activated", G_CALLBACK (lane_row_activated_cb),
                             self, G_CONNECT_SWAPPED);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 400);
    gtk_widget_set_size_request (scroller, 280, -1);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->lanes_list));
    gtk_popover_set_child (GTK_POPOVER (popover), scroller);

    self->lanes_button = gtk_menu_button_new ();
    gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->lanes_button), "view-list-symbolic");
    gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->lanes_button), popover);
    gtk_widget_set_tooltip_text (self->lanes_button, _("Go to a thread’s lane"));
    gtk_widget_add_css_class (self->lanes_button, "flat");
    gtk_widget_add_css_class (self->lanes_button, "lane-list");
    gtk_widget_set_visible (self->lanes_button, FALSE);
    gtk_widget_set_parent (self->lanes_button, GTK_WIDGET (self));
  }
}
