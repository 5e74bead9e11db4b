/* fc-flame-graph.c - merged call paths, widest left
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>

#include "fc-colors.h"
#include "fc-flame-graph.h"
#include "fc-layout-cache.h"
#include "fc-view-util.h"

#define ROW_HEIGHT      FC_FLAME_GRAPH_ROW_HEIGHT
#define MIN_LABEL_WIDTH 28.0
#define LABEL_PADDING   4.0
#define CULL_WIDTH      0.25
#define WHEEL_PIXELS    50.0
#define NO_NODE         G_MAXUINT
#define RELOAD_DELAY_MS 80

struct _FcFlameGraph
{
  GtkWidget       parent_instance;

  /* owned */
  FcSession      *session;
  GSignalGroup   *session_signals;
  GCancellable   *cancellable;
  guint           reload_source;   /* a coalesced rebuild while a selection is dragged */
  FcCallTree     *tree;
  gint64         *offsets;         /* per node: where it starts, in weight units */
  GdkRGBA        *colors;
  GdkRGBA        *draw_colors;
  guint           n_colors;
  guint8         *search_match;
  guint           n_matches;
  GskRenderNode  *scene;
  PangoLayout    *pango;

  int             scene_width;
  int             scene_height;
  double          scene_scroll_y;
  guint           n_drawn_boxes;

  double          scroll_y;
  guint           focus;
  guint           hover;
  guint           selected;
  int             text_height;
  gboolean        dark;
  gboolean        use_samples;     /* weigh by samples when durations are all zero */
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_TREE,
  PROP_N_MATCHES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FcFlameGraph, fc_flame_graph, GTK_TYPE_WIDGET)

/* ---- geometry ---- */

static inline gint64
weight (FcFlameGraph         *self,
        const FcCallTreeNode *node)
{
  return self->use_samples ? (gint64) fc_call_tree_node_get_total (node)
                           : fc_call_tree_node_get_total_ns (node);
}

static void
get_view (FcFlameGraph *self,
          gint64       *begin,
          gint64       *end)
{
  const FcCallTreeNode *focus = fc_flame_graph_get_focus (self);

  *begin = 0;
  *end = 1;
  if (focus == NULL)
    return;
  *begin = self->offsets[fc_call_tree_node_get_index (focus)];
  *end = *begin + MAX (weight (self, focus), 1);
}

static void
compute_offsets (FcFlameGraph *self)
{
  guint n = fc_call_tree_get_n_nodes (self->tree);

  g_clear_pointer (&self->offsets, g_free);
  self->offsets = g_new0 (gint64, n);
  self->use_samples = fc_call_tree_node_get_total_ns (fc_call_tree_get_root (self->tree)) <= 0;

  /* parents come before children in index order */
  for (guint i = 0; i < n; i++)
    {
      const FcCallTreeNode *node = fc_call_tree_get_node (self->tree, i);
      gint64 cursor = self->offsets[i];

      for (guint c = 0; c < fc_call_tree_node_get_n_children (node); c++)
        {
          const FcCallTreeNode *child = fc_call_tree_node_get_child (node, c);

          self->offsets[fc_call_tree_node_get_index (child)] = cursor;
          cursor += weight (self, child);
        }
    }
}

static const FcCallTreeNode *
node_at_index (FcFlameGraph *self,
               guint         index)
{
  if (self->tree == NULL || index == NO_NODE || index >= fc_call_tree_get_n_nodes (self->tree))
    return NULL;
  return fc_call_tree_get_node (self->tree, index);
}

const FcCallTreeNode *
fc_flame_graph_node_at (FcFlameGraph *self,
                        double        x,
                        double        y)
{
  const FcCallTreeNode *node;
  int width;
  gint64 b, e, t;
  double row;

  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);

  if (self->tree == NULL || x < 0 || y < 0)
    return NULL;

  width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  if (x >= width)
    return NULL;
  row = floor ((y + self->scroll_y) / ROW_HEIGHT);
  get_view (self, &b, &e);
  t = b + (gint64) ((double) (e - b) * x / width);

  node = fc_call_tree_get_root (self->tree);
  for (guint depth = 0; depth <= (guint) row; depth++)
    {
      guint lo = 0, hi = fc_call_tree_node_get_n_children (node);
      const FcCallTreeNode *next = NULL;

      /* children sit side by side in order: binary search on offsets */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          const FcCallTreeNode *child = fc_call_tree_node_get_child (node, mid);
          gint64 start = self->offsets[fc_call_tree_node_get_index (child)];

          if (t < start)
            hi = mid;
          else if (t >= start + weight (self, child))
            lo = mid + 1;
          else
            {
              next = child;
              break;
            }
        }
      if (next == NULL)
        return NULL;
      node = next;
    }

  return node;
}

static void
node_bounds (FcFlameGraph         *self,
             const FcCallTreeNode *node,
             int                   width,
             graphene_rect_t      *bounds)
{
  gint64 b, e;
  double px_per_unit;
  guint index = fc_call_tree_node_get_index (node);
  double x0, x1;

  get_view (self, &b, &e);
  px_per_unit = (double) width / (double) (e - b);
  x0 = (double) (self->offsets[index] - b) * px_per_unit;
  x1 = (double) (self->offsets[index] + weight (self, node) - b) * px_per_unit;
  graphene_rect_init (bounds, x0, (fc_call_tree_node_get_depth (node) - 1.0) * ROW_HEIGHT - self->scroll_y,
                      x1 - x0, ROW_HEIGHT);
}

void
fc_flame_graph_get_node_bounds (FcFlameGraph         *self,
                                const FcCallTreeNode *node,
                                graphene_rect_t      *bounds)
{
  g_return_if_fail (FC_IS_FLAME_GRAPH (self));
  g_return_if_fail (node != NULL && bounds != NULL && self->tree != NULL);

  node_bounds (self, node, MAX (1, gtk_widget_get_width (GTK_WIDGET (self))), bounds);
}

static double
max_scroll (FcFlameGraph *self)
{
  double content = self->tree ? fc_call_tree_get_max_depth (self->tree) * (double) ROW_HEIGHT : 0;

  return MAX (0.0, content - gtk_widget_get_height (GTK_WIDGET (self)) + ROW_HEIGHT);
}

static void
set_scroll_y (FcFlameGraph *self,
              double        scroll_y)
{
  scroll_y = CLAMP (scroll_y, 0.0, max_scroll (self));
  if (scroll_y == self->scroll_y)
    return;
  self->scroll_y = scroll_y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- state that follows the session ---- */

static void
invalidate_scene (FcFlameGraph *self)
{
  g_clear_pointer (&self->scene, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_draw_colors (FcFlameGraph *self)
{
  g_clear_pointer (&self->draw_colors, g_free);
  if (self->colors == NULL)
    return;

  self->draw_colors = g_memdup2 (self->colors, sizeof (GdkRGBA) * MAX (self->n_colors, 1));
  if (self->search_match != NULL)
    for (guint i = 0; i < self->n_colors; i++)
      if (!self->search_match[i])
        fc_colors_dim (&self->colors[i], self->dark, &self->draw_colors[i]);
}

static void
update_colors (FcFlameGraph *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  g_clear_pointer (&self->colors, g_free);
  self->n_colors = 0;
  if (profile != NULL)
    self->colors = fc_colors_for_profile (profile, fc_session_get_color_mode (self->session),
                                          &self->n_colors);
  update_draw_colors (self);
  invalidate_scene (self);
}

static void
update_search (FcFlameGraph *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;
  guint n_matches = 0;

  g_clear_pointer (&self->search_match, g_free);
  if (profile != NULL)
    self->search_match = fc_view_search_frames (profile, fc_session_get_search_text (self->session), NULL);

  if (self->search_match != NULL && self->tree != NULL)
    for (guint i = 1; i < fc_call_tree_get_n_nodes (self->tree); i++)
      {
        guint32 frame = fc_call_tree_node_get_frame (fc_call_tree_get_node (self->tree, i));

        n_matches += frame < self->n_colors && self->search_match[frame];
      }

  update_draw_colors (self);
  if (n_matches != self->n_matches)
    {
      self->n_matches = n_matches;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
    }
  invalidate_scene (self);
}

static void
set_tree (FcFlameGraph *self,
          FcCallTree   *tree)
{
  if (tree == self->tree)
    return;

  g_clear_pointer (&self->tree, fc_call_tree_unref);
  g_clear_pointer (&self->offsets, g_free);
  if (tree != NULL)
    {
      self->tree = fc_call_tree_ref (tree);
      compute_offsets (self);
    }

  self->focus = 0;
  self->hover = NO_NODE;
  self->selected = NO_NODE;
  self->scroll_y = 0;
  update_search (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

static void
tree_ready_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcFlameGraph) self = g_weak_ref_get (weak);
  g_autoptr(FcCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  g_weak_ref_clear (weak);
  g_free (weak);

  tree = fc_call_tree_new_finish (result, &error);
  if (self == NULL)
    return;
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not build the flamegraph: %s", error->message);
      return;
    }
  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  set_tree (self, tree);
}

static void
reload_cb (FcFlameGraph *self)
{
  FcProfile *profile;
  gint thread;
  gint64 begin, end;
  guint n_samples = 0;
  FcFrameFilter which;
  GWeakRef *weak;

  g_clear_handle_id (&self->reload_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  profile = self->session ? fc_session_get_profile (self->session) : NULL;
  if (profile == NULL)
    {
      set_tree (self, NULL);
      update_colors (self);
      return;
    }

  if (self->colors == NULL || self->tree == NULL || fc_call_tree_get_profile (self->tree) != profile)
    update_colors (self);

  thread = fc_session_get_thread (self->session);
  begin = fc_session_get_selection_begin_ns (self->session);
  end = fc_session_get_selection_end_ns (self->session);

  if (thread >= 0 && (guint) thread < fc_profile_get_n_threads (profile))
    fc_profile_get_thread_samples (profile, thread, &n_samples);
  else
    n_samples = fc_profile_get_n_samples (profile);

  which = fc_session_get_frame_filter (self->session);

  if (n_samples < FC_LAYOUT_CACHE_SYNC_SAMPLES)
    {
      g_autoptr(FcCallTree) tree = fc_call_tree_new_full (profile, thread, begin, end, FALSE, which);

      set_tree (self, tree);
      return;
    }

  /* Keep showing the old tree until the new one is ready: a selection
   * being dragged rebuilds many times. */
  self->cancellable = g_cancellable_new ();
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  fc_call_tree_new_full_async (profile, thread, begin, end, FALSE, which, self->cancellable, tree_ready_cb, weak);
}

static gboolean
reload_timeout_cb (gpointer user_data)
{
  FcFlameGraph *self = user_data;

  self->reload_source = 0;
  reload_cb (self);
  return G_SOURCE_REMOVE;
}

/* Dragging a selection changes it at every motion event; rebuilding a big
 * tree each time would queue worker after worker. Small trees follow at
 * once. */
static void
selection_changed_cb (FcFlameGraph *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  if (profile == NULL || fc_profile_get_n_samples (profile) < FC_LAYOUT_CACHE_SYNC_SAMPLES)
    {
      reload_cb (self);
      return;
    }

  g_clear_handle_id (&self->reload_source, g_source_remove);
  self->reload_source = g_timeout_add (RELOAD_DELAY_MS, reload_timeout_cb, self);
}

static void
profile_changed_cb (FcFlameGraph *self)
{
  set_tree (self, NULL);
  update_colors (self);
  reload_cb (self);
}

static void
selected_frame_changed_cb (FcFlameGraph *self)
{
  const FcCallTreeNode *node = node_at_index (self, self->selected);

  if (node != NULL && fc_call_tree_node_get_frame (node) != fc_session_get_selected_frame (self->session))
    self->selected = NO_NODE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- focus and input ---- */

const FcCallTreeNode *
fc_flame_graph_get_focus (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);

  if (self->tree == NULL)
    return NULL;
  return node_at_index (self, self->focus);
}

void
fc_flame_graph_set_focus (FcFlameGraph         *self,
                          const FcCallTreeNode *node)
{
  guint focus;

  g_return_if_fail (FC_IS_FLAME_GRAPH (self));

  focus = node ? fc_call_tree_node_get_index (node) : 0;
  if (focus == self->focus)
    return;
  self->focus = focus;
  invalidate_scene (self);
}

static void
select_node (FcFlameGraph         *self,
             const FcCallTreeNode *node)
{
  self->selected = node ? fc_call_tree_node_get_index (node) : NO_NODE;
  if (self->session != NULL)
    fc_session_set_selected_frame (self->session, node ? fc_call_tree_node_get_frame (node) : FC_SESSION_NO_FRAME);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
action_cb (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);

  if (g_str_equal (action_name, "flamegraph.zoom-reset"))
    {
      fc_flame_graph_set_focus (self, NULL);
      set_scroll_y (self, 0);
    }
  else if (g_str_equal (action_name, "flamegraph.zoom-out"))
    {
      const FcCallTreeNode *focus = fc_flame_graph_get_focus (self);

      if (focus != NULL && fc_call_tree_node_get_parent (focus) != NULL)
        fc_flame_graph_set_focus (self, fc_call_tree_node_get_parent (focus));
    }
  else if (g_str_equal (action_name, "flamegraph.zoom-in"))
    {
      const FcCallTreeNode *node = node_at_index (self, self->selected);

      if (node != NULL)
        fc_flame_graph_set_focus (self, node);
    }
}

static void
pressed_cb (FcFlameGraph    *self,
            int              n_press,
            double           x,
            double           y,
            GtkGestureClick *gesture)
{
  const FcCallTreeNode *node = fc_flame_graph_node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 1)
    select_node (self, node);
  else if (n_press == 2 && node != NULL)
    fc_flame_graph_set_focus (self, node);
}

static void
motion_cb (FcFlameGraph *self,
           double        x,
           double        y)
{
  const FcCallTreeNode *node = fc_flame_graph_node_at (self, x, y);
  guint hover = node ? fc_call_tree_node_get_index (node) : NO_NODE;

  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (FcFlameGraph *self)
{
  if (self->hover != NO_NODE)
    {
      self->hover = NO_NODE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
scroll_cb (FcFlameGraph             *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  double unit = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL ? WHEEL_PIXELS : 1.0;

  set_scroll_y (self, self->scroll_y + dy * unit);
  return TRUE;
}

static gboolean
fc_flame_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);
  const FcCallTreeNode *node = fc_flame_graph_node_at (self, x, y);
  g_autofree char *markup = NULL;
  g_autofree char *self_time = NULL;
  g_autofree char *full = NULL;
  gint64 whole;

  if (node == NULL)
    return FALSE;

  whole = fc_call_tree_node_get_total_ns (fc_call_tree_get_root (self->tree));
  markup = fc_view_frame_tooltip (fc_call_tree_get_profile (self->tree), fc_call_tree_node_get_frame (node),
                                  fc_call_tree_node_get_total_ns (node), whole,
                                  fc_session_has_selection (self->session) ? _("of the selection")
                                                                           : _("of the thread"));
  if (markup == NULL)
    return FALSE;
  self_time = fc_view_format_duration (fc_call_tree_node_get_self_ns (node));
  full = g_strdup_printf ("%s\n%s %s, %" G_GUINT64_FORMAT " %s", markup, _("Self:"), self_time,
                          fc_call_tree_node_get_total (node),
                          g_dngettext (NULL, "sample", "samples", fc_call_tree_node_get_total (node)));
  gtk_tooltip_set_markup (tooltip, full);
  return TRUE;
}

/* ---- drawing ---- */

static void
ensure_pango (FcFlameGraph *self)
{
  if (self->pango != NULL)
    return;

  self->pango = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_get_pixel_size (self->pango, NULL, &self->text_height);
  pango_layout_set_ellipsize (self->pango, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (self->pango, TRUE);
}

typedef struct {
  guint32        frame;
  double         x;
  double         y;
  double         width;
  const GdkRGBA *color;
} Label;

static void
draw_scene (FcFlameGraph *self,
            GtkSnapshot  *snapshot,
            int           width,
            int           height)
{
  FcProfile *profile = fc_call_tree_get_profile (self->tree);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (Label));
  g_autoptr(GdkTexture) texture = NULL;
  GdkRGBA fallback = { 0.8f, 0.8f, 0.8f, 1.0f };
  FcRaster raster;
  int raster_height;
  gint64 b, e;
  double px_per_unit;
  guint root = 0;
  guint drawn = 0;

  ensure_pango (self);
  get_view (self, &b, &e);
  px_per_unit = (double) width / (double) (e - b);
  /* a shallow tree needs pixels only down to its last row */
  raster_height = (int) MIN ((double) height, ceil (fc_call_tree_get_max_depth (self->tree) * (double) ROW_HEIGHT - self->scroll_y));
  raster_height = MAX (raster_height, 1);
  fc_raster_init (&raster, width, raster_height, gtk_widget_get_scale_factor (GTK_WIDGET (self)));

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint index = g_array_index (stack, guint, stack->len - 1);
      const FcCallTreeNode *node = fc_call_tree_get_node (self->tree, index);
      guint depth = fc_call_tree_node_get_depth (node);

      g_array_set_size (stack, stack->len - 1);

      if (depth > 0)
        {
          double x0 = (double) (self->offsets[index] - b) * px_per_unit;
          double x1 = (double) (self->offsets[index] + weight (self, node) - b) * px_per_unit;
          double y = (depth - 1.0) * ROW_HEIGHT - self->scroll_y;
          guint32 frame = fc_call_tree_node_get_frame (node);
          const GdkRGBA *color = frame < self->n_colors ? &self->draw_colors[frame] : &fallback;
          double cx0, cx1;

          /* children are narrower and below: skip the whole subtree */
          if (x1 <= 0 || x0 >= width || x1 - x0 < CULL_WIDTH || y >= height)
            continue;

          cx0 = MAX (x0, -1.0);
          cx1 = MIN (x1, width + 1.0);
          if (y + ROW_HEIGHT > 0)
            {
              fc_raster_fill (&raster, fc_raster_pack (color), cx0, y, MAX (cx1 - 1.0, cx0 + 0.5), y + ROW_HEIGHT - 1);
              drawn++;

              if (cx1 - cx0 >= MIN_LABEL_WIDTH)
                {
                  double lx0 = MAX (x0, 0.0);
                  double lx1 = MIN (x1, (double) width);
                  Label label = { frame, lx0 + LABEL_PADDING, y + (ROW_HEIGHT - 1 - self->text_height) / 2.0,
                                  lx1 - lx0 - 2 * LABEL_PADDING, color };

                  g_array_append_val (labels, label);
                }
            }
        }

      for (guint c = fc_call_tree_node_get_n_children (node); c > 0; c--)
        {
          guint child = fc_call_tree_node_get_index (fc_call_tree_node_get_child (node, c - 1));

          g_array_append_val (stack, child);
        }
    }

  texture = fc_raster_to_texture_for_widget (&raster, GTK_WIDGET (self));
  gtk_snapshot_append_texture (snapshot, texture, &GRAPHENE_RECT_INIT (0, 0, width, raster_height));

  for (guint l = 0; l < labels->len; l++)
    {
      const Label *label = &g_array_index (labels, Label, l);
      char buf[64];
      GdkRGBA text;

      fc_colors_text_for (label->color, &text);
      pango_layout_set_text (self->pango, fc_profile_frame_label (profile, label->frame, buf, sizeof buf), -1);
      pango_layout_set_width (self->pango, (int) (label->width * PANGO_SCALE));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (label->x, label->y));
      gtk_snapshot_append_layout (snapshot, self->pango, &text);
      gtk_snapshot_restore (snapshot);
    }

  self->n_drawn_boxes = drawn;
}

GskRenderNode *
fc_flame_graph_render_scene (FcFlameGraph *self,
                             int           width,
                             int           height)
{
  g_autoptr(GtkSnapshot) snapshot = NULL;

  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  self->n_drawn_boxes = 0;
  snapshot = gtk_snapshot_new ();
  if (self->tree != NULL && self->draw_colors != NULL)
    draw_scene (self, snapshot, width, height);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

guint
fc_flame_graph_get_n_drawn_boxes (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), 0);
  return self->n_drawn_boxes;
}

static void
draw_outline (GtkSnapshot           *snapshot,
              const graphene_rect_t *bounds,
              const GdkRGBA         *color,
              float                  thickness)
{
  GskRoundedRect outline;
  const float widths[4] = { thickness, thickness, thickness, thickness };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&outline, bounds, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

static void
fc_flame_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  const FcCallTreeNode *hover;
  const FcCallTreeNode *selected;
  graphene_rect_t bounds;
  gboolean dark;

  if (width <= 0 || height <= 0)
    return;

  dark = fc_view_is_dark (widget);
  if (dark != self->dark)
    {
      self->dark = dark;
      update_draw_colors (self);
      g_clear_pointer (&self->scene, gsk_render_node_unref);
    }

  if (self->scene == NULL || self->scene_width != width || self->scene_height != height ||
      self->scene_scroll_y != self->scroll_y)
    {
      g_clear_pointer (&self->scene, gsk_render_node_unref);
      self->scene = fc_flame_graph_render_scene (self, width, height);
      self->scene_width = width;
      self->scene_height = height;
      self->scene_scroll_y = self->scroll_y;
    }
  gtk_snapshot_append_node (snapshot, self->scene);

  hover = node_at_index (self, self->hover);
  selected = node_at_index (self, self->selected);
  if (hover != NULL && fc_call_tree_node_get_depth (hover) > 0)
    {
      GdkRGBA color = self->dark ? (GdkRGBA) { 1, 1, 1, 0.9f } : (GdkRGBA) { 0, 0, 0, 0.75f };

      node_bounds (self, hover, width, &bounds);
      bounds.size.height -= 1;
      draw_outline (snapshot, &bounds, &color, 1);
    }
  if (selected != NULL && fc_call_tree_node_get_depth (selected) > 0)
    {
      GdkRGBA color = { 0.21f, 0.52f, 0.89f, 1.0f };

      node_bounds (self, selected, width, &bounds);
      bounds.size.height -= 1;
      draw_outline (snapshot, &bounds, &color, 2);
    }
}

static void
fc_flame_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 800;
    }
  else
    {
      guint depth = self->tree ? fc_call_tree_get_max_depth (self->tree) : 0;

      *minimum = 3 * ROW_HEIGHT;
      *natural = MAX (*minimum, (int) MIN (depth * ROW_HEIGHT, 2000u));
    }
}

static void
fc_flame_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);

  self->scroll_y = CLAMP (self->scroll_y, 0.0, max_scroll (self));
}

static void
fc_flame_graph_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (fc_flame_graph_parent_class)->css_changed (widget, change);
  g_clear_object (&self->pango);
  invalidate_scene (self);
}

/* ---- GObject ---- */

GtkWidget *
fc_flame_graph_new (void)
{
  return g_object_new (FC_TYPE_FLAME_GRAPH, NULL);
}

FcSession *
fc_flame_graph_get_session (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);
  return self->session;
}

void
fc_flame_graph_set_session (FcFlameGraph *self,
                            FcSession    *session)
{
  g_return_if_fail (FC_IS_FLAME_GRAPH (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  profile_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

FcCallTree *
fc_flame_graph_get_tree (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}

guint
fc_flame_graph_get_n_matches (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), 0);
  return self->n_matches;
}

static void
fc_flame_graph_dispose (GObject *object)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (object);

  g_clear_handle_id (&self->reload_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_pointer (&self->tree, fc_call_tree_unref);
  g_clear_pointer (&self->scene, gsk_render_node_unref);
  g_clear_object (&self->pango);

  G_OBJECT_CLASS (fc_flame_graph_parent_class)->dispose (object);
}

static void
fc_flame_graph_finalize (GObject *object)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (object);

  g_clear_pointer (&self->offsets, g_free);
  g_clear_pointer (&self->colors, g_free);
  g_clear_pointer (&self->draw_colors, g_free);
  g_clear_pointer (&self->search_match, g_free);

  G_OBJECT_CLASS (fc_flame_graph_parent_class)->finalize (object);
}

static void
fc_flame_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_TREE:
      g_value_set_boxed (value, self->tree);
      break;
    case PROP_N_MATCHES:
      g_value_set_uint (value, self->n_matches);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_flame_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_flame_graph_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_flame_graph_class_init (FcFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_flame_graph_dispose;
  object_class->finalize = fc_flame_graph_finalize;
  object_class->get_property = fc_flame_graph_get_property;
  object_class->set_property = fc_flame_graph_set_property;

  widget_class->snapshot = fc_flame_graph_snapshot;
  widget_class->measure = fc_flame_graph_measure;
  widget_class->size_allocate = fc_flame_graph_size_allocate;
  widget_class->query_tooltip = fc_flame_graph_query_tooltip;
  widget_class->css_changed = fc_flame_graph_css_changed;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         FC_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TREE] =
    g_param_spec_boxed ("tree", NULL, NULL,
                        FC_TYPE_CALL_TREE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "flamegraph.zoom-in", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "flamegraph.zoom-out", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "flamegraph.zoom-reset", NULL, action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "flamegraph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "flamegraph.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flamegraph.zoom-reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
fc_flame_graph_init (FcFlameGraph *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->hover = NO_NODE;
  self->selected = NO_NODE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::profile", G_CALLBACK (profile_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::thread", G_CALLBACK (reload_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-begin-ns", G_CALLBACK (selection_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-end-ns", G_CALLBACK (selection_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::frame-filter", G_CALLBACK (reload_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::search-text", G_CALLBACK (update_search), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::color-mode", G_CALLBACK (update_colors), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-frame", G_CALLBACK (selected_frame_changed_cb), self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
