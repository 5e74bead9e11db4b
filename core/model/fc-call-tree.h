/* fc-call-tree.h - samples aggregated into a tree of call paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * An immutable, refcounted tree built from the samples of one thread (or of
 * every thread) in a time range. Top-down, the root's children are the
 * outermost frames (main, thread entry points) and each node's children are
 * its callees; identical call paths are merged. Bottom-up, the root's
 * children are the frames samples were taken in (leaf functions) and each
 * node's children are its callers; there a node's self equals its total:
 * the time spent in the leaf function through that chain of callers.
 *
 * A sample weighs the time to its thread's next sample, capped at twice the
 * thread's median interval (see fc-sample-weights.h). Children are sorted by
 * total duration, largest first, then by frame id.
 */

/* Which frames a call tree (and every view of one) shows. */
typedef enum {
  FC_FRAME_FILTER_ALL,
  FC_FRAME_FILTER_APPLICATION,  /* in_app frames only */
  FC_FRAME_FILTER_SYSTEM,       /* frames not marked in_app only */
} FcFrameFilter;

#define FC_TYPE_FRAME_FILTER (fc_frame_filter_get_type ())
GType fc_frame_filter_get_type (void) G_GNUC_CONST;

typedef struct _FcCallTree     FcCallTree;
typedef struct _FcCallTreeNode FcCallTreeNode;

#define FC_CALL_TREE_ROOT_FRAME G_MAXUINT32

#define FC_TYPE_CALL_TREE (fc_call_tree_get_type ())
GType                 fc_call_tree_get_type            (void) G_GNUC_CONST;

FcCallTree           *fc_call_tree_new                 (FcProfile           *profile,
                                                        gint                 thread,
                                                        gint64               begin_ns,
                                                        gint64               end_ns,
                                                        gboolean             bottom_up);
/* keeping only some frames: a hidden frame's callees move up to its
 * nearest shown caller and its own time becomes that caller's self time
 * (top-down); bottom-up, hidden frames are skipped along each path */
FcCallTree           *fc_call_tree_new_full            (FcProfile           *profile,
                                                        gint                 thread,
                                                        gint64               begin_ns,
                                                        gint64               end_ns,
                                                        gboolean             bottom_up,
                                                        FcFrameFilter        which);
void                  fc_call_tree_new_full_async      (FcProfile           *profile,
                                                        gint                 thread,
                                                        gint64               begin_ns,
                                                        gint64               end_ns,
                                                        gboolean             bottom_up,
                                                        FcFrameFilter        which,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
void                  fc_call_tree_new_async           (FcProfile           *profile,
                                                        gint                 thread,
                                                        gint64               begin_ns,
                                                        gint64               end_ns,
                                                        gboolean             bottom_up,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
FcCallTree           *fc_call_tree_new_finish          (GAsyncResult        *result,
                                                        GError             **error);
FcCallTree           *fc_call_tree_ref                 (FcCallTree          *self);
void                  fc_call_tree_unref               (FcCallTree          *self);

FcProfile            *fc_call_tree_get_profile         (FcCallTree          *self);
gint                  fc_call_tree_get_thread          (FcCallTree          *self);
gboolean              fc_call_tree_is_bottom_up        (FcCallTree          *self);
FcFrameFilter         fc_call_tree_get_frames          (FcCallTree          *self);
void                  fc_call_tree_get_range           (FcCallTree          *self,
                                                        gint64              *begin_ns,
                                                        gint64              *end_ns);
guint                 fc_call_tree_get_n_nodes         (FcCallTree          *self);
guint                 fc_call_tree_get_max_depth       (FcCallTree          *self);
const FcCallTreeNode *fc_call_tree_get_root            (FcCallTree          *self);
/* nodes are numbered 0..n_nodes-1, parents before children (0 is the root) */
const FcCallTreeNode *fc_call_tree_get_node            (FcCallTree          *self,
                                                        guint                index);

guint                 fc_call_tree_node_get_index      (const FcCallTreeNode *node);
guint                 fc_call_tree_node_get_n_children (const FcCallTreeNode *node);
const FcCallTreeNode *fc_call_tree_node_get_child      (const FcCallTreeNode *node,
                                                        guint                 index);
const FcCallTreeNode *fc_call_tree_node_get_parent     (const FcCallTreeNode *node);
/* FC_CALL_TREE_ROOT_FRAME for the root */
guint32               fc_call_tree_node_get_frame      (const FcCallTreeNode *node);
/* 0 for the root, 1 for its children... */
guint                 fc_call_tree_node_get_depth      (const FcCallTreeNode *node);
guint64               fc_call_tree_node_get_self       (const FcCallTreeNode *node);
guint64               fc_call_tree_node_get_total      (const FcCallTreeNode *node);
gint64                fc_call_tree_node_get_self_ns    (const FcCallTreeNode *node);
gint64                fc_call_tree_node_get_total_ns   (const FcCallTreeNode *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcCallTree, fc_call_tree_unref)

G_END_DECLS
