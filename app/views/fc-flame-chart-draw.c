/* fc-flame-chart-draw.c - the flamechart's scene and overlay
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>

#include "fc-colors.h"
#include "fc-flame-chart-private.h"
#include "fc-time-ruler.h"
#include "fc-view-util.h"

#define MIN_LABEL_WIDTH 28.0
#define LABEL_PADDING   4.0
#define CULL_WIDTH      0.25

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
      entry->layout = pango_layout_new (pango_layout_get_context (fc_flame_view_get_label_layout (FC_FLAME_VIEW (self), NULL)));
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

/* the view's label layout (fc_flame_view_get_label_layout()) and the
 * ellipsis the cached labels are cut with, both in this style's font */
static void
ensure_pango (FcFlameChart *self)
{
  fc_flame_view_get_label_layout (FC_FLAME_VIEW (self), &self->text_height);
  if (self->ellipsis != NULL)
    return;

  self->ellipsis = gtk_widget_create_pango_layout (GTK_WIDGET (self), "…");
  pango_layout_get_pixel_size (self->ellipsis, &self->ellipsis_width, NULL);
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
  gint64 origin = fc_flame_chart_session (self) != NULL ? fc_time_ruler_get_origin (fc_flame_chart_session (self)) : begin_ns;
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
  FcProfile *profile = fc_flame_layout_get_profile (fc_flame_chart_layout (self));
  gboolean dark = fc_flame_view_is_dark (FC_FLAME_VIEW (self));
  guint n_colors = 0;
  const GdkRGBA *draw_colors = fc_flame_view_get_draw_colors (FC_FLAME_VIEW (self));
  const guint32 *draw_pixels = fc_flame_view_get_draw_pixels (FC_FLAME_VIEW (self));
  gint64 begin_ns, end_ns;
  double px_per_ns;

  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);
  FcFrameFilter filter = fc_flame_chart_session (self) ? fc_session_get_frame_filter (fc_flame_chart_session (self)) : FC_FRAME_FILTER_ALL;
  g_autofree guint8 *shown = NULL;
  g_autofree guint32 *filtered_pixels = NULL;
  g_autofree GdkRGBA *filtered_colors = NULL;
  guint drawn_shown = 0;
  guint n_rows = MIN (fc_flame_layout_get_n_rows (fc_flame_chart_layout (self)), self->n_geometry_rows);
  GdkRGBA fallback = { 0.8f, 0.8f, 0.8f, 1.0f };
  guint32 fallback_pixel = fc_raster_pack (&fallback);
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (Label));
  g_autoptr(GArray) outlines = g_array_new (FALSE, FALSE, sizeof (double));
  FcRaster raster;
  int area_height = height - RULER_HEIGHT;
  int raster_height;
  guint drawn = 0;
  guint32 accent = fc_raster_pack (&(GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.0f });
  guint selected_frame = fc_flame_chart_session (self) ? fc_session_get_selected_frame (fc_flame_chart_session (self)) : FC_SESSION_NO_FRAME;

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
  raster_height = (int) MIN ((double) area_height, ceil (self->content_height - self->scroll_y));
  raster_height = MAX (raster_height, 1);

  fc_flame_chart_get_visible (self, &begin_ns, &end_ns);
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
      fc_flame_row_iter_init (&iter, fc_flame_chart_layout (self), fc_flame_view_get_frame_cache (FC_FLAME_VIEW (self)),
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
  if (fc_flame_chart_has_lane_headers (self))
    {
      GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.85f } : (GdkRGBA) { 0, 0, 0, 0.8f };
      GdkRGBA rule = dark ? (GdkRGBA) { 1, 1, 1, 0.15f } : (GdkRGBA) { 0, 0, 0, 0.12f };
      GdkRGBA band = dark ? (GdkRGBA) { 0.19f, 0.19f, 0.21f, 1 } : (GdkRGBA) { 0.93f, 0.93f, 0.94f, 1 };

      for (guint l = 0; l < self->n_geometry_lanes; l++)
        {
          double y = fc_flame_chart_header_y (self, l);
          g_autofree char *title = NULL;

          if (y + ROW_HEIGHT <= RULER_HEIGHT || y >= height)
            continue;
          title = fc_flame_chart_lane_title (self, l, TRUE);
          gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (0, y, width, ROW_HEIGHT));
          gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, y, width, 1));
          gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, y + ROW_HEIGHT - 1, width, 1));
          fc_flame_view_draw_label (FC_FLAME_VIEW (self), snapshot, title, LABEL_PADDING,
                                    y + (ROW_HEIGHT - self->text_height) / 2.0, width - 2 * LABEL_PADDING, &text);
        }
    }

  /* the filter hid every box in view: say so rather than show grey */
  if (shown != NULL && drawn > 0 && drawn_shown == 0)
    {
      GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.9f } : (GdkRGBA) { 0, 0, 0, 0.85f };
      double y = RULER_HEIGHT + (fc_flame_chart_has_lane_headers (self) ? ROW_HEIGHT : 0) + LABEL_PADDING;

      self->message = fc_view_filter_empty_message (filter);
      fc_flame_view_draw_label (FC_FLAME_VIEW (self), snapshot, self->message, LABEL_PADDING * 2, y,
                                width - 4 * LABEL_PADDING, &text);
    }

  gtk_snapshot_pop (snapshot);

  self->n_drawn_boxes = drawn;
}

void
fc_flame_chart_render_scene (FcFlameView *view,
                             GtkSnapshot *snapshot,
                             int          width,
                             int          height)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  gint64 b, e;

  ensure_pango (self);
  fc_flame_chart_get_visible (self, &b, &e);

  self->n_drawn_boxes = 0;
  draw_grid (self, snapshot, width, height, b, e);
  if (fc_flame_chart_layout (self) != NULL && fc_flame_view_get_draw_colors (view) != NULL)
    draw_boxes (self, snapshot, width, height);
  else if (fc_flame_view_get_profile (view) != NULL)
    {
      GdkRGBA text = fc_flame_view_is_dark (view) ? (GdkRGBA) { 1, 1, 1, 0.6f } : (GdkRGBA) { 0, 0, 0, 0.55f };

      /* big profiles are laid out on a worker: say so meanwhile */
      fc_flame_view_draw_label (FC_FLAME_VIEW (self), snapshot, _("Laying out…"), LABEL_PADDING,
                                RULER_HEIGHT + (ROW_HEIGHT - self->text_height) / 2.0, width - 2 * LABEL_PADDING,
                                &text);
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
  if (fc_flame_chart_session (self) == NULL || fc_flame_chart_layout (self) == NULL)
    return;
  self->n_legend = fc_colors_legend (fc_session_get_color_mode (fc_flame_chart_session (self)), names, colors);
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

void
fc_flame_chart_snapshot_overlay (FcFlameView *view,
                                 GtkSnapshot *snapshot,
                                 int          width,
                                 int          height)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  FcSession *session = fc_flame_chart_session (self);
  const GdkRGBA *accent = fc_flame_view_get_accent (view);
  gint64 b, e;
  double px_per_ns;

  fc_flame_chart_get_visible (self, &b, &e);
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

    if (self->has_hover && fc_flame_chart_box_bounds (self, &self->hover_box, b, px_per_ns, &bounds))
      {
        GdkRGBA color;

        fc_flame_view_get_hover_color (view, &color);
        bounds.size.height -= 1;
        fc_flame_view_draw_outline (snapshot, &bounds, &color, 1);
      }
    if (self->has_selected && fc_flame_chart_box_bounds (self, &self->selected_box, b, px_per_ns, &bounds))
      {
        bounds.size.height -= 1;
        fc_flame_view_draw_outline (snapshot, &bounds, accent, 2);
      }
  }
  gtk_snapshot_pop (snapshot);
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

GHashTable *
fc_flame_chart_label_cache_new (void)
{
  return g_hash_table_new_full (NULL, NULL, NULL, label_entry_free);
}

void
fc_flame_chart_forget_text (FcFlameChart *self)
{
  g_clear_object (&self->ellipsis);
  g_hash_table_remove_all (self->labels);
}
