/* fc-flame-chart.c - time on x, stack depth on y
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "fc-colors.h"
#include "fc-flame-chart-private.h"
#include "fc-time-ruler.h"
#include "fc-view-util.h"

#define ROW_HEIGHT        FC_FLAME_CHART_ROW_HEIGHT
#define RULER_HEIGHT      FC_FLAME_CHART_RULER_HEIGHT
#define MIN_LABEL_WIDTH   28.0
#define LABEL_PADDING     4.0
#define CULL_WIDTH        0.25
#define ZOOM_STEP         1.25
#define PAN_FRACTION      0.1
#define WHEEL_PIXELS      50.0
/* a search walks every box of the layout: off the main loop above this */
#define SYNC_SEARCH_SAMPLES 20000
/* All threads: a lane shows this many rows until its header is clicked, so
 * one very deep thread does not push the others out of reach. */
#define COLLAPSED_ROWS    12

struct _FcFlameChart
{
  FcFlameView     parent_instance;

  /* children */
  GtkWidget      *ruler;
  GtkWidget      *scrollbar;
  GtkWidget      *lanes_button;    /* all threads: the lane list */
  GtkListBox     *lanes_list;

  /* owned: where rows and lanes sit, in content pixels (y = 0 under the ruler) */
  GtkAdjustment  *vadjustment;
  double         *row_tops;        /* per layout row; -1 when not drawn (header rows, collapsed) */
  double         *lane_tops;       /* per lane: its header row (all threads) or its first row */
  guint          *lane_shown;      /* per lane: rows drawn */
  guint           n_geometry_lanes;
  guint           n_geometry_rows;
  double          content_height;
  GHashTable     *expanded;        /* thread indexes of the lanes shown in full */

  /* owned */
  GCancellable   *search_cancellable;
  GArray         *matches;         /* FcFlameBoxStart, by time */
  PangoLayout    *pango;           /* box labels */
  PangoLayout    *ellipsis;
  int             ellipsis_width;
  GHashTable     *labels;          /* frame id -> LabelEntry: shaped once, drawn every zoom step */

  guint           n_drawn_boxes;
  const char     *message;         /* over the boxes: the frame filter left none */
  guint           n_legend;

  /* view state that is not the session's */
  double          scroll_y;
  FcFlameBox      hover_box;
  FcFlameBox      selected_box;
  gboolean        has_hover;
  gboolean        has_selected;
  guint           current_match;
  int             text_height;
  double          pointer_x;

  /* gestures */
  gint64          drag_begin_ns;
  gint64          drag_end_ns;
  double          drag_scroll_y;
  double          drag_start_x;
  gboolean        drag_selecting;
  gint64          pinch_begin_ns;
  gint64          pinch_end_ns;
};

enum {
  PROP_0,
  PROP_N_MATCHES,
  PROP_CURRENT_MATCH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FcFlameChart, fc_flame_chart, FC_TYPE_FLAME_VIEW)

static inline FcSession *
session_of (FcFlameChart *self)
{
  return fc_flame_view_get_session (FC_FLAME_VIEW (self));
}

static inline FcFlameLayout *
layout_of (FcFlameChart *self)
{
  return fc_flame_view_get_layout (FC_FLAME_VIEW (self));
}

static void
invalidate_scene (FcFlameChart *self)
{
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

/* ---- geometry ---- */

static void
get_visible (FcFlameChart *self,
             gint64       *begin_ns,
             gint64       *end_ns)
{
  gint64 b = 0, e = 0;

  if (session_of (self) != NULL)
    {
      b = fc_session_get_visible_begin_ns (session_of (self));
      e = fc_session_get_visible_end_ns (session_of (self));
    }
  if (e <= b && layout_of (self) != NULL)
    fc_flame_layout_get_extent (layout_of (self), &b, &e);
  if (e <= b)
    e = b + 1;

  *begin_ns = b;
  *end_ns = e;
}

static double
content_height (FcFlameChart *self)
{
  return self->content_height;
}

static double
max_scroll (FcFlameChart *self)
{
  double view = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  return MAX (0.0, content_height (self) - view + ROW_HEIGHT);
}

static gboolean
has_lane_headers (FcFlameChart *self)
{
  return layout_of (self) != NULL && fc_flame_layout_get_thread (layout_of (self)) < 0;
}

/* The scrollbar follows scroll_y (never the other way round while we set it). */
static void
update_adjustment (FcFlameChart *self)
{
  double view = MAX (0.0, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT);

  gtk_adjustment_configure (self->vadjustment, self->scroll_y, 0.0,
                            MAX (view, content_height (self) + ROW_HEIGHT), ROW_HEIGHT * 3, view, view);
  gtk_widget_set_visible (self->scrollbar, content_height (self) > view);
}

static void
set_scroll_y (FcFlameChart *self,
              double        scroll_y)
{
  scroll_y = CLAMP (scroll_y, 0.0, max_scroll (self));
  if (scroll_y == self->scroll_y)
    return;
  self->scroll_y = scroll_y;
  gtk_adjustment_set_value (self->vadjustment, scroll_y);
  invalidate_scene (self);
}

static void
vadjustment_changed_cb (FcFlameChart  *self,
                        GtkAdjustment *adjustment)
{
  set_scroll_y (self, gtk_adjustment_get_value (adjustment));
}

static gboolean
lane_is_expanded (FcFlameChart *self,
                  guint         lane)
{
  const FcFlameLane *l = fc_flame_layout_get_lane (layout_of (self), lane);

  return g_hash_table_contains (self->expanded, GUINT_TO_POINTER (l->thread));
}

/* Row and lane positions: with one thread, row r at r rows down; with all
 * threads, each lane is a header row and its rows, the deep ones cut to
 * COLLAPSED_ROWS until expanded. */
static void
update_geometry (FcFlameChart *self)
{
  FcFlameLayout *layout = layout_of (self);
  gboolean headers = has_lane_headers (self);
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
  self->scroll_y = CLAMP (self->scroll_y, 0.0, max_scroll (self));
  update_adjustment (self);
  invalidate_scene (self);
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
static double
header_y (FcFlameChart *self,
          guint         lane)
{
  double y = self->lane_tops[lane] - self->scroll_y;
  double bottom = lane_bottom (self, lane) - self->scroll_y;

  if (y < 0 && bottom > 0)
    y = MIN (0.0, bottom - ROW_HEIGHT);
  return RULER_HEIGHT + y;
}

/* the lane whose header is under @y (widget pixels), or -1 */
static gint
header_at (FcFlameChart *self,
           double        y)
{
  if (!has_lane_headers (self) || y < RULER_HEIGHT)
    return -1;

  for (guint l = 0; l < self->n_geometry_lanes; l++)
    {
      double top = header_y (self, l);

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

  d = floor ((cy - self->lane_tops[lane]) / ROW_HEIGHT) - (has_lane_headers (self) ? 1 : 0);
  if (d < 0 || d >= self->lane_shown[lane])
    return -1;
  return (gint) (fc_flame_layout_get_lane (layout_of (self), lane)->first_row + (guint) d);
}

static gint64
time_at (FcFlameChart *self,
         double        x)
{
  gint64 b, e;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  get_visible (self, &b, &e);
  return b + (gint64) ((double) (e - b) * x / width);
}

static gboolean
same_box (const FcFlameBox *a,
          const FcFlameBox *b)
{
  return a->row == b->row && a->first == b->first;
}

/* "main (1234) · 5,210 samples", and with @with_rows, what a collapsed
 * lane hides ("· 106 more rows") */
static char *
lane_title (FcFlameChart *self,
            guint         lane,
            gboolean      with_rows)
{
  FcProfile *profile = fc_flame_layout_get_profile (layout_of (self));
  const FcFlameLane *l = fc_flame_layout_get_lane (layout_of (self), lane);
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
static void
update_lane_list (FcFlameChart *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->lanes_list))) != NULL)
    gtk_list_box_remove (self->lanes_list, child);

  gtk_widget_set_visible (self->lanes_button, has_lane_headers (self));
  if (!has_lane_headers (self))
    return;

  for (guint l = 0; l < self->n_geometry_lanes; l++)
    {
      g_autofree char *title = lane_title (self, l, FALSE);
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

  if (layout_of (self) == NULL || y < RULER_HEIGHT || x < 0 || header_at (self, y) >= 0)
    return FALSE;

  row = row_at (self, y - RULER_HEIGHT + self->scroll_y);
  if (row < 0 || (guint) row >= fc_flame_layout_get_n_rows (layout_of (self)))
    return FALSE;

  return fc_flame_layout_hit_test (layout_of (self), (guint) row, time_at (self, x), box);
}

/* FALSE (and an empty rectangle) for a box of a collapsed lane's hidden rows */
static gboolean
box_bounds (FcFlameChart     *self,
            const FcFlameBox *box,
            gint64            begin_ns,
            double            px_per_ns,
            graphene_rect_t  *bounds)
{
  FcFlameLayout *layout = layout_of (self);
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
  get_visible (self, &b, &e);
  box_bounds (self, box, b, (double) width / (double) (e - b), bounds);
}

/* ---- state that follows the session ---- */

static void
set_current_match (FcFlameChart *self,
                   guint         current)
{
  if (current == self->current_match)
    return;
  self->current_match = current;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MATCH]);
}

typedef struct {
  FcFlameLayout *layout;
  guint8        *match;
  guint          n_frames;
} MatchData;

static void
match_data_free (MatchData *data)
{
  g_clear_pointer (&data->layout, fc_flame_layout_unref);
  g_free (data->match);
  g_free (data);
}

static void
find_matches_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  MatchData *data = task_data;

  g_task_return_pointer (task, fc_flame_layout_find_runs (data->layout, data->match, data->n_frames, cancellable),
                         (GDestroyNotify) g_array_unref);
}

static void
set_matches (FcFlameChart *self,
             GArray       *matches)
{
  guint old_n = self->matches->len;

  g_array_set_size (self->matches, 0);
  if (matches != NULL)
    g_array_append_vals (self->matches, matches->data, matches->len);

  set_current_match (self, 0);
  if (old_n != self->matches->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
}

static void
matches_ready_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcFlameChart) self = g_weak_ref_get (weak);
  g_autoptr(GArray) matches = g_task_propagate_pointer (G_TASK (result), NULL);

  g_weak_ref_clear (weak);
  g_free (weak);

  if (self == NULL || matches == NULL || g_task_get_cancellable (G_TASK (result)) != self->search_cancellable)
    return;

  set_matches (self, matches);
}

static void
update_search (FcFlameChart *self)
{
  const guint8 *search_match = fc_flame_view_get_search_match (FC_FLAME_VIEW (self));
  FcFlameLayout *layout = layout_of (self);
  guint n_colors = 0;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);

  if (search_match == NULL || layout == NULL)
    {
      set_matches (self, NULL);
      return;
    }

  if (fc_flame_layout_get_n_positions (layout) < SYNC_SEARCH_SAMPLES)
    {
      g_autoptr(GArray) matches = fc_flame_layout_find_runs (layout, search_match, n_colors, NULL);

      set_matches (self, matches);
    }
  else
    {
      g_autoptr(GTask) task = NULL;
      MatchData *data = g_new0 (MatchData, 1);
      GWeakRef *weak = g_new0 (GWeakRef, 1);

      /* until the worker answers, the counter shows no matches */
      set_matches (self, NULL);

      data->layout = fc_flame_layout_ref (layout);
      data->match = g_memdup2 (search_match, MAX (n_colors, 1));
      data->n_frames = n_colors;
      g_weak_ref_init (weak, self);
      self->search_cancellable = g_cancellable_new ();
      task = g_task_new (NULL, self->search_cancellable, matches_ready_cb, weak);
      g_task_set_task_data (task, data, (GDestroyNotify) match_data_free);
      g_task_set_return_on_cancel (task, TRUE);
      g_task_run_in_thread (task, find_matches_in_thread);
    }
}

/* the height the chart asks for: its rows, up to a limit */
static int
natural_height (FcFlameChart *self)
{
  return RULER_HEIGHT + (int) MIN (content_height (self), 2000.0) + ROW_HEIGHT;
}

static void
fc_flame_chart_layout_changed (FcFlameView *view)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  int natural = natural_height (self);

  self->has_hover = FALSE;
  self->has_selected = FALSE;
  self->scroll_y = 0;
  update_geometry (self);
  update_lane_list (self);
  update_search (self);
  /* A live update brings a new layout several times a second, seldom with
   * another height: then the scrollbar's range is all that changes, and
   * allocating the chart again is enough, without measuring the window. */
  if (natural_height (self) != natural)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
fc_flame_chart_search_changed (FcFlameView *view)
{
  update_search (FC_FLAME_CHART (view));
}

static void
fc_flame_chart_reload (FcFlameView *view)
{
  FcFlameChart *self = FC_FLAME_CHART (view);

  fc_time_ruler_set_session (FC_TIME_RULER (self->ruler), session_of (self));
  g_hash_table_remove_all (self->labels);
}

static void
visible_changed_cb (FcFlameChart *self)
{
  invalidate_scene (self);
}

static void
overlay_changed_cb (FcFlameChart *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
selected_frame_changed_cb (FcFlameChart *self)
{
  /* Someone else (the call tree, the details panel) picked another frame:
   * our box no longer stands for the selection. */
  if (self->has_selected && self->selected_box.frame != fc_session_get_selected_frame (session_of (self)))
    self->has_selected = FALSE;
  invalidate_scene (self);
}

/* ---- navigation ---- */

static void
zoom_around (FcFlameChart *self,
             double        fraction,
             double        factor)
{
  gint64 b, e, begin;
  double width, new_width;

  if (session_of (self) == NULL)
    return;

  /* Offsets from the window's start: absolute nanoseconds (~1.7e18) only
   * have 256 ns steps as doubles, a quarter of the narrowest window. */
  get_visible (self, &b, &e);
  width = (double) (e - b);
  new_width = width * factor;
  begin = b + (gint64) (fraction * (width - new_width));
  fc_session_zoom_to (session_of (self), begin, begin + (gint64) new_width);
}

static void
pan_by_ns (FcFlameChart *self,
           gint64        delta)
{
  gint64 b, e;

  if (session_of (self) == NULL)
    return;
  get_visible (self, &b, &e);
  fc_session_zoom_to (session_of (self), b + delta, e + delta);
}

static void
pan_by_pixels (FcFlameChart *self,
               double        dx)
{
  gint64 b, e;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  get_visible (self, &b, &e);
  pan_by_ns (self, (gint64) (dx * (double) (e - b) / width));
}

static void
reveal_row (FcFlameChart *self,
            guint         row)
{
  double view = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;
  /* all threads: the pinned header covers the top row */
  double margin = has_lane_headers (self) ? ROW_HEIGHT : 0;
  double top;

  if (row >= self->n_geometry_rows)
    return;

  /* a row below a collapsed lane's cut: show the lane in full */
  if (self->row_tops[row] < 0)
    {
      gint lane = fc_flame_layout_get_lane_of_row (layout_of (self), row);

      if (lane < 0)
        return;
      fc_flame_chart_set_lane_expanded (self, (guint) lane, TRUE);
      if (self->row_tops[row] < 0)
        return;
    }

  top = self->row_tops[row];
  if (top - margin < self->scroll_y)
    set_scroll_y (self, top - margin);
  else if (top + ROW_HEIGHT > self->scroll_y + view)
    set_scroll_y (self, top + ROW_HEIGHT - view);
}

static void
zoom_to_box (FcFlameChart     *self,
             const FcFlameBox *box)
{
  gint64 begin_ns = fc_flame_layout_box_begin_ns (layout_of (self), box);
  gint64 end_ns = fc_flame_layout_box_end_ns (layout_of (self), box);
  gint64 pad = MAX ((end_ns - begin_ns) / 20, 1);

  fc_session_zoom_to (session_of (self), begin_ns - pad, end_ns + pad);
  reveal_row (self, box->row);
}

static void
select_box (FcFlameChart     *self,
            const FcFlameBox *box)
{
  self->has_selected = box != NULL;
  if (box != NULL)
    self->selected_box = *box;
  if (session_of (self) != NULL)
    fc_session_set_selected_frame (session_of (self), box ? box->frame : FC_SESSION_NO_FRAME);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
go_to_match (FcFlameChart *self,
             gint          step)
{
  guint n = self->matches->len;
  guint current;
  const FcFlameBoxStart *start;
  FcFlameBox box;

  if (n == 0 || session_of (self) == NULL)
    return;

  if (self->current_match == 0)
    current = step > 0 ? 1 : n;
  else if (step > 0)
    current = self->current_match % n + 1;
  else
    current = self->current_match == 1 ? n : self->current_match - 1;

  start = &g_array_index (self->matches, FcFlameBoxStart, current - 1);
  if (!fc_flame_layout_box_at_position (layout_of (self), start->row, start->first, &box))
    return;
  set_current_match (self, current);
  zoom_to_box (self, &box);
  select_box (self, &box);
}

static void
action_cb (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  gint64 b, e;

  if (session_of (self) == NULL)
    return;

  get_visible (self, &b, &e);

  if (g_str_equal (action_name, "flamechart.zoom-in"))
    zoom_around (self, 0.5, 1.0 / ZOOM_STEP);
  else if (g_str_equal (action_name, "flamechart.zoom-out"))
    zoom_around (self, 0.5, ZOOM_STEP);
  else if (g_str_equal (action_name, "flamechart.zoom-reset"))
    {
      fc_session_reset_view (session_of (self));
      set_scroll_y (self, 0);
    }
  else if (g_str_equal (action_name, "flamechart.pan-left"))
    pan_by_ns (self, -(gint64) ((e - b) * PAN_FRACTION));
  else if (g_str_equal (action_name, "flamechart.pan-right"))
    pan_by_ns (self, (gint64) ((e - b) * PAN_FRACTION));
  else if (g_str_equal (action_name, "flamechart.pan-up"))
    set_scroll_y (self, self->scroll_y - ROW_HEIGHT * 3);
  else if (g_str_equal (action_name, "flamechart.pan-down"))
    set_scroll_y (self, self->scroll_y + ROW_HEIGHT * 3);
  else if (g_str_equal (action_name, "flamechart.search-next"))
    go_to_match (self, 1);
  else if (g_str_equal (action_name, "flamechart.search-previous"))
    go_to_match (self, -1);
  else if (g_str_equal (action_name, "flamechart.clear-selection"))
    fc_session_set_selection (session_of (self), 0, 0);
}

/* ---- input ---- */

static gboolean
scroll_cb (FcFlameChart             *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double unit = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL ? WHEEL_PIXELS : 1.0;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  if (state & GDK_CONTROL_MASK)
    {
      double steps = unit == 1.0 ? dy / 20.0 : dy;

      zoom_around (self, CLAMP (self->pointer_x / width, 0.0, 1.0), pow (ZOOM_STEP, steps));
      return TRUE;
    }

  if (state & GDK_SHIFT_MASK)
    {
      pan_by_pixels (self, (dx + dy) * unit);
      return TRUE;
    }

  if (dx != 0)
    pan_by_pixels (self, dx * unit);
  if (dy != 0)
    set_scroll_y (self, self->scroll_y + dy * unit);
  return TRUE;
}

static void
motion_cb (FcFlameChart *self,
           double        x,
           double        y)
{
  FcFlameBox hover;
  gboolean has_hover;

  self->pointer_x = x;
  has_hover = fc_flame_chart_box_at (self, x, y, &hover);
  if (has_hover != self->has_hover || (has_hover && !same_box (&hover, &self->hover_box)))
    {
      self->has_hover = has_hover;
      self->hover_box = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (FcFlameChart *self)
{
  if (self->has_hover)
    {
      self->has_hover = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
pressed_cb (FcFlameChart    *self,
            int              n_press,
            double           x,
            double           y,
            GtkGestureClick *gesture)
{
  FcFlameBox box;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (n_press == 2 && fc_flame_chart_box_at (self, x, y, &box))
    zoom_to_box (self, &box);
}

/* Selecting on release: a press that turns into a drag pans instead. */
static void
released_cb (FcFlameChart    *self,
             int              n_press,
             double           x,
             double           y,
             GtkGestureClick *gesture)
{
  gint lane = header_at (self, y);

  /* a lane's header folds and unfolds it */
  if (lane >= 0)
    {
      if (n_press == 1)
        fc_flame_chart_set_lane_expanded (self, (guint) lane, !fc_flame_chart_get_lane_expanded (self, (guint) lane));
      return;
    }
  if (n_press == 1)
    {
      FcFlameBox box;

      select_box (self, fc_flame_chart_box_at (self, x, y, &box) ? &box : NULL);
    }
}

void
fc_flame_chart_drag_begin (FcFlameChart *self,
                           double        x,
                           double        y,
                           gboolean      select_range)
{
  g_return_if_fail (FC_IS_FLAME_CHART (self));

  get_visible (self, &self->drag_begin_ns, &self->drag_end_ns);
  self->drag_scroll_y = self->scroll_y;
  self->drag_start_x = x;
  self->drag_selecting = select_range;
}

void
fc_flame_chart_drag_update (FcFlameChart *self,
                            double        offset_x,
                            double        offset_y)
{
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  double ns_per_px = (double) (self->drag_end_ns - self->drag_begin_ns) / width;

  g_return_if_fail (FC_IS_FLAME_CHART (self));

  if (session_of (self) == NULL)
    return;

  if (self->drag_selecting)
    {
      gint64 a = self->drag_begin_ns + (gint64) (self->drag_start_x * ns_per_px);
      gint64 b = self->drag_begin_ns + (gint64) ((self->drag_start_x + offset_x) * ns_per_px);

      fc_session_set_selection (session_of (self), a, b);
      return;
    }

  if (offset_x != 0)
    {
      gint64 delta = (gint64) (-offset_x * ns_per_px);

      fc_session_zoom_to (session_of (self), self->drag_begin_ns + delta, self->drag_end_ns + delta);
    }
  set_scroll_y (self, self->drag_scroll_y - offset_y);
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
  return has_lane_headers (self) ? self->n_geometry_lanes : 0;
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
  return header_y (self, lane);
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
  return lane_title (self, lane, TRUE);
}

gboolean
fc_flame_chart_get_lane_expanded (FcFlameChart *self,
                                  guint         lane)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), FALSE);
  g_return_val_if_fail (lane < fc_flame_chart_get_n_lanes (self), FALSE);
  return self->lane_shown[lane] == fc_flame_layout_get_lane (layout_of (self), lane)->n_rows;
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

  thread = fc_flame_layout_get_lane (layout_of (self), lane)->thread;
  if (expanded == lane_is_expanded (self, lane))
    return;
  if (expanded)
    g_hash_table_add (self->expanded, GUINT_TO_POINTER (thread));
  else
    g_hash_table_remove (self->expanded, GUINT_TO_POINTER (thread));

  update_geometry (self);
  /* folding the lane pinned at the top: show its header, not the lane below */
  if (self->lane_tops[lane] < self->scroll_y)
    set_scroll_y (self, self->lane_tops[lane]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* scrolls so that lane @lane's header is the top row */
void
fc_flame_chart_show_lane (FcFlameChart *self,
                          guint         lane)
{
  g_return_if_fail (FC_IS_FLAME_CHART (self));
  g_return_if_fail (lane < fc_flame_chart_get_n_lanes (self));

  set_scroll_y (self, self->lane_tops[lane]);
}

static void
drag_begin_cb (FcFlameChart   *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  fc_flame_chart_drag_begin (self, x, y, (state & GDK_SHIFT_MASK) != 0);
}

static void
drag_update_cb (FcFlameChart   *self,
                double          offset_x,
                double          offset_y,
                GtkGestureDrag *gesture)
{
  fc_flame_chart_drag_update (self, offset_x, offset_y);
}

static void
pinch_begin_cb (FcFlameChart *self,
                GdkEventSequence *sequence,
                GtkGesture   *gesture)
{
  get_visible (self, &self->pinch_begin_ns, &self->pinch_end_ns);
}

static void
pinch_scale_cb (FcFlameChart   *self,
                double          scale,
                GtkGestureZoom *gesture)
{
  double cx = 0, cy = 0;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  double fraction, old_width, new_width, anchor;

  if (session_of (self) == NULL || scale <= 0)
    return;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = width / 2.0;
  fraction = CLAMP (cx / width, 0.0, 1.0);
  old_width = (double) (self->pinch_end_ns - self->pinch_begin_ns);
  anchor = self->pinch_begin_ns + fraction * old_width;
  new_width = old_width / scale;
  fc_session_zoom_to (session_of (self),
                      (gint64) (anchor - fraction * new_width),
                      (gint64) (anchor - fraction * new_width + new_width));
}

static gboolean
fc_flame_chart_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  FcFlameBox box;
  g_autofree char *markup = NULL;
  gint64 b, e;

  if (!fc_flame_chart_box_at (self, x, y, &box))
    return FALSE;

  get_visible (self, &b, &e);
  markup = fc_view_frame_tooltip_at (fc_flame_layout_get_profile (layout_of (self)), box.frame,
                                     fc_flame_layout_box_stack (layout_of (self), &box),
                                     fc_flame_layout_box_sampled_ns (layout_of (self), &box),
                                     e - b, _("of the visible range"));
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- drawing ---- */

typedef struct {
  PangoLayout *layout;
  int          width;
} LabelEntry;

#define MAX_CACHED_LABELS 4096

static void
label_entry_free (gpointer data)
{
  LabelEntry *entry = data;

  g_clear_object (&entry->layout);
  g_free (entry);
}

/* Shaping text is what labels cost, and a zoom step only moves them: each
 * frame's label is shaped once and cached. A label that does not fit is
 * cut at the last whole character that leaves room for an ellipsis,
 * without shaping again. */
static void
draw_frame_label (FcFlameChart  *self,
                  GtkSnapshot   *snapshot,
                  FcProfile     *profile,
                  guint32        frame,
                  double         x,
                  double         y,
                  double         width,
                  const GdkRGBA *color)
{
  LabelEntry *entry = g_hash_table_lookup (self->labels, GUINT_TO_POINTER (frame));
  PangoRectangle pos;
  int index = 0, trailing = 0;
  double cut;

  if (entry == NULL)
    {
      char buf[64];

      if (g_hash_table_size (self->labels) >= MAX_CACHED_LABELS)
        g_hash_table_remove_all (self->labels);

      entry = g_new0 (LabelEntry, 1);
      entry->layout = pango_layout_new (pango_layout_get_context (self->pango));
      pango_layout_set_single_paragraph_mode (entry->layout, TRUE);
      pango_layout_set_text (entry->layout, fc_profile_frame_label (profile, frame, buf, sizeof buf), -1);
      pango_layout_get_pixel_size (entry->layout, &entry->width, NULL);
      g_hash_table_insert (self->labels, GUINT_TO_POINTER (frame), entry);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));

  if (entry->width <= width)
    {
      gtk_snapshot_append_layout (snapshot, entry->layout, color);
      gtk_snapshot_restore (snapshot);
      return;
    }

  pango_layout_xy_to_index (entry->layout, (int) ((width - self->ellipsis_width) * PANGO_SCALE), 0,
                            &index, &trailing);
  pango_layout_index_to_pos (entry->layout, index, &pos);
  cut = pos.x / (double) PANGO_SCALE;
  if (cut >= 1.0)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, cut, ROW_HEIGHT));
      gtk_snapshot_append_layout (snapshot, entry->layout, color);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (cut, 0));
      gtk_snapshot_append_layout (snapshot, self->ellipsis, color);
    }
  gtk_snapshot_restore (snapshot);
}

static void
ensure_pango (FcFlameChart *self)
{
  if (self->pango != NULL)
    return;

  self->pango = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_get_pixel_size (self->pango, NULL, &self->text_height);
  pango_layout_set_ellipsize (self->pango, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (self->pango, TRUE);
  g_clear_object (&self->ellipsis);
  self->ellipsis = gtk_widget_create_pango_layout (GTK_WIDGET (self), "…");
  pango_layout_get_pixel_size (self->ellipsis, &self->ellipsis_width, NULL);
}

static void
draw_label (FcFlameChart  *self,
            GtkSnapshot   *snapshot,
            const char    *text,
            double         x,
            double         y,
            double         width,
            const GdkRGBA *color)
{
  pango_layout_set_text (self->pango, text, -1);
  pango_layout_set_width (self->pango, (int) (width * PANGO_SCALE));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, self->pango, color);
  gtk_snapshot_restore (snapshot);
}

/* vertical lines under the ruler's ticks */
static void
draw_grid (FcFlameChart *self,
           GtkSnapshot  *snapshot,
           int           width,
           int           height,
           gint64        begin_ns,
           gint64        end_ns)
{
  GdkRGBA grid = fc_flame_view_is_dark (FC_FLAME_VIEW (self)) ? (GdkRGBA) { 1, 1, 1, 0.07f } : (GdkRGBA) { 0, 0, 0, 0.06f };
  double px_per_ns = (double) width / (double) (end_ns - begin_ns);
  gint64 origin = session_of (self) != NULL ? fc_time_ruler_get_origin (session_of (self)) : begin_ns;
  gint64 step = fc_time_ruler_step (1.0 / px_per_ns);

  for (gint64 t = fc_time_ruler_first_tick (origin, begin_ns, step); t < end_ns; t += step)
    {
      double x = floor ((double) (t - begin_ns) * px_per_ns);

      gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (x, RULER_HEIGHT, 1, height - RULER_HEIGHT));
    }
}

typedef struct {
  guint32           frame;
  double            x;
  double            y;
  double            width;
  const GdkRGBA    *color;
} Label;

static void
draw_boxes (FcFlameChart *self,
            GtkSnapshot  *snapshot,
            int           width,
            int           height)
{
  FcProfile *profile = fc_flame_layout_get_profile (layout_of (self));
  gboolean dark = fc_flame_view_is_dark (FC_FLAME_VIEW (self));
  guint n_colors = 0;
  const GdkRGBA *draw_colors = fc_flame_view_get_draw_colors (FC_FLAME_VIEW (self));
  const guint32 *draw_pixels = fc_flame_view_get_draw_pixels (FC_FLAME_VIEW (self));
  gint64 begin_ns, end_ns;
  double px_per_ns;

  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);
  FcFrameFilter filter = session_of (self) ? fc_session_get_frame_filter (session_of (self)) : FC_FRAME_FILTER_ALL;
  g_autofree guint8 *shown = NULL;
  g_autofree guint32 *filtered_pixels = NULL;
  g_autofree GdkRGBA *filtered_colors = NULL;
  guint drawn_shown = 0;
  guint n_rows = MIN (fc_flame_layout_get_n_rows (layout_of (self)), self->n_geometry_rows);
  GdkRGBA fallback = { 0.8f, 0.8f, 0.8f, 1.0f };
  guint32 fallback_pixel = fc_raster_pack (&fallback);
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (Label));
  g_autoptr(GArray) outlines = g_array_new (FALSE, FALSE, sizeof (double));
  FcRaster raster;
  int area_height = height - RULER_HEIGHT;
  int raster_height;
  guint drawn = 0;
  guint32 accent = fc_raster_pack (&(GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.0f });
  guint selected_frame = session_of (self) ? fc_session_get_selected_frame (session_of (self)) : FC_SESSION_NO_FRAME;

  self->n_drawn_boxes = 0;
  self->message = NULL;
  if (area_height <= 0)
    return;

  /* The frame filter keeps every box where it ran (time is the axis) but
   * greys out the frames it hides. */
  if (filter != FC_FRAME_FILTER_ALL)
    {
      shown = g_new (guint8, MAX (n_colors, 1));
      filtered_pixels = g_new (guint32, MAX (n_colors, 1));
      filtered_colors = g_new (GdkRGBA, MAX (n_colors, 1));
      for (guint f = 0; f < n_colors; f++)
        {
          shown[f] = fc_view_filter_shows (profile, f, filter);
          filtered_colors[f] = draw_colors[f];
          if (!shown[f])
            {
              float lum = 0.3f * draw_colors[f].red + 0.59f * draw_colors[f].green + 0.11f * draw_colors[f].blue;
              float grey = dark ? 0.26f + 0.1f * lum : 0.80f + 0.1f * lum;

              filtered_colors[f] = (GdkRGBA) { grey, grey, grey, 1.0f };
            }
          filtered_pixels[f] = fc_raster_pack (&filtered_colors[f]);
        }
      draw_pixels = filtered_pixels;
      draw_colors = filtered_colors;
    }
  /* a shallow profile needs pixels only down to its last row */
  raster_height = (int) MIN ((double) area_height, ceil (content_height (self) - self->scroll_y));
  raster_height = MAX (raster_height, 1);

  get_visible (self, &begin_ns, &end_ns);
  px_per_ns = (double) width / (double) (end_ns - begin_ns);

  fc_raster_init (&raster, width, raster_height, gtk_widget_get_scale_factor (GTK_WIDGET (self)));

  for (guint row = 0; row < n_rows; row++)
    {
      double y = self->row_tops[row] - self->scroll_y;
      FcFlameRowIter iter;
      FcFlameSpan span;
      int line, line_end;

      /* rows are few (a lane's depth): skipping the hidden and the
       * scrolled-away ones one by one costs nothing */
      if (self->row_tops[row] < 0 || y + ROW_HEIGHT <= 0 || y >= area_height)
        continue;

      /* Every box of a row covers the same device rows: paint the first
       * one, copy it down once at the end of the row, then frame the
       * selected frame's runs (they cover only part of the rows; no later
       * box of the row reaches their pixels, so the order is the same). */
      fc_raster_rows (&raster, y, y + ROW_HEIGHT - 1, &line, &line_end);
      g_array_set_size (outlines, 0);

      /* the boxes a pixel wide, and what the narrower ones cover of each
       * pixel: the cost follows the width, not the box count */
      fc_flame_row_iter_init (&iter, layout_of (self), fc_flame_view_get_frame_cache (FC_FLAME_VIEW (self)),
                              row, begin_ns, end_ns, px_per_ns);
      while (fc_flame_row_iter_next (&iter, &span))
        {
          const FcFlameBox *box = &span.box;
          gboolean known = box->frame < n_colors;
          guint32 pixel = known ? draw_pixels[box->frame] : fallback_pixel;
          double x0 = (double) (span.begin_ns - begin_ns) * px_per_ns;
          double x1 = (double) (span.end_ns - begin_ns) * px_per_ns;

          if (!span.merged)
            {
              double cx0 = MAX (x0, -1.0);
              double cx1 = MIN (x1, width + 1.0);

              /* a one pixel seam between neighbours */
              fc_raster_fill_line (&raster, pixel, line, cx0, MAX (cx1 - 1.0, cx0 + 1.0));
              drawn++;
              if (shown != NULL && known && shown[box->frame])
                drawn_shown++;

              /* every run of the selected frame is framed, so picking a
               * function anywhere shows when it ran */
              if (box->frame == selected_frame && cx1 - cx0 >= 3.0)
                {
                  g_array_append_val (outlines, cx0);
                  g_array_append_val (outlines, cx1);
                }

              if (cx1 - cx0 >= MIN_LABEL_WIDTH)
                {
                  double lx0 = MAX (x0, 0.0);
                  double lx1 = MIN (x1, (double) width);

                  if (lx1 - lx0 >= MIN_LABEL_WIDTH)
                    {
                      Label label = { box->frame, lx0 + LABEL_PADDING,
                                      RULER_HEIGHT + y + (ROW_HEIGHT - 1 - self->text_height) / 2.0,
                                      lx1 - lx0 - 2 * LABEL_PADDING,
                                      known ? &draw_colors[box->frame] : &fallback };

                      g_array_append_val (labels, label);
                    }
                }
            }
          /* boxes narrower than a pixel: what they cover of it in the
           * first one's colour, or nothing under a quarter pixel */
          else if (x1 - x0 >= CULL_WIDTH)
            {
              fc_raster_fill_line (&raster, pixel, line, x0, x1);
              drawn++;
              if (shown != NULL && known && shown[box->frame])
                drawn_shown++;
            }
        }

      fc_raster_repeat_line (&raster, line, line_end);
      for (guint o = 0; o < outlines->len; o += 2)
        {
          double cx0 = g_array_index (outlines, double, o);
          double cx1 = g_array_index (outlines, double, o + 1);
          double r = MAX (cx1 - 1.0, cx0 + 1.0);

          fc_raster_fill (&raster, accent, cx0, y, r, y + 2);
          fc_raster_fill (&raster, accent, cx0, y + ROW_HEIGHT - 3, r, y + ROW_HEIGHT - 1);
          fc_raster_fill (&raster, accent, cx0, y, cx0 + 2, y + ROW_HEIGHT - 1);
          fc_raster_fill (&raster, accent, r - 2, y, r, y + ROW_HEIGHT - 1);
        }
    }

  fc_raster_append (&raster, snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, raster_height), GTK_WIDGET (self));

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, area_height));
  for (guint l = 0; l < labels->len; l++)
    {
      const Label *label = &g_array_index (labels, Label, l);
      GdkRGBA text;

      fc_colors_text_for (label->color, &text);
      draw_frame_label (self, snapshot, profile, label->frame, label->x, label->y, label->width, &text);
    }

  /* all threads: each lane's header in the row above it, the one of the
   * lane running past the top edge pinned under the ruler */
  if (has_lane_headers (self))
    {
      GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.85f } : (GdkRGBA) { 0, 0, 0, 0.8f };
      GdkRGBA rule = dark ? (GdkRGBA) { 1, 1, 1, 0.15f } : (GdkRGBA) { 0, 0, 0, 0.12f };
      GdkRGBA band = dark ? (GdkRGBA) { 0.19f, 0.19f, 0.21f, 1 } : (GdkRGBA) { 0.93f, 0.93f, 0.94f, 1 };

      for (guint l = 0; l < self->n_geometry_lanes; l++)
        {
          double y = header_y (self, l);
          g_autofree char *title = NULL;

          if (y + ROW_HEIGHT <= RULER_HEIGHT || y >= height)
            continue;
          title = lane_title (self, l, TRUE);
          gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (0, y, width, ROW_HEIGHT));
          gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, y, width, 1));
          gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, y + ROW_HEIGHT - 1, width, 1));
          draw_label (self, snapshot, title, LABEL_PADDING, y + (ROW_HEIGHT - self->text_height) / 2.0,
                      width - 2 * LABEL_PADDING, &text);
        }
    }

  /* the filter hid every box in view: say so rather than show grey */
  if (shown != NULL && drawn > 0 && drawn_shown == 0)
    {
      GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.9f } : (GdkRGBA) { 0, 0, 0, 0.85f };
      double y = RULER_HEIGHT + (has_lane_headers (self) ? ROW_HEIGHT : 0) + LABEL_PADDING;

      self->message = fc_view_filter_empty_message (filter);
      draw_label (self, snapshot, self->message, LABEL_PADDING * 2, y, width - 4 * LABEL_PADDING, &text);
    }

  gtk_snapshot_pop (snapshot);

  self->n_drawn_boxes = drawn;
}

static void
fc_flame_chart_render_scene (FcFlameView *view,
                             GtkSnapshot *snapshot,
                             int          width,
                             int          height)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  gint64 b, e;

  ensure_pango (self);
  get_visible (self, &b, &e);

  self->n_drawn_boxes = 0;
  draw_grid (self, snapshot, width, height, b, e);
  if (layout_of (self) != NULL && fc_flame_view_get_draw_colors (view) != NULL)
    draw_boxes (self, snapshot, width, height);
  else if (fc_flame_view_get_profile (view) != NULL)
    {
      GdkRGBA text = fc_flame_view_is_dark (view) ? (GdkRGBA) { 1, 1, 1, 0.6f } : (GdkRGBA) { 0, 0, 0, 0.55f };

      /* big profiles are laid out on a worker: say so meanwhile */
      draw_label (self, snapshot, _("Laying out…"), LABEL_PADDING,
                  RULER_HEIGHT + (ROW_HEIGHT - self->text_height) / 2.0, width - 2 * LABEL_PADDING, &text);
    }
}

/* In application-or-system colours, a legend in the bottom right corner
 * says which is which. */
static void
draw_legend (FcFlameChart *self,
             GtkSnapshot  *snapshot,
             int           width,
             int           height)
{
  const char *names[FC_COLORS_MAX_LEGEND];
  GdkRGBA colors[FC_COLORS_MAX_LEGEND];
  gboolean dark = fc_flame_view_is_dark (FC_FLAME_VIEW (self));
  GdkRGBA back = dark ? (GdkRGBA) { 0.14f, 0.14f, 0.15f, 0.85f } : (GdkRGBA) { 1, 1, 1, 0.85f };
  GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.85f } : (GdkRGBA) { 0, 0, 0, 0.8f };
  PangoLayout *layouts[FC_COLORS_MAX_LEGEND];
  double x, y, total = 0;
  int text_height = 0;

  self->n_legend = 0;
  if (session_of (self) == NULL || layout_of (self) == NULL)
    return;
  self->n_legend = fc_colors_legend (fc_session_get_color_mode (session_of (self)), names, colors);
  if (self->n_legend == 0)
    return;

  for (guint i = 0; i < self->n_legend; i++)
    {
      int w = 0;

      layouts[i] = gtk_widget_create_pango_layout (GTK_WIDGET (self), names[i]);
      pango_layout_get_pixel_size (layouts[i], &w, &text_height);
      total += 10 + 4 + w + 10;
    }

  x = width - total - 6 - (gtk_widget_get_visible (self->scrollbar) ? gtk_widget_get_width (self->scrollbar) : 0);
  y = height - text_height - 10;
  gtk_snapshot_append_color (snapshot, &back, &GRAPHENE_RECT_INIT (x - 6, y - 3, total + 2, text_height + 6));
  for (guint i = 0; i < self->n_legend; i++)
    {
      int w = 0;

      gtk_snapshot_append_color (snapshot, &colors[i],
                                 &GRAPHENE_RECT_INIT (x, y + (text_height - 10) / 2.0, 10, 10));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 14, y));
      gtk_snapshot_append_layout (snapshot, layouts[i], &text);
      gtk_snapshot_restore (snapshot);
      pango_layout_get_pixel_size (layouts[i], &w, NULL);
      x += 10 + 4 + w + 10;
      g_object_unref (layouts[i]);
    }
}

/* legend entries drawn the last time (0: none) */
guint
fc_flame_chart_get_n_legend_entries (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->n_legend;
}

static void
fc_flame_chart_snapshot_overlay (FcFlameView *view,
                                 GtkSnapshot *snapshot,
                                 int          width,
                                 int          height)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  FcSession *session = session_of (self);
  const GdkRGBA *accent = fc_flame_view_get_accent (view);
  gint64 b, e;
  double px_per_ns;

  get_visible (self, &b, &e);
  px_per_ns = (double) width / (double) (e - b);

  /* the time selection, over the whole height */
  if (session != NULL && fc_session_has_selection (session))
    {
      double x0 = (fc_session_get_selection_begin_ns (session) - b) * px_per_ns;
      double x1 = (fc_session_get_selection_end_ns (session) - b) * px_per_ns;
      GdkRGBA shade = *accent;
      GdkRGBA edge = *accent;

      shade.alpha = 0.18f;
      edge.alpha = 0.9f;
      x0 = CLAMP (x0, -2.0, width + 2.0);
      x1 = CLAMP (x1, -2.0, width + 2.0);
      gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), height));
      gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
      gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
    }

  draw_legend (self, snapshot, width, height);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, height - RULER_HEIGHT));
  {
    graphene_rect_t bounds;

    if (self->has_hover && box_bounds (self, &self->hover_box, b, px_per_ns, &bounds))
      {
        GdkRGBA color;

        fc_flame_view_get_hover_color (view, &color);
        bounds.size.height -= 1;
        fc_flame_view_draw_outline (snapshot, &bounds, &color, 1);
      }
    if (self->has_selected && box_bounds (self, &self->selected_box, b, px_per_ns, &bounds))
      {
        bounds.size.height -= 1;
        fc_flame_view_draw_outline (snapshot, &bounds, accent, 2);
      }
  }
  gtk_snapshot_pop (snapshot);
}

static void
fc_flame_chart_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 800;
    }
  else
    {
      *minimum = RULER_HEIGHT + 3 * ROW_HEIGHT;
      *natural = MAX (natural_height (self), *minimum);
    }
}

static void
fc_flame_chart_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  double scroll_y = CLAMP (self->scroll_y, 0.0, max_scroll (self));
  int bar_width = 0, button_width = 0;

  if (scroll_y != self->scroll_y)
    {
      self->scroll_y = scroll_y;
      invalidate_scene (self);
    }
  update_adjustment (self);
  gtk_widget_allocate (self->ruler, width, RULER_HEIGHT, -1, NULL);

  /* the scrollbar along the right edge under the ruler, the lane list's
   * button at the ruler's right end */
  if (gtk_widget_get_visible (self->scrollbar))
    {
      gtk_widget_measure (self->scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &bar_width, NULL, NULL);
      gtk_widget_allocate (self->scrollbar, bar_width, MAX (0, height - RULER_HEIGHT), -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - bar_width, RULER_HEIGHT)));
    }
  if (gtk_widget_get_visible (self->lanes_button))
    {
      gtk_widget_measure (self->lanes_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &button_width, NULL, NULL);
      gtk_widget_allocate (self->lanes_button, button_width, RULER_HEIGHT, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - button_width, 0)));
    }
}

static void
fc_flame_chart_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);

  /* fonts may have changed */
  g_clear_object (&self->pango);
  g_clear_object (&self->ellipsis);
  g_hash_table_remove_all (self->labels);
  GTK_WIDGET_CLASS (fc_flame_chart_parent_class)->css_changed (widget, change);
}

/* ---- GObject ---- */

GtkWidget *
fc_flame_chart_new (void)
{
  return g_object_new (FC_TYPE_FLAME_CHART, NULL);
}

guint
fc_flame_chart_get_n_matches (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->matches->len;
}

guint
fc_flame_chart_get_current_match (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->current_match;
}

/* what the chart says over its boxes, or NULL: as of the last drawing */
const char *
fc_flame_chart_get_message (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), NULL);
  return self->message;
}

guint
fc_flame_chart_get_n_drawn_boxes (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->n_drawn_boxes;
}

static void
fc_flame_chart_dispose (GObject *object)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->pango);
  g_clear_object (&self->ellipsis);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (fc_flame_chart_parent_class)->dispose (object);
}

static void
fc_flame_chart_finalize (GObject *object)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->row_tops, g_free);
  g_clear_pointer (&self->lane_tops, g_free);
  g_clear_pointer (&self->lane_shown, g_free);
  g_clear_pointer (&self->expanded, g_hash_table_unref);

  G_OBJECT_CLASS (fc_flame_chart_parent_class)->finalize (object);
}

static void
fc_flame_chart_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  switch (prop_id)
    {
    case PROP_N_MATCHES:
      g_value_set_uint (value, self->matches->len);
      break;
    case PROP_CURRENT_MATCH:
      g_value_set_uint (value, self->current_match);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_flame_chart_class_init (FcFlameChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  FcFlameViewClass *view_class = FC_FLAME_VIEW_CLASS (klass);
  static const char * const actions[] = {
    "flamechart.zoom-in", "flamechart.zoom-out", "flamechart.zoom-reset",
    "flamechart.pan-left", "flamechart.pan-right", "flamechart.pan-up", "flamechart.pan-down",
    "flamechart.search-next", "flamechart.search-previous", "flamechart.clear-selection",
  };

  object_class->dispose = fc_flame_chart_dispose;
  object_class->finalize = fc_flame_chart_finalize;
  object_class->get_property = fc_flame_chart_get_property;

  widget_class->measure = fc_flame_chart_measure;
  widget_class->size_allocate = fc_flame_chart_size_allocate;
  widget_class->query_tooltip = fc_flame_chart_query_tooltip;
  widget_class->css_changed = fc_flame_chart_css_changed;

  view_class->render_scene = fc_flame_chart_render_scene;
  view_class->snapshot_overlay = fc_flame_chart_snapshot_overlay;
  view_class->reload = fc_flame_chart_reload;
  view_class->layout_changed = fc_flame_chart_layout_changed;
  view_class->search_changed = fc_flame_chart_search_changed;
  view_class->uses_layout = TRUE;
  properties[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CURRENT_MATCH] =
    g_param_spec_uint ("current-match", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, action_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "flamechart.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "flamechart.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "flamechart.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "flamechart.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "flamechart.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "flamechart.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "flamechart.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flamechart.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flamechart.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flamechart.pan-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flamechart.pan-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flamechart.clear-selection", NULL);

  gtk_widget_class_set_css_name (widget_class, "flamechart");
}

static void
fc_flame_chart_init (FcFlameChart *self)
{
  GtkEventController *controller;
  GSignalGroup *signals;
  GtkGesture *gesture;

  self->matches = g_array_new (FALSE, FALSE, sizeof (FcFlameBoxStart));
  self->labels = g_hash_table_new_full (NULL, NULL, NULL, label_entry_free);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "default");

  signals = fc_flame_view_get_session_signals (FC_FLAME_VIEW (self));
  g_signal_group_connect_swapped (signals, "notify::visible-begin-ns", G_CALLBACK (visible_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::visible-end-ns", G_CALLBACK (visible_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selection-begin-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selection-end-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selected-frame", G_CALLBACK (selected_frame_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::frame-filter", G_CALLBACK (visible_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::color-mode", G_CALLBACK (overlay_changed_cb), self);

  self->ruler = fc_time_ruler_new ();
  gtk_widget_set_parent (self->ruler, GTK_WIDGET (self));

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

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  g_signal_connect_swapped (gesture, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect_swapped (gesture, "scale-changed", G_CALLBACK (pinch_scale_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
