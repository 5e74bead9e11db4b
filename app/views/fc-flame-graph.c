/* fc-flame-graph.c - merged call paths, widest left
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>

#include "fc-colors.h"
#include "fc-format.h"
#include "fc-flame-graph.h"
#include "fc-session-tree.h"
#include "fc-view-util.h"

#define ROW_HEIGHT      FC_FLAME_GRAPH_ROW_HEIGHT
#define MIN_LABEL_WIDTH 28.0
#define LABEL_PADDING   4.0
#define CULL_WIDTH      0.25
#define WHEEL_PIXELS    50.0
#define NO_NODE         G_MAXUINT

struct _FcFlameGraph
{
  FcFlameView     parent_instance;

  /* owned */
  GSignalGroup   *tree_signals;    /* the session's shared top-down tree */
  FcCallTree     *tree;
  gint64         *offsets;         /* per node: where it starts, in weight units */
  guint           n_matches;

  guint           n_drawn_boxes;

  double          scroll_y;
  guint           focus;
  guint           hover;
  guint           selected;
  int             text_height;
  gboolean        use_samples;     /* weigh by samples when durations are all zero */

  /* differential mode */
  FcCallTree     *session_tree;    /* the after shape, as the session gives it */
  FcCallTree     *before_tree;
  gboolean        show_before;
  FcDiff         *diff;
  double         *deltas;          /* per node: after - before share of its call path */
  guint8         *kinds;           /* per node: FcFlameDiffKind */
  GdkRGBA        *diff_colors;     /* per node */
};

enum {
  PROP_0,
  PROP_TREE,
  PROP_N_MATCHES,
  PROP_SHOW_BEFORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FcFlameGraph, fc_flame_graph, FC_TYPE_FLAME_VIEW)

static inline FcSession *
session_of (FcFlameGraph *self)
{
  return fc_flame_view_get_session (FC_FLAME_VIEW (self));
}

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
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

/* ---- state that follows the session ---- */

static void
count_matches (FcFlameGraph *self)
{
  const guint8 *match = fc_flame_view_get_search_match (FC_FLAME_VIEW (self));
  guint n_colors = 0;
  guint n_matches = 0;

  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);
  if (match != NULL && self->tree != NULL)
    for (guint i = 1; i < fc_call_tree_get_n_nodes (self->tree); i++)
      {
        guint32 frame = fc_call_tree_node_get_frame (fc_call_tree_get_node (self->tree, i));

        n_matches += frame < n_colors && match[frame];
      }

  if (n_matches != self->n_matches)
    {
      self->n_matches = n_matches;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
    }
}

/* red for more, blue for less, deeper by |delta| against the largest */
static void
diff_color (FcFlameDiffKind kind,
            double          strength,
            GdkRGBA        *color)
{
  static const GdkRGBA neutral = { 0.86f, 0.86f, 0.84f, 1 };
  static const GdkRGBA red = { 0.84f, 0.12f, 0.12f, 1 };
  static const GdkRGBA blue = { 0.16f, 0.38f, 0.86f, 1 };
  const GdkRGBA *to = kind == FC_FLAME_DIFF_LESS || kind == FC_FLAME_DIFF_VANISHED ? &blue : &red;
  float t = kind == FC_FLAME_DIFF_SAME ? 0.f
            : kind == FC_FLAME_DIFF_NEW || kind == FC_FLAME_DIFF_VANISHED ? 1.f
            : (float) (0.15 + 0.85 * strength);

  color->red = neutral.red + (to->red - neutral.red) * t;
  color->green = neutral.green + (to->green - neutral.green) * t;
  color->blue = neutral.blue + (to->blue - neutral.blue) * t;
  color->alpha = 1;
}

static void
compute_diff (FcFlameGraph *self)
{
  g_autoptr(GHashTable) by_path = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  FcProfile *profile;
  GPtrArray *entries;
  double max_abs = 0;
  guint n;

  g_clear_pointer (&self->deltas, g_free);
  g_clear_pointer (&self->kinds, g_free);
  g_clear_pointer (&self->diff_colors, g_free);
  if (self->diff == NULL || self->tree == NULL)
    return;

  entries = fc_diff_get_paths (self->diff);
  by_path = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < entries->len; i++)
    {
      FcDiffEntry *e = g_ptr_array_index (entries, i);

      g_hash_table_insert (by_path, e->name, e);
    }

  n = fc_call_tree_get_n_nodes (self->tree);
  profile = fc_call_tree_get_profile (self->tree);
  self->deltas = g_new0 (double, n);
  self->kinds = g_new0 (guint8, n);
  self->diff_colors = g_new0 (GdkRGBA, n);
  /* each node's path "a;b;c" as the diff names it; parents come first */
  paths = g_ptr_array_new_full (n, g_free);
  g_ptr_array_add (paths, g_strdup (""));
  for (guint i = 1; i < n; i++)
    {
      const FcCallTreeNode *node = fc_call_tree_get_node (self->tree, i);
      const char *parent = g_ptr_array_index (paths, fc_call_tree_node_get_index (fc_call_tree_node_get_parent (node)));
      char buf[256];
      const char *label = fc_profile_frame_label (profile, fc_call_tree_node_get_frame (node), buf, sizeof buf);
      char *path = *parent ? g_strconcat (parent, ";", label, NULL) : g_strdup (label);
      FcDiffEntry *e = g_hash_table_lookup (by_path, path);

      g_ptr_array_add (paths, path);
      if (self->tree == self->before_tree)
        {
          self->deltas[i] = e ? fc_diff_entry_delta_total (e) : 0;
          self->kinds[i] = e == NULL || e->after_total <= 0 ? FC_FLAME_DIFF_VANISHED
                           : fabs (self->deltas[i]) < 1e-9 ? FC_FLAME_DIFF_SAME
                           : self->deltas[i] > 0 ? FC_FLAME_DIFF_MORE : FC_FLAME_DIFF_LESS;
        }
      else if (e == NULL || e->before_total <= 0)
        {
          self->kinds[i] = FC_FLAME_DIFF_NEW;
          self->deltas[i] = e ? fc_diff_entry_delta_total (e) : 0;
        }
      else
        {
          self->deltas[i] = fc_diff_entry_delta_total (e);
          self->kinds[i] = fabs (self->deltas[i]) < 1e-9 ? FC_FLAME_DIFF_SAME
                           : self->deltas[i] > 0 ? FC_FLAME_DIFF_MORE : FC_FLAME_DIFF_LESS;
        }
      max_abs = MAX (max_abs, fabs (self->deltas[i]));
    }
  for (guint i = 1; i < n; i++)
    diff_color (self->kinds[i], max_abs > 0 ? fabs (self->deltas[i]) / max_abs : 0, &self->diff_colors[i]);
}

static void set_tree (FcFlameGraph *self, FcCallTree *tree);

/* the session's tree, or the before shape while that is asked for */
static void
show_tree (FcFlameGraph *self)
{
  set_tree (self, self->show_before && self->before_tree ? self->before_tree : self->session_tree);
  compute_diff (self);
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

void
fc_flame_graph_set_diff (FcFlameGraph *self,
                         FcDiff       *diff,
                         FcCallTree   *before)
{
  g_return_if_fail (FC_IS_FLAME_GRAPH (self));

  if (diff == NULL && self->diff == NULL)
    return;
  g_clear_pointer (&self->diff, fc_diff_unref);
  g_clear_pointer (&self->before_tree, fc_call_tree_unref);
  self->diff = diff;
  self->before_tree = before && diff ? fc_call_tree_ref (before) : NULL;
  if (diff == NULL)
    fc_flame_graph_set_show_before (self, FALSE);
  show_tree (self);
}

void
fc_flame_graph_set_show_before (FcFlameGraph *self,
                                gboolean      show_before)
{
  g_return_if_fail (FC_IS_FLAME_GRAPH (self));

  show_before = !!show_before;
  if (show_before == self->show_before)
    return;
  self->show_before = show_before;
  show_tree (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_BEFORE]);
}

gboolean
fc_flame_graph_has_diff (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), FALSE);
  return self->diff != NULL;
}

FcFlameDiffKind
fc_flame_graph_get_node_diff (FcFlameGraph         *self,
                              const FcCallTreeNode *node,
                              double               *delta)
{
  guint index;

  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), FC_FLAME_DIFF_SAME);
  g_return_val_if_fail (node != NULL, FC_FLAME_DIFF_SAME);

  index = fc_call_tree_node_get_index (node);
  if (delta != NULL)
    *delta = self->deltas ? self->deltas[index] : 0;
  return self->kinds ? self->kinds[index] : FC_FLAME_DIFF_SAME;
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
  compute_diff (self);

  self->focus = 0;
  self->hover = NO_NODE;
  self->selected = NO_NODE;
  self->scroll_y = 0;
  count_matches (self);
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

static void
set_session_tree (FcFlameGraph *self,
                  FcCallTree   *tree)
{
  if (tree != self->session_tree)
    {
      g_clear_pointer (&self->session_tree, fc_call_tree_unref);
      self->session_tree = tree ? fc_call_tree_ref (tree) : NULL;
    }
  show_tree (self);
}

static void
shared_tree_changed_cb (FcFlameGraph  *self,
                        GParamSpec    *pspec,
                        FcSessionTree *shared)
{
  set_session_tree (self, fc_session_tree_get_tree (shared));
}

static void
fc_flame_graph_reload (FcFlameView *view)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (view);
  FcSession *session = session_of (self);
  FcSessionTree *shared = session ? fc_session_get_call_tree (session) : NULL;
  FcCallTree *tree = shared ? fc_session_tree_get_tree (shared) : NULL;

  g_signal_group_set_target (self->tree_signals, shared);
  /* a tree of another profile is not worth showing meanwhile; another
   * thread's is, until the new one is ready */
  if (tree != NULL && fc_call_tree_get_profile (tree) != fc_flame_view_get_profile (view))
    tree = NULL;
  set_session_tree (self, tree);
}

static void
fc_flame_graph_search_changed (FcFlameView *view)
{
  count_matches (FC_FLAME_GRAPH (view));
}

static void
selected_frame_changed_cb (FcFlameGraph *self)
{
  const FcCallTreeNode *node = node_at_index (self, self->selected);

  if (node != NULL && fc_call_tree_node_get_frame (node) != fc_session_get_selected_frame (session_of (self)))
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
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

static void
select_node (FcFlameGraph         *self,
             const FcCallTreeNode *node)
{
  self->selected = node ? fc_call_tree_node_get_index (node) : NO_NODE;
  if (session_of (self) != NULL)
    fc_session_set_selected_frame (session_of (self), node ? fc_call_tree_node_get_frame (node) : FC_SESSION_NO_FRAME);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* in: onto the selected node; out: onto the focus's parent */
static void
zoom (FcFlameView *view,
      int          step)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (view);

  if (step == 0)
    {
      fc_flame_graph_set_focus (self, NULL);
      set_scroll_y (self, 0);
    }
  else if (step < 0)
    {
      const FcCallTreeNode *focus = fc_flame_graph_get_focus (self);

      if (focus != NULL && fc_call_tree_node_get_parent (focus) != NULL)
        fc_flame_graph_set_focus (self, fc_call_tree_node_get_parent (focus));
    }
  else
    {
      const FcCallTreeNode *node = node_at_index (self, self->selected);

      if (node != NULL)
        fc_flame_graph_set_focus (self, node);
    }
}

/* The focus's widest child when every child is narrower than a pixel:
 * a big file's flamegraph would otherwise be blank with no word why. */
static const FcCallTreeNode *
widest_sub_pixel_child (FcFlameGraph *self)
{
  const FcCallTreeNode *focus = fc_flame_graph_get_focus (self);
  const FcCallTreeNode *widest = NULL;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  gint64 b, e;

  if (focus == NULL || fc_call_tree_node_get_n_children (focus) == 0)
    return NULL;

  get_view (self, &b, &e);
  for (guint c = 0; c < fc_call_tree_node_get_n_children (focus); c++)
    {
      const FcCallTreeNode *child = fc_call_tree_node_get_child (focus, c);

      if ((double) weight (self, child) * width / (double) (e - b) >= 1.0)
        return NULL;
      if (widest == NULL || weight (self, child) > weight (self, widest))
        widest = child;
    }
  return widest;
}

gboolean
fc_flame_graph_get_all_sub_pixel (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), FALSE);
  return widest_sub_pixel_child (self) != NULL;
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
  /* the message over a blank graph offers this zoom */
  if (n_press == 1 && node == NULL && widest_sub_pixel_child (self) != NULL)
    fc_flame_graph_set_focus (self, widest_sub_pixel_child (self));
  else if (n_press == 1)
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
  guint64 n_samples;
  gint64 whole;

  if (node == NULL)
    return FALSE;

  whole = fc_call_tree_node_get_total_ns (fc_call_tree_get_root (self->tree));
  markup = fc_view_frame_tooltip (fc_call_tree_get_profile (self->tree), fc_call_tree_node_get_frame (node),
                                  fc_call_tree_node_get_total_ns (node), whole,
                                  fc_session_has_selection (session_of (self)) ? _("of the selection")
                                                                           : _("of the thread"));
  if (markup == NULL)
    return FALSE;
  self_time = fc_format_duration (fc_call_tree_node_get_self_ns (node));
  n_samples = fc_call_tree_node_get_total (node);
  full = g_strdup_printf (ngettext ("%s\nSelf: %s, %" PRIu64 " sample",
                                    "%s\nSelf: %s, %" PRIu64 " samples",
                                    (gulong) MIN (n_samples, G_MAXULONG)),
                          markup, self_time, n_samples);
  if (self->kinds != NULL)
    {
      guint index = fc_call_tree_node_get_index (node);
      char *with_delta = self->kinds[index] == FC_FLAME_DIFF_NEW
                         ? g_strdup_printf ("%s\n%s", full, _("New: not on any stack before"))
                         : self->kinds[index] == FC_FLAME_DIFF_VANISHED
                         ? g_strdup_printf ("%s\n%s", full, _("Vanished: on no stack now"))
                         : g_strdup_printf ("%s\n%s %+.1f %s", full, _("Change:"), self->deltas[index] * 100,
                                            _("points of all samples"));

      g_free (full);
      full = with_delta;
    }
  gtk_tooltip_set_markup (tooltip, full);
  return TRUE;
}

/* ---- drawing ---- */

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
  GdkRGBA fallback = { 0.8f, 0.8f, 0.8f, 1.0f };
  guint n_colors = 0;
  const GdkRGBA *draw_colors = fc_flame_view_get_draw_colors (FC_FLAME_VIEW (self));
  FcRaster raster;
  int raster_height;
  gint64 b, e;
  double px_per_unit;
  guint root = 0;
  guint drawn = 0;

  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);

  fc_flame_view_get_label_layout (FC_FLAME_VIEW (self), &self->text_height);
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
          const GdkRGBA *color = self->diff_colors ? &self->diff_colors[index]
                                 : frame < n_colors ? &draw_colors[frame] : &fallback;
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

  fc_raster_append (&raster, snapshot, &GRAPHENE_RECT_INIT (0, 0, width, raster_height), GTK_WIDGET (self));

  for (guint l = 0; l < labels->len; l++)
    {
      const Label *label = &g_array_index (labels, Label, l);
      char buf[64];
      GdkRGBA text;

      fc_colors_text_for (label->color, &text);
      fc_flame_view_draw_label (FC_FLAME_VIEW (self), snapshot,
                                fc_profile_frame_label (profile, label->frame, buf, sizeof buf),
                                label->x, label->y, label->width, &text);
    }

  self->n_drawn_boxes = drawn;
}

static void
fc_flame_graph_render_scene (FcFlameView *view,
                             GtkSnapshot *snapshot,
                             int          width,
                             int          height)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (view);

  self->n_drawn_boxes = 0;
  if (self->tree != NULL && fc_flame_view_get_draw_colors (view) != NULL)
    draw_scene (self, snapshot, width, height);

  if (fc_flame_graph_get_message (self) != NULL)
    {
      GdkRGBA text = fc_flame_view_is_dark (view) ? (GdkRGBA) { 1, 1, 1, 0.75f } : (GdkRGBA) { 0, 0, 0, 0.7f };

      fc_flame_view_draw_label (view, snapshot, fc_flame_graph_get_message (self), LABEL_PADDING,
                                ROW_HEIGHT + LABEL_PADDING, width - 2 * LABEL_PADDING, &text);
    }
}

/**
 * fc_flame_graph_get_message:
 *
 * Returns: (nullable): what the graph says over itself: the frame filter
 *   left nothing, or every box is under a pixel
 */
const char *
fc_flame_graph_get_message (FcFlameGraph *self)
{
  const FcCallTreeNode *root;

  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), NULL);

  if (self->tree == NULL)
    return NULL;
  root = fc_call_tree_get_root (self->tree);
  if (fc_call_tree_node_get_n_children (root) == 0 && fc_call_tree_node_get_total (root) > 0 &&
      session_of (self) != NULL)
    return fc_view_filter_empty_message (fc_session_get_frame_filter (session_of (self)));
  if (widest_sub_pixel_child (self) != NULL)
    return _("Every call path here is narrower than a pixel. Click to zoom into the widest.");
  return NULL;
}

guint
fc_flame_graph_get_n_drawn_boxes (FcFlameGraph *self)
{
  g_return_val_if_fail (FC_IS_FLAME_GRAPH (self), 0);
  return self->n_drawn_boxes;
}

static void
fc_flame_graph_snapshot_overlay (FcFlameView *view,
                                 GtkSnapshot *snapshot,
                                 int          width,
                                 int          height)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (view);
  const FcCallTreeNode *hover = node_at_index (self, self->hover);
  const FcCallTreeNode *selected = node_at_index (self, self->selected);
  graphene_rect_t bounds;

  /* new call paths are outlined: no colour alone says "was not there" */
  if (self->kinds != NULL)
    {
      GdkRGBA dark = { 0.35f, 0, 0, 1 };

      for (guint i = 1; i < fc_call_tree_get_n_nodes (self->tree); i++)
        if (self->kinds[i] == FC_FLAME_DIFF_NEW || self->kinds[i] == FC_FLAME_DIFF_VANISHED)
          {
            node_bounds (self, fc_call_tree_get_node (self->tree, i), width, &bounds);
            if (bounds.size.width < 3 || bounds.origin.x + bounds.size.width < 0 || bounds.origin.x > width ||
                bounds.origin.y > height || bounds.origin.y + ROW_HEIGHT < 0)
              continue;
            bounds.size.height -= 1;
            bounds.size.width -= 1;
            fc_flame_view_draw_outline (snapshot, &bounds, &dark, 2);
          }
    }

  if (hover != NULL && fc_call_tree_node_get_depth (hover) > 0)
    {
      GdkRGBA color;

      fc_flame_view_get_hover_color (view, &color);
      node_bounds (self, hover, width, &bounds);
      bounds.size.height -= 1;
      fc_flame_view_draw_outline (snapshot, &bounds, &color, 1);
    }
  if (selected != NULL && fc_call_tree_node_get_depth (selected) > 0)
    {
      node_bounds (self, selected, width, &bounds);
      bounds.size.height -= 1;
      fc_flame_view_draw_outline (snapshot, &bounds, fc_flame_view_get_accent (view), 2);
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

/* ---- GObject ---- */

GtkWidget *
fc_flame_graph_new (void)
{
  return g_object_new (FC_TYPE_FLAME_GRAPH, NULL);
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

  if (self->tree_signals != NULL)
    g_signal_group_set_target (self->tree_signals, NULL);
  g_clear_object (&self->tree_signals);
  g_clear_pointer (&self->tree, fc_call_tree_unref);
  g_clear_pointer (&self->session_tree, fc_call_tree_unref);
  g_clear_pointer (&self->before_tree, fc_call_tree_unref);

  G_OBJECT_CLASS (fc_flame_graph_parent_class)->dispose (object);
}

static void
fc_flame_graph_finalize (GObject *object)
{
  FcFlameGraph *self = FC_FLAME_GRAPH (object);

  g_clear_pointer (&self->offsets, g_free);
  g_clear_pointer (&self->diff, fc_diff_unref);
  g_clear_pointer (&self->deltas, g_free);
  g_clear_pointer (&self->kinds, g_free);
  g_clear_pointer (&self->diff_colors, g_free);

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
    case PROP_TREE:
      g_value_set_boxed (value, self->tree);
      break;
    case PROP_N_MATCHES:
      g_value_set_uint (value, self->n_matches);
      break;
    case PROP_SHOW_BEFORE:
      g_value_set_boolean (value, self->show_before);
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
  switch (prop_id)
    {
    case PROP_SHOW_BEFORE:
      fc_flame_graph_set_show_before (FC_FLAME_GRAPH (object), g_value_get_boolean (value));
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
  FcFlameViewClass *view_class = FC_FLAME_VIEW_CLASS (klass);

  object_class->dispose = fc_flame_graph_dispose;
  object_class->finalize = fc_flame_graph_finalize;
  object_class->get_property = fc_flame_graph_get_property;
  object_class->set_property = fc_flame_graph_set_property;

  widget_class->measure = fc_flame_graph_measure;
  widget_class->size_allocate = fc_flame_graph_size_allocate;
  widget_class->query_tooltip = fc_flame_graph_query_tooltip;

  view_class->render_scene = fc_flame_graph_render_scene;
  view_class->snapshot_overlay = fc_flame_graph_snapshot_overlay;
  view_class->reload = fc_flame_graph_reload;
  view_class->search_changed = fc_flame_graph_search_changed;
  properties[PROP_TREE] =
    g_param_spec_boxed ("tree", NULL, NULL,
                        FC_TYPE_CALL_TREE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHOW_BEFORE] =
    g_param_spec_boolean ("show-before", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  view_class->zoom = zoom;
  fc_flame_view_class_add_zoom_actions (view_class, "flamegraph");
  /* the graph zooms onto the selected node, and Escape leaves the zoom */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flamegraph.zoom-reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
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

  g_signal_group_connect_swapped (fc_flame_view_get_session_signals (FC_FLAME_VIEW (self)), "notify::selected-frame",
                                  G_CALLBACK (selected_frame_changed_cb), self);
  self->tree_signals = g_signal_group_new (FC_TYPE_SESSION_TREE);
  g_signal_group_connect_object (self->tree_signals, "notify::tree",
                                 G_CALLBACK (shared_tree_changed_cb), self, G_CONNECT_SWAPPED);

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
