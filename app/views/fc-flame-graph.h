/* fc-flame-graph.h - merged call paths, widest left
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-call-tree.h"
#include "fc-diff.h"
#include "fc-flame-view.h"

G_BEGIN_DECLS

#define FC_FLAME_GRAPH_ROW_HEIGHT 20

/* a box's change in a differential flamegraph */
typedef enum {
  FC_FLAME_DIFF_SAME,
  FC_FLAME_DIFF_MORE,   /* red: a larger share of all samples now */
  FC_FLAME_DIFF_LESS,   /* blue */
  FC_FLAME_DIFF_NEW,    /* the path had no samples before: red, outlined */
  FC_FLAME_DIFF_VANISHED, /* the before shape: no samples now: blue, outlined */
} FcFlameDiffKind;

#define FC_TYPE_FLAME_GRAPH (fc_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (FcFlameGraph, fc_flame_graph, FC, FLAME_GRAPH, FcFlameView)

GtkWidget            *fc_flame_graph_new               (void);
/* the top-down tree of the session's thread and selection; NULL while it
 * is being built */
FcCallTree           *fc_flame_graph_get_tree          (FcFlameGraph         *self);
/* the node under widget coordinates @x, @y, or NULL */
const FcCallTreeNode *fc_flame_graph_node_at           (FcFlameGraph         *self,
                                                        double                x,
                                                        double                y);
void                  fc_flame_graph_get_node_bounds   (FcFlameGraph         *self,
                                                        const FcCallTreeNode *node,
                                                        graphene_rect_t      *bounds);
/* the node zoomed into (double-click), the root when not zoomed */
const FcCallTreeNode *fc_flame_graph_get_focus         (FcFlameGraph         *self);
void                  fc_flame_graph_set_focus         (FcFlameGraph         *self,
                                                        const FcCallTreeNode *node);
guint                 fc_flame_graph_get_n_matches     (FcFlameGraph         *self);
guint                 fc_flame_graph_get_n_drawn_boxes (FcFlameGraph         *self);
/* TRUE when every box under the focus is narrower than a pixel: the graph
 * says so, and a click zooms into the widest */
gboolean              fc_flame_graph_get_all_sub_pixel (FcFlameGraph         *self);
const char           *fc_flame_graph_get_message       (FcFlameGraph         *self);

/* Differential mode: @diff (transfer full; NULL ends it) compares a profile
 * before with the shown one after. Boxes keep the after shape and are
 * coloured by the change of their call path's share (fc_diff_get_paths()). */
void                  fc_flame_graph_set_diff          (FcFlameGraph         *self,
                                                        FcDiff               *diff,
                                                        FcCallTree           *before);
/* TRUE: the before profile's shape (@before of set_diff), vanished paths marked */
void                  fc_flame_graph_set_show_before   (FcFlameGraph         *self,
                                                        gboolean              show_before);
gboolean              fc_flame_graph_has_diff          (FcFlameGraph         *self);
/* the change of @node's call path (after - before share of all samples) */
FcFlameDiffKind       fc_flame_graph_get_node_diff     (FcFlameGraph         *self,
                                                        const FcCallTreeNode *node,
                                                        double               *delta);

G_END_DECLS
