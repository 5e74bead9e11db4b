/* fc-flame-chart-private.h - the flamechart's state, shared by its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-flame-chart.h"

G_BEGIN_DECLS

/*
 * The flamechart is one widget in five files: fc-flame-chart.c (the widget
 * shell: children, size, what follows the session), fc-flame-chart-lanes.c
 * (where rows and lanes sit, scrolling, the lane list),
 * fc-flame-chart-search.c (the boxes matching the search, stepping through
 * them), fc-flame-chart-input.c (actions, pointer, gestures, tooltips) and
 * fc-flame-chart-draw.c (the cached scene and the overlay).
 */

#define ROW_HEIGHT   FC_FLAME_CHART_ROW_HEIGHT
#define RULER_HEIGHT FC_FLAME_CHART_RULER_HEIGHT

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
  PangoLayout    *ellipsis;        /* box labels: the view's label layout, cut with this */
  int             ellipsis_width;
  GHashTable     *labels;          /* frame id -> label: shaped once, drawn every zoom step */

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
  FC_FLAME_CHART_PROP_0,
  FC_FLAME_CHART_PROP_N_MATCHES,
  FC_FLAME_CHART_PROP_CURRENT_MATCH,
  FC_FLAME_CHART_N_PROPS
};

static inline FcSession *
fc_flame_chart_session (FcFlameChart *self)
{
  return fc_flame_view_get_session (FC_FLAME_VIEW (self));
}

static inline FcFlameLayout *
fc_flame_chart_layout (FcFlameChart *self)
{
  return fc_flame_view_get_layout (FC_FLAME_VIEW (self));
}

/* fc-flame-chart.c */
void     fc_flame_chart_notify              (FcFlameChart     *self,
                                             guint             prop_id);
void     fc_flame_chart_get_visible         (FcFlameChart     *self,
                                             gint64           *begin_ns,
                                             gint64           *end_ns);
gint64   fc_flame_chart_time_at             (FcFlameChart     *self,
                                             double            x);

/* fc-flame-chart-lanes.c */
void     fc_flame_chart_init_lanes          (FcFlameChart     *self);
gboolean fc_flame_chart_has_lane_headers    (FcFlameChart     *self);
void     fc_flame_chart_update_geometry     (FcFlameChart     *self);
void     fc_flame_chart_update_lane_list    (FcFlameChart     *self);
void     fc_flame_chart_update_adjustment   (FcFlameChart     *self);
double   fc_flame_chart_max_scroll          (FcFlameChart     *self);
void     fc_flame_chart_set_scroll_y        (FcFlameChart     *self,
                                             double            scroll_y);
int      fc_flame_chart_natural_height      (FcFlameChart     *self);
double   fc_flame_chart_header_y            (FcFlameChart     *self,
                                             guint             lane);
gint     fc_flame_chart_header_at           (FcFlameChart     *self,
                                             double            y);
char    *fc_flame_chart_lane_title          (FcFlameChart     *self,
                                             guint             lane,
                                             gboolean          with_rows);
gboolean fc_flame_chart_box_bounds          (FcFlameChart     *self,
                                             const FcFlameBox *box,
                                             gint64            begin_ns,
                                             double            px_per_ns,
                                             graphene_rect_t  *bounds);
void     fc_flame_chart_reveal_row          (FcFlameChart     *self,
                                             guint             row);

/* fc-flame-chart-search.c */
void     fc_flame_chart_update_search       (FcFlameChart     *self);
void     fc_flame_chart_go_to_match         (FcFlameChart     *self,
                                             gint              step);

/* fc-flame-chart-input.c */
void     fc_flame_chart_class_init_input    (GtkWidgetClass   *widget_class);
void     fc_flame_chart_init_input          (FcFlameChart     *self);
void     fc_flame_chart_zoom_to_box         (FcFlameChart     *self,
                                             const FcFlameBox *box);
void     fc_flame_chart_select_box          (FcFlameChart     *self,
                                             const FcFlameBox *box);

/* fc-flame-chart-draw.c */
GHashTable *fc_flame_chart_label_cache_new  (void);
/* fonts may have changed, or the profile's frames */
void     fc_flame_chart_forget_text         (FcFlameChart     *self);
void     fc_flame_chart_render_scene        (FcFlameView      *view,
                                             GtkSnapshot      *snapshot,
                                             int               width,
                                             int               height);
void     fc_flame_chart_snapshot_overlay    (FcFlameView      *view,
                                             GtkSnapshot      *snapshot,
                                             int               width,
                                             int               height);

/* for tests: a drag from @x, @y pans time and depth, or with @select_range
 * (shift held) selects the time range it covers */
void   fc_flame_chart_drag_begin   (FcFlameChart *self,
                                    double        x,
                                    double        y,
                                    gboolean      select_range);
void   fc_flame_chart_drag_update  (FcFlameChart *self,
                                    double        offset_x,
                                    double        offset_y);
double fc_flame_chart_get_scroll_y (FcFlameChart *self);
guint  fc_flame_chart_get_n_legend_entries (FcFlameChart *self);
GtkAdjustment *fc_flame_chart_get_vadjustment  (FcFlameChart *self);
GtkListBox    *fc_flame_chart_get_lane_list    (FcFlameChart *self);

/* all threads (0 lanes otherwise): one lane per thread under a header row */
guint          fc_flame_chart_get_n_lanes       (FcFlameChart *self);
double         fc_flame_chart_get_lane_y        (FcFlameChart *self,
                                                 guint         lane);
double         fc_flame_chart_get_lane_height   (FcFlameChart *self,
                                                 guint         lane);
char          *fc_flame_chart_dup_lane_title    (FcFlameChart *self,
                                                 guint         lane);
gboolean       fc_flame_chart_get_lane_expanded (FcFlameChart *self,
                                                 guint         lane);
void           fc_flame_chart_set_lane_expanded (FcFlameChart *self,
                                                 guint         lane,
                                                 gboolean      expanded);
void           fc_flame_chart_show_lane         (FcFlameChart *self,
                                                 guint         lane);

G_END_DECLS
