/* fc-call-tree.c - samples aggregated into a tree of call paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-call-tree.h"

#include <stdlib.h>
#include <string.h>

#include "fc-sample-weights.h"

/* 48 bytes and a child index: a chunk of 500k samples with deep, distinct
 * stacks makes 1.6 million nodes. Nodes refer to each other by index in
 * the tree's one array (parents before children), without pointers. */
struct _FcCallTreeNode
{
  guint32 index;
  guint32 parent;             /* the root's is 0 */
  guint32 first_child;        /* where its children are listed (see NodesHeader) */
  guint32 n_children;
  guint32 frame;
  guint32 depth;
  guint32 self;               /* samples: at most ten million a document */
  guint32 total;
  gint64  self_ns;
  gint64  total_ns;
};

G_STATIC_ASSERT (sizeof (FcCallTreeNode) == 48);

struct _FcCallTree
{
  gatomicrefcount        ref_count;
  FcProfile             *profile;
  gint                   thread;
  gint64                 begin_ns;
  gint64                 end_ns;
  gboolean               bottom_up;
  FcFrameFilter          which;
  guint                  max_depth;
  FcCallTreeNode        *nodes;
  guint                  n_nodes;
};

G_DEFINE_BOXED_TYPE (FcCallTree, fc_call_tree, fc_call_tree_ref, fc_call_tree_unref)

G_DEFINE_ENUM_TYPE (FcFrameFilter, fc_frame_filter,
  G_DEFINE_ENUM_VALUE (FC_FRAME_FILTER_ALL, "all"),
  G_DEFINE_ENUM_VALUE (FC_FRAME_FILTER_APPLICATION, "application"),
  G_DEFINE_ENUM_VALUE (FC_FRAME_FILTER_SYSTEM, "system"))

#define UNSET G_MAXUINT32

/* While building, nodes are FcCallTreeNodes in the order they are found
 * (parents first), with only parent, frame, depth, n_children and the
 * weights set; link_children() does the rest. */
typedef FcCallTreeNode BuildNode;

/* (parent node, frame) -> child node, open addressing; only bottom-up trees
 * need it, top-down nodes map one to one onto the profile's stack nodes. */
typedef struct {
  guint64 *keys;
  guint32 *values;
  gsize    mask;
  gsize    n_used;
} ChildIndex;

static inline guint64
child_key (guint32 parent,
           guint32 frame)
{
  return ((guint64) parent << 32) | frame;
}

static inline gsize
child_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (gsize) key;
}

static void
child_index_init (ChildIndex *index,
                  gsize       capacity)
{
  gsize size = 64;

  while (size < capacity * 2)
    size <<= 1;
  index->keys = g_new (guint64, size);
  index->values = g_new (guint32, size);
  memset (index->keys, 0xff, sizeof (guint64) * size);
  index->mask = size - 1;
  index->n_used = 0;
}

static void
child_index_clear (ChildIndex *index)
{
  g_clear_pointer (&index->keys, g_free);
  g_clear_pointer (&index->values, g_free);
}

static void child_index_insert (ChildIndex *index, guint64 key, guint32 value);

static void
child_index_grow (ChildIndex *index)
{
  ChildIndex bigger;
  gsize old_size = index->mask + 1;

  child_index_init (&bigger, old_size);
  for (gsize i = 0; i < old_size; i++)
    if (index->keys[i] != G_MAXUINT64)
      child_index_insert (&bigger, index->keys[i], index->values[i]);
  child_index_clear (index);
  *index = bigger;
}

static void
child_index_insert (ChildIndex *index,
                    guint64     key,
                    guint32     value)
{
  gsize i;

  if ((index->n_used + 1) * 2 > index->mask + 1)
    child_index_grow (index);

  for (i = child_hash (key) & index->mask; index->keys[i] != G_MAXUINT64; i = (i + 1) & index->mask)
    ;
  index->keys[i] = key;
  index->values[i] = value;
  index->n_used++;
}

static guint32
child_index_lookup (const ChildIndex *index,
                    guint64           key)
{
  for (gsize i = child_hash (key) & index->mask; index->keys[i] != G_MAXUINT64; i = (i + 1) & index->mask)
    if (index->keys[i] == key)
      return index->values[i];
  return UNSET;
}

static guint32
add_node (GArray  *nodes,
          guint32  parent,
          guint32  frame)
{
  BuildNode node = { 0 };
  BuildNode *p = &g_array_index (nodes, BuildNode, parent);

  node.parent = parent;
  node.frame = frame;
  node.depth = p->depth + 1;
  p->n_children++;
  g_array_append_val (nodes, node);
  return nodes->len - 1;
}

static void
accumulate_thread (FcProfile             *profile,
                   const FcSampleWeights *weights,
                   gint64                 begin_ns,
                   gint64                 end_ns,
                   guint32               *stack_samples,
                   gint64                *stack_ns)
{
  const FcSample *samples = fc_profile_get_samples (profile, NULL);
  guint first = 0;
  guint last = weights->n_samples;

  if (begin_ns < end_ns)
    {
      first = fc_sample_weights_lower_bound (weights, begin_ns);
      last = fc_sample_weights_lower_bound (weights, end_ns);
    }

  for (guint i = first; i < last; i++)
    {
      guint32 stack = samples[weights->samples[i]].stack;

      stack_samples[stack]++;
      stack_ns[stack] += weights->durations_ns[i];
    }
}

/* of node indexes into @nodes */
static int
compare_children (gconstpointer a,
                  gconstpointer b,
                  gpointer      nodes)
{
  const FcCallTreeNode *x = &((const FcCallTreeNode *) nodes)[*(const guint32 *) a];
  const FcCallTreeNode *y = &((const FcCallTreeNode *) nodes)[*(const guint32 *) b];

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return (x->frame > y->frame) - (x->frame < y->frame);
}

/* Children come after their parents: one backward pass sums the totals. */
static void
sum_totals (GArray *nodes)
{
  for (guint i = nodes->len; i > 0; i--)
    {
      BuildNode *node = &g_array_index (nodes, BuildNode, i - 1);

      node->total += node->self;
      node->total_ns += node->self_ns;
      if (i - 1 > 0)
        {
          BuildNode *parent = &g_array_index (nodes, BuildNode, node->parent);

          parent->total += node->total;
          parent->total_ns += node->total_ns;
        }
    }
}

static void
build_top_down (FcProfile     *profile,
                GArray        *nodes,
                const guint32 *stack_samples,
                const gint64  *stack_ns,
                guint          n_stacks)
{
  g_autofree guint32 *node_of_stack = g_new (guint32, n_stacks);
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (guint32));

  memset (node_of_stack, 0xff, sizeof (guint32) * n_stacks);
  node_of_stack[FC_STACK_EMPTY] = 0;

  for (guint32 s = 0; s < n_stacks; s++)
    {
      BuildNode *node;
      guint32 cursor;

      if (stack_samples[s] == 0)
        continue;

      /* Create the missing ancestors outermost first, without recursion:
       * recursive programs make stacks thousands of frames deep. */
      g_array_set_size (pending, 0);
      for (cursor = s; node_of_stack[cursor] == UNSET; cursor = fc_profile_get_stack (profile, cursor)->parent)
        g_array_append_val (pending, cursor);
      for (guint i = pending->len; i > 0; i--)
        {
          guint32 stack = g_array_index (pending, guint32, i - 1);
          const FcStackNode *sn = fc_profile_get_stack (profile, stack);

          node_of_stack[stack] = add_node (nodes, node_of_stack[sn->parent], sn->frame);
        }

      node = &g_array_index (nodes, BuildNode, node_of_stack[s]);
      node->self += stack_samples[s];
      node->self_ns += stack_ns[s];
    }

  sum_totals (nodes);
}

/* Bottom-up trees, and top-down trees that hide frames: paths are no
 * longer the profile's stack nodes, so nodes are found by (parent, frame).
 * A hidden frame's callees move up to its nearest shown caller and its own
 * time becomes that caller's self time, as Sentry's "application frames
 * only" does. */
static void
build_indexed (FcProfile        *profile,
               GArray           *nodes,
               const guint32    *stack_samples,
               const gint64     *stack_ns,
               guint             n_stacks,
               gboolean          bottom_up,
               FcFrameFilter     which)
{
  ChildIndex index;
  g_autofree guint32 *frames = NULL;
  g_autofree guint8 *keep = NULL;
  guint frames_len = 0;
  guint n_frames = fc_profile_get_n_frames (profile);

  child_index_init (&index, 1024);

  keep = g_new (guint8, MAX (n_frames, 1));
  for (guint f = 0; f < n_frames; f++)
    {
      gboolean app = fc_profile_get_frame (profile, f)->in_app == FC_IN_APP_YES;

      keep[f] = which == FC_FRAME_FILTER_ALL ||
                (which == FC_FRAME_FILTER_APPLICATION ? app : !app);
    }

  for (guint32 s = 0; s < n_stacks; s++)
    {
      guint32 cursor = 0;
      guint depth = 0;
      guint kept = 0;
      BuildNode *node;

      if (stack_samples[s] == 0)
        continue;

      if (s != FC_STACK_EMPTY)
        {
          depth = fc_profile_get_stack (profile, s)->depth;
          if (depth > frames_len)
            {
              frames_len = MAX (depth, frames_len * 2);
              g_free (frames);
              frames = g_new (guint32, frames_len);
            }
          depth = fc_profile_stack_frames (profile, s, frames, frames_len);
        }

      /* the shown frames, leaf first for bottom-up, root first otherwise */
      for (guint i = 0; i < depth; i++)
        if (frames[i] < n_frames && keep[frames[i]])
          frames[kept++] = frames[i];
      if (!bottom_up)
        for (guint i = 0; i < kept / 2; i++)
          {
            guint32 tmp = frames[i];

            frames[i] = frames[kept - 1 - i];
            frames[kept - 1 - i] = tmp;
          }

      for (guint i = 0; i < kept; i++)
        {
          guint64 key = child_key (cursor, frames[i]);
          guint32 child = child_index_lookup (&index, key);

          if (child == UNSET)
            {
              child = add_node (nodes, cursor, frames[i]);
              child_index_insert (&index, key, child);
            }
          if (bottom_up)
            {
              node = &g_array_index (nodes, BuildNode, child);
              node->self += stack_samples[s];
              node->self_ns += stack_ns[s];
              node->total += stack_samples[s];
              node->total_ns += stack_ns[s];
            }
          cursor = child;
        }

      node = &g_array_index (nodes, BuildNode, 0);
      if (bottom_up)
        {
          node->total += stack_samples[s];
          node->total_ns += stack_ns[s];
          if (kept > 0)
            continue;
        }
      else
        node = &g_array_index (nodes, BuildNode, cursor);
      node->self += stack_samples[s];
      node->self_ns += stack_ns[s];
    }

  child_index_clear (&index);

  if (!bottom_up)
    sum_totals (nodes);
}

/* Node 0's slot in the tree's one allocation is preceded by this: a node
 * finds its children through it (node - node->index is node 0), so that
 * nodes need no pointers, and stay where building put them (moving 1.6
 * million nodes into another order costs as much as building them). */
typedef struct {
  guint32 *children;          /* node indexes: each node's children, back to back */
} NodesHeader;

G_STATIC_ASSERT (sizeof (NodesHeader) <= sizeof (FcCallTreeNode));

static inline const NodesHeader *
header_of (const FcCallTreeNode *node)
{
  return (const NodesHeader *) (gconstpointer) (node - node->index - 1);
}

/* Lists and sorts each node's children, and puts the header slot before
 * the nodes (the array grew by doubling: it gives back what it did not
 * use). Returns node 0, which @nodes gives up. */
static FcCallTreeNode *
link_children (GArray *nodes,
               guint  *max_depth)
{
  guint len = nodes->len;
  guint32 *children = g_new (guint32, MAX (len, 1));
  FcCallTreeNode *block;
  FcCallTreeNode *n;

  block = g_renew (FcCallTreeNode, g_array_free (nodes, FALSE), len + 1);
  memmove (block + 1, block, sizeof (FcCallTreeNode) * len);
  ((NodesHeader *) (gpointer) block)->children = children;
  n = block + 1;

  for (guint i = 0, offset = 0; i < len; i++)
    {
      n[i].index = i;
      n[i].first_child = offset;
      offset += n[i].n_children;
      n[i].n_children = 0;
      *max_depth = MAX (*max_depth, n[i].depth);
    }
  for (guint i = 1; i < len; i++)
    {
      FcCallTreeNode *parent = &n[n[i].parent];

      children[parent->first_child + parent->n_children++] = i;
    }
  for (guint i = 0; i < len; i++)
    if (n[i].n_children > 1)
      g_qsort_with_data (&children[n[i].first_child], n[i].n_children, sizeof (guint32), compare_children, n);

  return n;
}

static void
free_nodes (FcCallTreeNode *nodes)
{
  g_free (header_of (nodes)->children);
  g_free (nodes - 1);
}

FcCallTree *
fc_call_tree_new (FcProfile *profile,
                  gint       thread,
                  gint64     begin_ns,
                  gint64     end_ns,
                  gboolean   bottom_up)
{
  return fc_call_tree_new_full (profile, thread, begin_ns, end_ns, bottom_up, FC_FRAME_FILTER_ALL);
}

/**
 * fc_call_tree_new_full:
 * @which: the frames to keep; hidden frames give their time to their
 *   nearest shown caller (top-down) or are skipped (bottom-up)
 */
FcCallTree *
fc_call_tree_new_full (FcProfile        *profile,
                       gint              thread,
                       gint64            begin_ns,
                       gint64            end_ns,
                       gboolean          bottom_up,
                       FcFrameFilter     which)
{
  FcCallTree *self;
  g_autoptr(GArray) nodes = NULL;
  g_autofree guint32 *stack_samples = NULL;  /* samples: ten million a document at most */
  g_autofree gint64 *stack_ns = NULL;
  g_autoptr(GPtrArray) weights = NULL;
  guint n_stacks;
  guint n_threads;
  BuildNode root = { 0 };

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  self = g_new0 (FcCallTree, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->thread = thread < 0 ? -1 : thread;
  self->begin_ns = begin_ns;
  self->end_ns = end_ns;
  self->bottom_up = !!bottom_up;
  self->which = which;

  /* The samples first, then the stacks they refer to: on a live profile
   * stacks published later only add to what the samples need. */
  n_threads = fc_profile_get_n_threads (profile);
  weights = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_sample_weights_free);
  if (thread < 0)
    {
      for (guint t = 0; t < n_threads; t++)
        g_ptr_array_add (weights, fc_sample_weights_new (profile, t));
    }
  else if ((guint) thread < n_threads)
    g_ptr_array_add (weights, fc_sample_weights_new (profile, thread));

  n_stacks = MAX (1, fc_profile_get_n_stacks (profile));
  stack_samples = g_new0 (guint32, n_stacks);
  stack_ns = g_new0 (gint64, n_stacks);
  for (guint i = 0; i < weights->len; i++)
    accumulate_thread (profile, g_ptr_array_index (weights, i), begin_ns, end_ns, stack_samples, stack_ns);

  nodes = g_array_new (FALSE, FALSE, sizeof (BuildNode));
  root.parent = UNSET;
  root.frame = FC_CALL_TREE_ROOT_FRAME;
  g_array_append_val (nodes, root);

  if (bottom_up || which != FC_FRAME_FILTER_ALL)
    build_indexed (profile, nodes, stack_samples, stack_ns, n_stacks, bottom_up, which);
  else
    build_top_down (profile, nodes, stack_samples, stack_ns, n_stacks);

  self->n_nodes = nodes->len;
  self->nodes = link_children (g_steal_pointer (&nodes), &self->max_depth);

  return self;
}

typedef struct {
  FcProfile        *profile;
  gint              thread;
  gint64            begin_ns;
  gint64            end_ns;
  gboolean          bottom_up;
  FcFrameFilter     which;
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->profile);
  g_free (data);
}

static void
build_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  BuildData *data = task_data;

  g_task_return_pointer (task,
                         fc_call_tree_new_full (data->profile, data->thread, data->begin_ns,
                                                data->end_ns, data->bottom_up, data->which),
                         (GDestroyNotify) fc_call_tree_unref);
}

/**
 * fc_call_tree_new_async:
 *
 * Builds the tree on a worker thread, from a finished profile or what a live
 * one has published.
 */
void
fc_call_tree_new_async (FcProfile           *profile,
                        gint                 thread,
                        gint64               begin_ns,
                        gint64               end_ns,
                        gboolean             bottom_up,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  fc_call_tree_new_full_async (profile, thread, begin_ns, end_ns, bottom_up, FC_FRAME_FILTER_ALL,
                               cancellable, callback, user_data);
}

void
fc_call_tree_new_full_async (FcProfile           *profile,
                             gint                 thread,
                             gint64               begin_ns,
                             gint64               end_ns,
                             gboolean             bottom_up,
                             FcFrameFilter        which,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  BuildData *data;

  g_return_if_fail (FC_IS_PROFILE (profile));

  data = g_new0 (BuildData, 1);
  data->profile = g_object_ref (profile);
  data->thread = thread;
  data->begin_ns = begin_ns;
  data->end_ns = end_ns;
  data->bottom_up = bottom_up;
  data->which = which;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_call_tree_new_full_async);
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, build_in_thread);
}

FcCallTree *
fc_call_tree_new_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

FcCallTree *
fc_call_tree_ref (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
fc_call_tree_unref (FcCallTree *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->profile);
  free_nodes (self->nodes);
  g_free (self);
}

FcProfile *
fc_call_tree_get_profile (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->profile;
}

gint
fc_call_tree_get_thread (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->thread;
}

gboolean
fc_call_tree_is_bottom_up (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->bottom_up;
}

FcFrameFilter
fc_call_tree_get_frames (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, FC_FRAME_FILTER_ALL);
  return self->which;
}

void
fc_call_tree_get_range (FcCallTree *self,
                        gint64     *begin_ns,
                        gint64     *end_ns)
{
  g_return_if_fail (self != NULL);

  if (begin_ns != NULL)
    *begin_ns = self->begin_ns;
  if (end_ns != NULL)
    *end_ns = self->end_ns;
}

guint
fc_call_tree_get_n_nodes (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_nodes;
}

guint
fc_call_tree_get_max_depth (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max_depth;
}

const FcCallTreeNode *
fc_call_tree_get_root (FcCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->nodes[0];
}

const FcCallTreeNode *
fc_call_tree_get_node (FcCallTree *self,
                       guint       index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_nodes, NULL);
  return &self->nodes[index];
}

guint
fc_call_tree_node_get_index (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->index;
}

guint
fc_call_tree_node_get_n_children (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->n_children;
}

/* nodes are one array, in index order */
const FcCallTreeNode *
fc_call_tree_node_get_child (const FcCallTreeNode *node,
                             guint                 index)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (index < node->n_children, NULL);
  return node - node->index + header_of (node)->children[node->first_child + index];
}

const FcCallTreeNode *
fc_call_tree_node_get_parent (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return node->index == 0 ? NULL : node - (node->index - node->parent);
}

guint32
fc_call_tree_node_get_frame (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, FC_CALL_TREE_ROOT_FRAME);
  return node->frame;
}

guint
fc_call_tree_node_get_depth (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->depth;
}

guint64
fc_call_tree_node_get_self (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->self;
}

guint64
fc_call_tree_node_get_total (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->total;
}

gint64
fc_call_tree_node_get_self_ns (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->self_ns;
}

gint64
fc_call_tree_node_get_total_ns (const FcCallTreeNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->total_ns;
}
