/* fc-profile.c - the interned, columnar profile model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-profile.h"
#include "fc-column.h"
#include "fc-in-app.h"
#include "fc-frame-location-private.h"

G_STATIC_ASSERT (sizeof (gpointer) == 8);

/* what fc_profile_reserve_stacks() takes at most: room for 2M nodes (24 MB,
 * resident only as it fills), enough for a 50 MB chunk of distinct deep
 * stacks; past it, the nodes grow as they always did */
#define FC_PROFILE_RESERVE_STACKS_MAX ((2u << 20) - 1)

/* Open addressing over frame (or stack) ids: frames are hashed by content,
 * stacks by (parent, frame), and the table only stores ids so that the
 * arrays can grow freely; 4 bytes a slot where a GHashTable of stacks took
 * 20 (an hour's recording has millions of stacks). */
typedef struct {
  guint32 *slots;     /* frame id + 1, 0 = empty */
  guint    mask;
  guint    used;
} FrameTable;

struct _FcProfile
{
  GObject       parent_instance;

  FcFormat      format;

  /* Columns a reader may see while the profile grows (see fc-column.h); the
   * hash tables and the working thread table are the builder's alone. */
  GStringChunk *string_chunk;
  FcColumn      strings;       /* id -> const char* (in string_chunk); [0] = NULL */
  GHashTable   *string_ids;    /* const char* -> id */

  FcColumn      frames;        /* FcFrame */
  FrameTable    frame_table;

  FcColumn      stacks;        /* FcStackNode; [0] = FC_STACK_EMPTY */
  FrameTable    stack_table;   /* by (parent, frame), of the nodes that need it (stack_needs_slot()) */
  guint32       stacks_indexed; /* the nodes before this one are in the index if they need to be */

  GArray       *threads;       /* FcThread: the builder's working table */
  GHashTable   *thread_ids;    /* tid string id -> thread index + 1 */
  FcThread     *pub_threads;   /* atomic: a live profile's published copy of the table */
  guint         pub_n_threads; /* atomic */
  GPtrArray    *retired_threads;

  FcColumn      samples;       /* FcSample, in time order once sorted */
  FcColumn      thread_index;  /* FcColumn* per thread, of guint32 sample indexes in time order */
  gboolean      sorted;        /* FALSE while an out-of-order append waits for fc_profile_finish() */
  gboolean      live;          /* published batch by batch: readers may be reading now */
  gboolean      finished;      /* immutable: no more samples */
  guint32       active_tid;    /* string id, computed when building ends */

  JsonObject   *meta;
  JsonObject   *profile_extra;
  JsonObject   *linked_event;
  FcClientSdk  *client_sdk;
  GPtrArray    *images;            /* FcDebugImage*, NULL when the payload lists none */
  char         *debug_meta_extra;  /* debug_meta's other keys, as compact JSON text */
  gint64        start_ns;
  gboolean      has_start;
  gsize         source_size;
  FcLocationTable *locations;  /* a by-function copy: what was merged where (fc-frame-location.h) */
  FcProfile    *shared_from;   /* a copy that reads this finished profile's stack nodes, samples and
                                * thread indexes (share_source()); also where its frames came from */
};

G_DEFINE_FINAL_TYPE (FcProfile, fc_profile, G_TYPE_OBJECT)

static void
fc_profile_finalize (GObject *object)
{
  FcProfile *self = (FcProfile *)object;

  g_clear_pointer (&self->string_chunk, g_string_chunk_free);
  fc_column_clear (&self->strings);
  g_clear_pointer (&self->string_ids, g_hash_table_unref);
  fc_column_clear (&self->frames);
  g_clear_pointer (&self->frame_table.slots, g_free);
  g_clear_pointer (&self->locations, fc_location_table_free);
  fc_column_clear (&self->stacks);
  g_clear_pointer (&self->stack_table.slots, g_free);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->thread_ids, g_hash_table_unref);
  if (self->live)
    g_free (self->pub_threads);
  g_clear_pointer (&self->retired_threads, g_ptr_array_unref);
  fc_column_clear (&self->samples);
  for (guint i = 0; i < self->thread_index.len; i++)
    {
      FcColumn *column = fc_column_writer_at (&self->thread_index, FcColumn *, i);

      fc_column_clear (column);
      g_free (column);
    }
  fc_column_clear (&self->thread_index);
  g_clear_pointer (&self->meta, json_object_unref);
  g_clear_pointer (&self->profile_extra, json_object_unref);
  g_clear_pointer (&self->linked_event, json_object_unref);
  g_clear_pointer (&self->client_sdk, fc_client_sdk_free);
  g_clear_pointer (&self->images, g_ptr_array_unref);
  g_clear_pointer (&self->debug_meta_extra, g_free);
  g_clear_object (&self->shared_from);

  G_OBJECT_CLASS (fc_profile_parent_class)->finalize (object);
}

static void
fc_profile_class_init (FcProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_profile_finalize;
}

static guint
stack_key_hash (gconstpointer key)
{
  guint64 k = (guint64)GPOINTER_TO_SIZE (key);

  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  k ^= k >> 33;
  return (guint)k;
}

static void
fc_profile_init (FcProfile *self)
{
  FcStackNode root = { FC_STACK_EMPTY, 0, 0 };

  self->string_chunk = g_string_chunk_new (64 * 1024);
  fc_column_init (&self->strings, sizeof (const char *));
  fc_column_push (&self->strings);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);

  fc_column_init (&self->frames, sizeof (FcFrame));
  self->frame_table.mask = 255;
  self->frame_table.slots = g_new0 (guint32, self->frame_table.mask + 1);

  fc_column_init (&self->stacks, sizeof (FcStackNode));
  *(FcStackNode *) fc_column_push (&self->stacks) = root;
  self->stacks_indexed = 1;
  self->stack_table.mask = 255;
  self->stack_table.slots = g_new0 (guint32, self->stack_table.mask + 1);

  self->threads = g_array_new (FALSE, TRUE, sizeof (FcThread));
  self->thread_ids = g_hash_table_new (NULL, NULL);

  fc_column_init (&self->samples, sizeof (FcSample));
  fc_column_init (&self->thread_index, sizeof (FcColumn *));
  self->sorted = TRUE;

  self->meta = json_object_new ();
  self->profile_extra = json_object_new ();
}

/**
 * fc_profile_new:
 * @format: the Sample Format the profile follows
 *
 * Returns: (transfer full): an empty profile
 */
FcProfile *
fc_profile_new (FcFormat format)
{
  FcProfile *self = g_object_new (FC_TYPE_PROFILE, NULL);

  self->format = format;
  return self;
}

FcFormat
fc_profile_get_format (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), FC_FORMAT_UNKNOWN);
  return self->format;
}

void
fc_profile_set_format (FcProfile *self,
                       FcFormat   format)
{
  g_return_if_fail (FC_IS_PROFILE (self));
  self->format = format;
}

/* ---- strings ---- */

guint32
fc_profile_intern (FcProfile  *self,
                   const char *str)
{
  gpointer id;
  const char *copy;

  g_return_val_if_fail (FC_IS_PROFILE (self), FC_STRING_NONE);

  if (str == NULL)
    return FC_STRING_NONE;

  if (g_hash_table_lookup_extended (self->string_ids, str, NULL, &id))
    return GPOINTER_TO_UINT (id);

  g_return_val_if_fail (!self->finished, FC_STRING_NONE);

  /* GStringChunk never moves a string it holds: readers keep their pointers. */
  copy = g_string_chunk_insert (self->string_chunk, str);
  *(const char **) fc_column_push (&self->strings) = copy;
  g_hash_table_insert (self->string_ids, (gpointer)copy, GUINT_TO_POINTER (self->strings.len - 1));

  return self->strings.len - 1;
}

guint32
fc_profile_intern_len (FcProfile  *self,
                       const char *str,
                       gsize       len)
{
  char stack_buf[256];
  g_autofree char *heap_buf = NULL;
  char *buf;

  if (str == NULL)
    return FC_STRING_NONE;

  if (len < sizeof stack_buf)
    buf = stack_buf;
  else
    buf = heap_buf = g_malloc (len + 1);

  memcpy (buf, str, len);
  buf[len] = '\0';

  return fc_profile_intern (self, buf);
}

const char *
fc_profile_string (FcProfile *self,
                   guint32    id)
{
  const char * const *strings;
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  strings = fc_column_read (&self->strings, &n);
  if (id >= n)
    return NULL;
  return strings[id];
}

guint
fc_profile_get_n_strings (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  return fc_column_n_published (&self->strings);
}

/* ---- frames ---- */

void
fc_frame_init (FcFrame *frame)
{
  memset (frame, 0, sizeof *frame);
  frame->lineno = FC_LINE_NONE;
  frame->colno = FC_LINE_NONE;
  frame->in_app = FC_IN_APP_UNKNOWN;
}

static guint
frame_hash (const FcFrame *frame)
{
  const guint8 *p = (const guint8 *)frame;
  guint32 h = 2166136261u;

  for (gsize i = 0; i < sizeof *frame; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static void
frame_table_grow (FcProfile *self)
{
  FrameTable *t = &self->frame_table;
  guint new_mask = (t->mask << 1) | 1;
  guint32 *slots = g_new0 (guint32, new_mask + 1);

  for (guint i = 0; i < self->frames.len; i++)
    {
      guint pos = frame_hash (&fc_column_writer_at (&self->frames, FcFrame, i)) & new_mask;

      while (slots[pos] != 0)
        pos = (pos + 1) & new_mask;
      slots[pos] = i + 1;
    }

  g_free (t->slots);
  t->slots = slots;
  t->mask = new_mask;
}

/* room for @n_frames frames in an empty profile, their index sized once */
static void
reserve_frames (FcProfile *self,
                guint      n_frames)
{
  FrameTable *t = &self->frame_table;

  g_assert (self->frames.len == 0);
  fc_column_reserve (&self->frames, n_frames, TRUE);
  while ((guint64) n_frames * 2 > t->mask)
    t->mask = (t->mask << 1) | 1;
  g_free (t->slots);
  t->slots = g_new0 (guint32, t->mask + 1);
}

guint32
fc_profile_intern_frame (FcProfile     *self,
                         const FcFrame *frame)
{
  FrameTable *t;
  FcFrame key;
  guint pos;

  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  g_return_val_if_fail (frame != NULL, 0);

  /* Copy field by field so padding never makes equal frames differ. */
  fc_frame_init (&key);
  key.function = frame->function;
  key.module = frame->module;
  key.package = frame->package;
  key.filename = frame->filename;
  key.abs_path = frame->abs_path;
  key.platform = frame->platform;
  key.extra = frame->extra;
  key.lineno = frame->lineno;
  key.colno = frame->colno;
  key.in_app = frame->in_app;
  key.in_app_inferred = frame->in_app != FC_IN_APP_UNKNOWN && frame->in_app_inferred != 0;
  key.has_instruction_addr = frame->has_instruction_addr != 0;
  key.instruction_addr = key.has_instruction_addr ? frame->instruction_addr : 0;

  t = &self->frame_table;
  pos = frame_hash (&key) & t->mask;

  while (t->slots[pos] != 0)
    {
      guint32 id = t->slots[pos] - 1;

      if (memcmp (&fc_column_writer_at (&self->frames, FcFrame, id), &key, sizeof key) == 0)
        return id;
      pos = (pos + 1) & t->mask;
    }

  g_return_val_if_fail (!self->finished, 0);

  *(FcFrame *) fc_column_push (&self->frames) = key;
  t->slots[pos] = self->frames.len;
  t->used++;

  if (t->used * 2 > t->mask)
    frame_table_grow (self);

  return self->frames.len - 1;
}

guint
fc_profile_get_n_frames (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  return fc_column_n_published (&self->frames);
}

const FcFrame *
fc_profile_get_frame (FcProfile *self,
                      guint32    frame_id)
{
  const FcFrame *frames;
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  frames = fc_column_read (&self->frames, &n);
  g_return_val_if_fail (frame_id < n, NULL);

  return &frames[frame_id];
}

/**
 * fc_profile_frame_label:
 *
 * The name a view shows for a frame: its function, else module@address,
 * else "<anonymous> file:line", else "<unknown>". Never empty. @buf backs
 * the composed forms.
 */
const char *
fc_profile_frame_label (FcProfile *self,
                        guint32    frame_id,
                        char      *buf,
                        gsize      buf_len)
{
  const FcFrame *frame = fc_profile_get_frame (self, frame_id);
  const char *function;
  const char *where;

  if (frame == NULL)
    return "<invalid frame>";

  function = fc_profile_string (self, frame->function);
  if (function != NULL && function[0] != '\0')
    return function;

  where = fc_profile_string (self, frame->module);
  if (where == NULL || where[0] == '\0')
    where = fc_profile_string (self, frame->package);
  if (where != NULL && where[0] != '\0')
    {
      const char *base = strrchr (where, '/');

      if (base != NULL && base[1] != '\0')
        where = base + 1;
    }

  if (frame->has_instruction_addr && buf != NULL && buf_len > 0)
    {
      if (where != NULL && where[0] != '\0')
        g_snprintf (buf, buf_len, "%s@0x%" G_GINT64_MODIFIER "x", where, frame->instruction_addr);
      else
        g_snprintf (buf, buf_len, "0x%" G_GINT64_MODIFIER "x", frame->instruction_addr);
      return buf;
    }

  /* JavaScript and Python frames often carry only a file and a line. */
  {
    const char *file = fc_profile_string (self, frame->filename);

    if (file == NULL || file[0] == '\0')
      file = fc_profile_string (self, frame->abs_path);
    if (file != NULL && file[0] != '\0' && buf != NULL && buf_len > 0)
      {
        const char *base = strrchr (file, '/');

        if (base != NULL && base[1] != '\0')
          file = base + 1;
        if (frame->lineno >= 0)
          g_snprintf (buf, buf_len, "<anonymous> %s:%d", file, frame->lineno);
        else
          g_snprintf (buf, buf_len, "<anonymous> %s", file);
        return buf;
      }
  }

  if (function != NULL)
    return "<anonymous>";
  if (where != NULL && where[0] != '\0')
    return where;
  return "<unknown>";
}

/* ---- stacks ---- */

static guint
stack_hash (guint32 parent,
            guint32 frame_id)
{
  return stack_key_hash (GSIZE_TO_POINTER (((guint64) parent << 32) | frame_id));
}

/* The index holds only the nodes a lookup could not find otherwise. A
 * node whose parent is the node just before it (each new node of a new
 * stack but the first: nearly all the nodes of a chunk of distinct deep
 * stacks) is its parent's child at a known place, parent + 1, and a lookup
 * looks there first; only the others take a slot. A deep chunk's reader
 * wrote 1.6 million slots scattered over 16 MB, a cache miss each, to
 * find next to none of them again. */
static inline gboolean
stack_needs_slot (const FcStackNode *node,
                  guint32            id)
{
  return node->parent != id - 1;
}

static void
stack_table_insert (FrameTable        *t,
                    const FcStackNode *node,
                    guint32            id)
{
  guint pos = stack_hash (node->parent, node->frame) & t->mask;

  while (t->slots[pos] != 0)
    pos = (pos + 1) & t->mask;
  t->slots[pos] = id + 1;
}

/* the same nodes in a table twice the size */
static void
stack_table_grow (FcProfile *self)
{
  FrameTable *t = &self->stack_table;
  FrameTable grown = { NULL, (t->mask << 1) | 1, t->used };

  grown.slots = g_new0 (guint32, grown.mask + 1);
  for (guint i = 0; i <= t->mask; i++)
    if (t->slots[i] != 0)
      stack_table_insert (&grown, &fc_column_writer_at (&self->stacks, FcStackNode, t->slots[i] - 1),
                          t->slots[i] - 1);
  g_free (t->slots);
  *t = grown;
}

/* the nodes pushed without a lookup (see push_new_stack()) take their slots */
static void
stack_table_catch_up (FcProfile *self)
{
  FrameTable *t = &self->stack_table;

  for (guint32 id = self->stacks_indexed; id < self->stacks.len; id++)
    {
      const FcStackNode *node = &fc_column_writer_at (&self->stacks, FcStackNode, id);

      if (!stack_needs_slot (node, id))
        continue;
      stack_table_insert (t, node, id);
      if (++t->used * 2 > t->mask)
        stack_table_grow (self);
    }
  self->stacks_indexed = self->stacks.len;
}

/* A node the caller knows is not there yet (see import_stack()): pushed
 * without a lookup. The index takes it at the next fc_profile_intern_stack(). */
static guint32
push_new_stack (FcProfile *self,
                guint32    parent,
                guint32    frame_id)
{
  FcStackNode node;

  node.parent = parent;
  node.frame = frame_id;
  node.depth = fc_column_writer_at (&self->stacks, FcStackNode, parent).depth + 1;
  fc_column_append (&self->stacks, FcStackNode, node);
  return self->stacks.len - 1;
}

/**
 * fc_profile_reserve_stacks:
 * @n_stacks: how many stack nodes the builder may intern, at most
 *
 * Makes room for the nodes once, for a builder that knows: a reader of a
 * chunk with 1.6 million distinct nodes copied them at each doubling. The
 * room left unused goes when the profile is finished.
 */
void
fc_profile_reserve_stacks (FcProfile *self,
                           guint      n_stacks)
{
  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  n_stacks = MIN (n_stacks, FC_PROFILE_RESERVE_STACKS_MAX);
  fc_column_reserve (&self->stacks, n_stacks + 1, TRUE);
}

guint32
fc_profile_intern_stack (FcProfile *self,
                         guint32    parent,
                         guint32    frame_id)
{
  FrameTable *t;
  FcStackNode node;
  guint pos;

  g_return_val_if_fail (FC_IS_PROFILE (self), FC_STACK_EMPTY);
  /* a finished profile has no index of its stacks (see fc_profile_finish()) */
  g_return_val_if_fail (!self->finished, FC_STACK_EMPTY);
  g_return_val_if_fail (parent < self->stacks.len, FC_STACK_EMPTY);
  g_return_val_if_fail (frame_id < self->frames.len, FC_STACK_EMPTY);

  t = &self->stack_table;
  if (self->stacks_indexed != self->stacks.len)
    stack_table_catch_up (self);

  node.parent = parent;
  node.frame = frame_id;
  node.depth = fc_column_writer_at (&self->stacks, FcStackNode, parent).depth + 1;

  /* A node's children come after it: the newest node has none, and its
   * first child needs no slot. */
  if (parent == self->stacks.len - 1)
    {
      fc_column_append (&self->stacks, FcStackNode, node);
      self->stacks_indexed = self->stacks.len;
      return self->stacks.len - 1;
    }

  if (parent + 1 < self->stacks.len)
    {
      const FcStackNode *next = &fc_column_writer_at (&self->stacks, FcStackNode, parent + 1);

      if (next->parent == parent && next->frame == frame_id)
        return parent + 1;
    }

  pos = stack_hash (parent, frame_id) & t->mask;
  while (t->slots[pos] != 0)
    {
      const FcStackNode *other = &fc_column_writer_at (&self->stacks, FcStackNode, t->slots[pos] - 1);

      if (other->parent == parent && other->frame == frame_id)
        return t->slots[pos] - 1;
      pos = (pos + 1) & t->mask;
    }

  fc_column_append (&self->stacks, FcStackNode, node);
  self->stacks_indexed = self->stacks.len;
  t->slots[pos] = self->stacks.len;
  if (++t->used * 2 > t->mask)
    stack_table_grow (self);

  return self->stacks.len - 1;
}

guint32
fc_profile_intern_stack_frames (FcProfile     *self,
                                const guint32 *frames_leaf_first,
                                guint          n_frames)
{
  guint32 stack = FC_STACK_EMPTY;

  g_return_val_if_fail (FC_IS_PROFILE (self), FC_STACK_EMPTY);

  for (guint i = n_frames; i > 0; i--)
    stack = fc_profile_intern_stack (self, stack, frames_leaf_first[i - 1]);

  return stack;
}

guint
fc_profile_get_n_stacks (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  return fc_column_n_published (&self->stacks);
}

const FcStackNode *
fc_profile_get_stack (FcProfile *self,
                      guint32    stack_id)
{
  const FcStackNode *stacks;
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  stacks = fc_column_read (&self->stacks, &n);
  g_return_val_if_fail (stack_id < n, NULL);

  return &stacks[stack_id];
}

/**
 * fc_profile_get_stacks:
 *
 * Returns: (transfer none): every stack node, indexed by stack id; valid
 * for the life of the profile
 */
const FcStackNode *
fc_profile_get_stacks (FcProfile *self,
                       guint     *n_stacks)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  return fc_column_read (&self->stacks, n_stacks);
}

/**
 * fc_profile_stack_frames:
 *
 * Fills @frames_leaf_first with at most @max_frames frames of @stack_id,
 * leaf first. Returns the stack's full depth, which may exceed @max_frames.
 */
guint
fc_profile_stack_frames (FcProfile *self,
                         guint32    stack_id,
                         guint32   *frames_leaf_first,
                         guint      max_frames)
{
  const FcStackNode *stacks;
  const FcStackNode *node;
  guint n;
  guint depth;
  guint i = 0;

  g_return_val_if_fail (FC_IS_PROFILE (self), 0);

  stacks = fc_column_read (&self->stacks, &n);
  g_return_val_if_fail (stack_id < n, 0);

  node = &stacks[stack_id];
  depth = node->depth;

  while (stack_id != FC_STACK_EMPTY && i < max_frames)
    {
      node = &stacks[stack_id];
      frames_leaf_first[i++] = node->frame;
      stack_id = node->parent;
    }

  return depth;
}

/* ---- threads ---- */

static FcColumn *
thread_index_column (FcProfile *self,
                     guint32    thread_index)
{
  return fc_column_writer_at (&self->thread_index, FcColumn *, thread_index);
}

guint32
fc_profile_ensure_thread (FcProfile  *self,
                          const char *tid)
{
  guint32 tid_id;
  gpointer index;
  FcThread thread = { 0 };
  FcColumn *column;

  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  g_return_val_if_fail (tid != NULL, 0);

  tid_id = fc_profile_intern (self, tid);
  index = g_hash_table_lookup (self->thread_ids, GUINT_TO_POINTER (tid_id));
  if (index != NULL)
    return GPOINTER_TO_UINT (index) - 1;

  g_return_val_if_fail (!self->finished, 0);

  thread.tid = tid_id;
  thread.priority = -1;
  thread.first_ns = G_MAXINT64;
  thread.last_ns = G_MININT64;
  g_array_append_val (self->threads, thread);
  g_hash_table_insert (self->thread_ids, GUINT_TO_POINTER (tid_id), GUINT_TO_POINTER (self->threads->len));

  column = g_new (FcColumn, 1);
  fc_column_init (column, sizeof (guint32));
  if (self->live)
    fc_column_share (column);
  *(FcColumn **) fc_column_push (&self->thread_index) = column;

  return self->threads->len - 1;
}

/* the thread table readers see: the working table while one thread builds
 * the profile, the copy made at the last fc_profile_publish() once it is live */
static const FcThread *
read_threads (FcProfile *self,
              guint     *n)
{
  if (!self->live)
    {
      *n = self->threads->len;
      return (const FcThread *) (gpointer) self->threads->data;
    }

  *n = g_atomic_int_get (&self->pub_n_threads);
  return g_atomic_pointer_get (&self->pub_threads);
}

gboolean
fc_profile_lookup_thread (FcProfile  *self,
                          const char *tid,
                          guint32    *thread_index)
{
  const FcThread *threads;
  gpointer id;
  gpointer index;
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), FALSE);

  if (tid == NULL)
    return FALSE;

  if (self->live)
    {
      /* The builder's hash tables are its own while it appends: scan what is published. */
      threads = read_threads (self, &n);
      for (guint i = 0; i < n; i++)
        if (g_strcmp0 (fc_profile_string (self, threads[i].tid), tid) == 0)
          {
            if (thread_index != NULL)
              *thread_index = i;
            return TRUE;
          }
      return FALSE;
    }

  if (!g_hash_table_lookup_extended (self->string_ids, tid, NULL, &id))
    return FALSE;

  index = g_hash_table_lookup (self->thread_ids, id);
  if (index == NULL)
    return FALSE;

  if (thread_index != NULL)
    *thread_index = GPOINTER_TO_UINT (index) - 1;
  return TRUE;
}

void
fc_profile_set_thread_name (FcProfile  *self,
                            guint32     thread_index,
                            const char *name)
{
  FcThread *thread = fc_profile_get_thread_mut (self, thread_index);
  guint32 id;

  if (thread == NULL)
    return;
  id = fc_profile_intern (self, name);
  if (thread->name != id)
    thread->name = id;
}

/**
 * fc_profile_get_thread_mut:
 *
 * The builder's entry for a thread, to fill in its metadata. On a live
 * profile readers see the change at the next fc_profile_publish().
 */
FcThread *
fc_profile_get_thread_mut (FcProfile *self,
                           guint32    thread_index)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  g_return_val_if_fail (thread_index < self->threads->len, NULL);
  g_return_val_if_fail (!self->finished, NULL);

  return &g_array_index (self->threads, FcThread, thread_index);
}

guint
fc_profile_get_n_threads (FcProfile *self)
{
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), 0);

  read_threads (self, &n);
  return n;
}

const FcThread *
fc_profile_get_thread (FcProfile *self,
                       guint32    thread_index)
{
  const FcThread *threads;
  guint n;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  threads = read_threads (self, &n);
  g_return_val_if_fail (thread_index < n, NULL);

  return &threads[thread_index];
}

/* ---- samples ---- */

static void
index_sample (FcProfile *self,
              guint32    sample_index)
{
  const FcSample *sample = &fc_column_writer_at (&self->samples, FcSample, sample_index);

  fc_column_append (thread_index_column (self, sample->thread), guint32, sample_index);
}

/**
 * fc_profile_append_sample:
 *
 * Appends one sample. While one thread builds the profile it is visible at
 * once; on a live profile, at the next fc_profile_publish().
 */
void
fc_profile_append_sample (FcProfile *self,
                          gint64     timestamp_ns,
                          guint32    thread_index,
                          guint32    stack_id,
                          guint32    extra)
{
  FcSample sample = { timestamp_ns, thread_index, stack_id, extra };
  FcThread *thread;

  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (thread_index < self->threads->len);
  g_return_if_fail (stack_id < self->stacks.len);

  if (!self->live && self->sorted && self->samples.len > 0 &&
      timestamp_ns < fc_column_writer_at (&self->samples, FcSample, self->samples.len - 1).timestamp_ns)
    {
      /* out of order: the index waits for fc_profile_finish() to sort */
      self->sorted = FALSE;
      for (guint i = 0; i < self->thread_index.len; i++)
        fc_column_truncate (thread_index_column (self, i), 0);
    }

  fc_column_append (&self->samples, FcSample, sample);

  thread = &g_array_index (self->threads, FcThread, thread_index);
  thread->n_samples++;
  thread->first_ns = MIN (thread->first_ns, timestamp_ns);
  thread->last_ns = MAX (thread->last_ns, timestamp_ns);

  if (!self->live && self->sorted)
    index_sample (self, self->samples.len - 1);
}

/**
 * fc_profile_take_samples:
 * @samples: (transfer full): room for @capacity samples from fc_big_alloc()
 *   (fc-big-alloc.h; g_malloc'd below FC_BIG_MIN bytes), the first @n of them filled
 *
 * The samples of a profile that has none yet, in the order given, as
 * fc_profile_append_sample() would append them: a reader converts its own
 * array in place and hands it over, where appending copied half a million
 * samples into 10 MB of pages the process had never touched (each page's
 * first touch is a trap, through the hypervisor on a VM). Samples that
 * name a thread or stack the profile does not have are dropped, loudly.
 */
void
fc_profile_take_samples (FcProfile *self,
                         FcSample  *samples,
                         guint      n,
                         guint      capacity)
{
  guint kept = 0;

  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (!self->finished && !self->live);
  g_return_if_fail (self->samples.len == 0);
  g_return_if_fail (n <= capacity);

  for (guint i = 0; i < n; i++)
    {
      FcThread *thread;

      if (samples[i].thread >= self->threads->len || samples[i].stack >= self->stacks.len)
        {
          g_critical ("%s: sample %u names thread %u and stack %u, but there are %u and %u",
                      G_STRFUNC, i, samples[i].thread, samples[i].stack, self->threads->len, self->stacks.len);
          continue;
        }
      samples[kept] = samples[i];
      if (kept > 0 && samples[kept].timestamp_ns < samples[kept - 1].timestamp_ns)
        self->sorted = FALSE;
      thread = &g_array_index (self->threads, FcThread, samples[kept].thread);
      thread->n_samples++;
      thread->first_ns = MIN (thread->first_ns, samples[kept].timestamp_ns);
      thread->last_ns = MAX (thread->last_ns, samples[kept].timestamp_ns);
      kept++;
    }

  fc_column_adopt (&self->samples, samples, kept, capacity);
  /* sorted, the index is made now; otherwise fc_profile_finish() sorts and makes it */
  for (guint32 i = 0; i < kept && self->sorted; i++)
    index_sample (self, i);
}

static gint
sample_compare (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const FcSample *sa = a;
  const FcSample *sb = b;

  return (sa->timestamp_ns > sb->timestamp_ns) - (sa->timestamp_ns < sb->timestamp_ns);
}

/* Before the profile is shared: order everything and index it again. */
static void
sort_all (FcProfile *self)
{
  g_assert (!self->live);

  if (self->sorted)
    return;

  /* g_qsort_with_data() is stable: equal timestamps keep their append order */
  g_qsort_with_data (self->samples.data, self->samples.len, sizeof (FcSample), sample_compare, NULL);
  self->sorted = TRUE;

  for (guint i = 0; i < self->thread_index.len; i++)
    fc_column_truncate (thread_index_column (self, i), 0);
  for (guint32 i = 0; i < self->samples.len; i++)
    index_sample (self, i);
}

/**
 * fc_profile_sort_samples:
 *
 * Orders samples by time while one thread builds the profile (the sort is
 * stable: equal timestamps keep their append order). A live profile keeps
 * its order as it publishes, so there it does nothing.
 */
void
fc_profile_sort_samples (FcProfile *self)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  if (!self->live)
    sort_all (self);
}

static void
publish_threads (FcProfile *self)
{
  FcThread *copy = g_memdup2 (self->threads->data, MAX (1, self->threads->len) * sizeof (FcThread));
  FcThread *old = self->pub_threads;

  g_atomic_pointer_set (&self->pub_threads, copy);
  g_atomic_int_set (&self->pub_n_threads, self->threads->len);

  /* a reader may still hold the previous table */
  if (old != NULL)
    {
      if (self->retired_threads == NULL)
        self->retired_threads = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->retired_threads, old);
    }
}

static void
go_live (FcProfile *self)
{
  sort_all (self);

  fc_column_share (&self->strings);
  fc_column_share (&self->frames);
  fc_column_share (&self->stacks);
  fc_column_share (&self->samples);
  fc_column_share (&self->thread_index);
  for (guint i = 0; i < self->thread_index.len; i++)
    fc_column_share (thread_index_column (self, i));

  /* everything appended so far counts as published */
  fc_column_publish (&self->strings);
  fc_column_publish (&self->frames);
  fc_column_publish (&self->stacks);
  for (guint i = 0; i < self->thread_index.len; i++)
    fc_column_publish (thread_index_column (self, i));
  fc_column_publish (&self->thread_index);
  publish_threads (self);
  fc_column_publish (&self->samples);
  if (self->locations != NULL)
    fc_location_table_publish (self->locations);

  self->live = TRUE;
}

/**
 * fc_profile_publish:
 *
 * Makes everything appended since the last call visible to readers on other
 * threads, and from the first call on keeps it so: a live profile grows by
 * batches on one thread while workers read a consistent prefix. What readers
 * got stays valid and unchanged; each published batch is sorted by time, and
 * a sample older than what was already published is moved up to the
 * published end (its timestamp raised to it) so that the prefix stays in time
 * order.
 *
 * The order of publication is the order readers follow: strings, frames and
 * stacks before the samples that refer to them, a thread's sample indexes
 * before the samples, the thread table last but one and the sample count
 * last.
 */
void
fc_profile_publish (FcProfile *self)
{
  guint first;
  gint64 floor_ns = G_MININT64;

  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  if (!self->live)
    {
      go_live (self);
      return;
    }

  first = self->samples.published;
  if (first > 0)
    floor_ns = fc_column_writer_at (&self->samples, FcSample, first - 1).timestamp_ns;

  if (self->samples.len > first)
    {
      FcSample *tail = &fc_column_writer_at (&self->samples, FcSample, first);
      guint n_tail = self->samples.len - first;

      g_qsort_with_data (tail, n_tail, sizeof (FcSample), sample_compare, NULL);
      for (guint i = 0; i < n_tail && tail[i].timestamp_ns < floor_ns; i++)
        tail[i].timestamp_ns = floor_ns;
      for (guint32 i = first; i < self->samples.len; i++)
        index_sample (self, i);
    }

  fc_column_publish (&self->strings);
  fc_column_publish (&self->frames);
  fc_column_publish (&self->stacks);
  for (guint i = 0; i < self->thread_index.len; i++)
    fc_column_publish (thread_index_column (self, i));
  fc_column_publish (&self->thread_index);
  publish_threads (self);
  fc_column_publish (&self->samples);
  if (self->locations != NULL)
    fc_location_table_publish (self->locations);
}

/**
 * fc_profile_finish:
 *
 * Ends building: samples are sorted and indexed (or, on a live profile, the
 * last batch is published) and the profile is immutable from here on, safe to
 * read from any number of threads. Metadata setters still work for the owner
 * before it shares the profile.
 */
void
fc_profile_finish (FcProfile *self)
{
  const char *active;

  g_return_if_fail (FC_IS_PROFILE (self));

  if (self->finished)
    return;

  if (self->live)
    fc_profile_publish (self);
  else
    sort_all (self);

  /* computed here, once, so that the getter never interns */
  active = fc_profile_get_active_thread_id (self);
  self->active_tid = fc_profile_intern (self, active);
  if (self->live && active != NULL)
    fc_column_publish (&self->strings);

  /* Nothing is interned into a finished profile: the index of its stacks
   * goes (a chunk of 500k samples with deep, distinct stacks has 1.6
   * million: 16 MB), and so does the room reserved for more. */
  g_clear_pointer (&self->stack_table.slots, g_free);
  fc_column_trim (&self->stacks);
  self->stack_table.mask = 0;
  self->finished = TRUE;
}

gboolean
fc_profile_is_finished (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), FALSE);
  return self->finished;
}

gboolean
fc_profile_is_live (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), FALSE);
  return self->live;
}

/* Getters never sort: a profile appended out of order is read after
 * fc_profile_finish() (or fc_profile_sort_samples() on the building thread). */
static gboolean
in_order (FcProfile  *self,
          const char *func)
{
  if G_LIKELY (self->sorted)
    return TRUE;

  g_critical ("%s: samples were appended out of time order; call fc_profile_finish() "
              "(or fc_profile_sort_samples()) before reading them", func);
  return FALSE;
}

guint
fc_profile_get_n_samples (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  return fc_column_n_published (&self->samples);
}

/**
 * fc_profile_get_samples:
 *
 * Returns: (transfer none): the samples in time order (in the order they
 * were appended while a building thread has not sorted them yet). The pointer stays
 * valid, and the @n_samples it comes with unchanged, for the life of the
 * profile. On a live profile, fetch a thread's indexes
 * (fc_profile_get_thread_samples()) before the samples they point into.
 */
const FcSample *
fc_profile_get_samples (FcProfile *self,
                        guint     *n_samples)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  return fc_column_read (&self->samples, n_samples);
}

/**
 * fc_profile_get_thread_samples:
 *
 * Returns: (transfer none): the indexes into fc_profile_get_samples() of the
 * samples of @thread_index, in time order. Like the samples, they stay valid
 * for the life of the profile; a live profile only adds to them.
 */
const guint32 *
fc_profile_get_thread_samples (FcProfile *self,
                               guint32    thread_index,
                               guint     *n_samples)
{
  FcColumn * const *columns;
  guint n_columns;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  if (!in_order (self, G_STRFUNC))
    return NULL;

  columns = fc_column_read (&self->thread_index, &n_columns);
  g_return_val_if_fail (thread_index < n_columns, NULL);

  return fc_column_read (columns[thread_index], n_samples);
}

void
fc_profile_get_time_range (FcProfile *self,
                           gint64    *first_ns,
                           gint64    *last_ns)
{
  const FcSample *samples;
  gint64 first = 0;
  gint64 last = 0;
  guint n;

  g_return_if_fail (FC_IS_PROFILE (self));

  samples = fc_column_read (&self->samples, &n);
  if (n > 0 && self->sorted)
    {
      first = samples[0].timestamp_ns;
      last = samples[n - 1].timestamp_ns;
    }
  else if (n > 0)
    {
      /* still being built out of order */
      first = G_MAXINT64;
      last = G_MININT64;
      for (guint i = 0; i < n; i++)
        {
          first = MIN (first, samples[i].timestamp_ns);
          last = MAX (last, samples[i].timestamp_ns);
        }
    }

  if (first_ns != NULL)
    *first_ns = first;
  if (last_ns != NULL)
    *last_ns = last;
}

static guint
lower_bound (const FcSample *samples,
             const guint32  *indexes,
             guint           n,
             gint64          ts)
{
  guint lo = 0;
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 index = indexes != NULL ? indexes[mid] : mid;

      if (samples[index].timestamp_ns < ts)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * fc_profile_find_range:
 * @thread_index: a thread, or G_MAXUINT32 for all samples
 *
 * Finds the samples with @begin_ns <= timestamp < @end_ns: positions
 * [*first, *last) in fc_profile_get_thread_samples() of the thread, or in
 * fc_profile_get_samples() for G_MAXUINT32, as they were when this ran.
 */
void
fc_profile_find_range (FcProfile *self,
                       guint32    thread_index,
                       gint64     begin_ns,
                       gint64     end_ns,
                       guint     *first,
                       guint     *last)
{
  const guint32 *indexes = NULL;
  const FcSample *samples;
  guint n;

  g_return_if_fail (FC_IS_PROFILE (self));

  *first = *last = 0;
  if (thread_index != G_MAXUINT32)
    {
      indexes = fc_profile_get_thread_samples (self, thread_index, &n);
      samples = fc_profile_get_samples (self, NULL);
    }
  else
    {
      samples = fc_profile_get_samples (self, &n);
    }
  if (samples == NULL || n == 0)
    return;

  *first = lower_bound (samples, indexes, n, begin_ns);
  *last = MAX (*first, lower_bound (samples, indexes, n, end_ns));
}

/* ---- metadata ---- */

JsonObject *
fc_profile_get_meta (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->meta;
}

JsonObject *
fc_profile_get_profile_extra (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->profile_extra;
}

static const char *
object_get_string (JsonObject *object,
                   const char *key)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;

  node = json_object_get_member (object, key);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

const char *
fc_profile_get_meta_string (FcProfile  *self,
                            const char *key)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return object_get_string (self->meta, key);
}

void
fc_profile_set_meta_string (FcProfile  *self,
                            const char *key,
                            const char *value)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  if (value == NULL)
    json_object_remove_member (self->meta, key);
  else
    json_object_set_string_member (self->meta, key, value);
}

const char *
fc_profile_get_platform (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "platform");
}

const char *
fc_profile_get_release (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "release");
}

/**
 * fc_profile_get_client_sdk:
 * @self: a profile
 *
 * Returns: (transfer none) (nullable): the SDK that made the profile, as
 *   its payload gave it (fc_client_sdk_is_named() says whether it names one)
 */
const FcClientSdk *
fc_profile_get_client_sdk (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->client_sdk;
}

void
fc_profile_take_client_sdk (FcProfile   *self,
                            FcClientSdk *sdk)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  g_clear_pointer (&self->client_sdk, fc_client_sdk_free);
  self->client_sdk = sdk;
}

GPtrArray *
fc_profile_get_images (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->images;
}

void
fc_profile_take_images (FcProfile *self,
                        GPtrArray *images)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  g_clear_pointer (&self->images, g_ptr_array_unref);
  self->images = images;
}

void
fc_profile_add_image (FcProfile    *self,
                      FcDebugImage *image)
{
  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (image != NULL);

  if (self->images == NULL)
    self->images = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_debug_image_free);
  g_ptr_array_add (self->images, image);
}

const FcDebugImage *
fc_profile_find_image (FcProfile  *self,
                       const char *code_file)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  for (guint i = 0; self->images != NULL && i < self->images->len; i++)
    {
      const FcDebugImage *image = g_ptr_array_index (self->images, i);

      if (g_strcmp0 (image->code_file, code_file) == 0)
        return image;
    }
  return NULL;
}

const char *
fc_profile_get_debug_meta_extra (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->debug_meta_extra;
}

void
fc_profile_set_debug_meta_extra (FcProfile  *self,
                                 const char *json)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  g_free (self->debug_meta_extra);
  self->debug_meta_extra = g_strdup (json);
}

void
fc_profile_copy_sdk_and_images (FcProfile *dst,
                                FcProfile *src)
{
  g_return_if_fail (FC_IS_PROFILE (dst));
  g_return_if_fail (FC_IS_PROFILE (src));

  fc_profile_take_client_sdk (dst, fc_client_sdk_copy (src->client_sdk));
  fc_profile_take_images (dst, NULL);
  if (src->images != NULL)
    {
      dst->images = g_ptr_array_new_full (src->images->len, (GDestroyNotify) fc_debug_image_free);
      for (guint i = 0; i < src->images->len; i++)
        g_ptr_array_add (dst->images, fc_debug_image_copy (g_ptr_array_index (src->images, i)));
    }
  fc_profile_set_debug_meta_extra (dst, src->debug_meta_extra);
}

const char *
fc_profile_get_environment (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "environment");
}

const char *
fc_profile_get_profiler_id (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "profiler_id");
}

const char *
fc_profile_get_chunk_id (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "chunk_id");
}

const char *
fc_profile_get_event_id (FcProfile *self)
{
  return fc_profile_get_meta_string (self, "event_id");
}

/**
 * fc_profile_get_transaction:
 *
 * Returns: (transfer none) (nullable): the V1 `transaction` object, or the
 * first of a `transactions` list.
 */
JsonObject *
fc_profile_get_transaction (FcProfile *self)
{
  JsonNode *node;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  node = json_object_get_member (self->meta, "transaction");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);

  node = json_object_get_member (self->meta, "transactions");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    {
      JsonNode *first = json_array_get_element (json_node_get_array (node), 0);

      if (JSON_NODE_HOLDS_OBJECT (first))
        return json_node_get_object (first);
    }

  return NULL;
}

gint64
fc_profile_get_start_ns (FcProfile *self)
{
  gint64 first;

  g_return_val_if_fail (FC_IS_PROFILE (self), 0);

  if (self->has_start)
    return self->start_ns;

  fc_profile_get_time_range (self, &first, NULL);
  return first;
}

void
fc_profile_set_start_ns (FcProfile *self,
                         gint64     start_ns)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  self->start_ns = start_ns;
  self->has_start = TRUE;
}

/* @object's @key as a decimal id: SDKs send a string or a number. A number
 * is interned, which only an unfinished profile may do. */
static const char *
id_member (FcProfile  *self,
           JsonObject *object,
           const char *key)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;
  char buf[32];

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;

  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, json_node_get_int (node));
      return fc_profile_string (self, fc_profile_intern (self, buf));
    }

  return NULL;
}

static JsonObject *
object_member (JsonObject *object,
               const char *key)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The thread of a chunk's linked transaction event, never interning (the
 * event is linked after the chunk was finished): a number names a thread by
 * its tid, the thread's own string is returned. */
static const char *
linked_thread_id (FcProfile *self)
{
  JsonObject *trace = object_member (object_member (self->linked_event, "contexts"), "trace");
  JsonObject *data = object_member (trace, "data");
  JsonNode *node = data != NULL ? json_object_get_member (data, "thread.id") : NULL;
  char buf[32];
  guint32 index;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  if (json_node_get_value_type (node) != G_TYPE_INT64)
    return NULL;
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, json_node_get_int (node));
  if (!fc_profile_lookup_thread (self, buf, &index))
    return NULL;
  return fc_profile_string (self, fc_profile_get_thread (self, index)->tid);
}

/**
 * fc_profile_get_active_thread_id:
 *
 * The thread the transaction ran on: a V1 transaction's `active_thread_id`,
 * else, for a chunk with a linked transaction event (an envelope with both),
 * the event's `contexts.trace.data["thread.id"]`, where SDKs put the thread
 * that links a transaction to its chunks (PROTOCOL.md).
 *
 * Returns: (nullable): the thread id as a decimal string, or NULL.
 */
const char *
fc_profile_get_active_thread_id (FcProfile *self)
{
  const char *tid;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  /* a finished profile is read from any thread: never intern here */
  if (self->finished)
    tid = fc_profile_string (self, self->active_tid);
  else
    tid = id_member (self, fc_profile_get_transaction (self), "active_thread_id");
  if (tid != NULL || self->format == FC_FORMAT_V1)
    return tid;

  return linked_thread_id (self);
}

JsonObject *
fc_profile_get_linked_event (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);
  return self->linked_event;
}

void
fc_profile_set_linked_event (FcProfile  *self,
                             JsonObject *event)
{
  g_return_if_fail (FC_IS_PROFILE (self));

  if (event == self->linked_event)
    return;
  if (event != NULL)
    json_object_ref (event);
  g_clear_pointer (&self->linked_event, json_object_unref);
  self->linked_event = event;
}

gsize
fc_profile_get_source_size (FcProfile *self)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), 0);
  return self->source_size;
}

void
fc_profile_set_source_size (FcProfile *self,
                            gsize      size)
{
  g_return_if_fail (FC_IS_PROFILE (self));
  self->source_size = size;
}

/* ---- whole-model helpers ---- */

typedef struct {
  FcProfile *dst;
  FcProfile *src;
  GArray    *strings;  /* src string id -> dst string id + 1, 0 = not mapped yet */
  GArray    *frames;   /* src frame id -> dst frame id + 1 */
  GArray    *frame_addressed; /* src frame id -> 1 when mapped and it has an address */
  GArray    *stacks;   /* src stack id -> dst stack id + 1 */
  GArray    *threads;  /* src thread -> dst thread + 1 */
  gboolean   by_function;
  gboolean   infer_in_app;
  const FcInAppRules *rules;
  /* Every stack node of dst comes from src through this importer, and no
   * two of src's frames have become one of dst's: then no two of src's
   * (unique) nodes become one either, and a node not mapped yet is pushed
   * without a lookup. A deep chunk's view copy interned its 1.6 million
   * nodes a second time; merging frames ends this. */
  gboolean   new_stacks;
  /* dst holds src's strings with their ids (share_source()) */
  gboolean   same_strings;
} Importer;

/* @map_stacks: FALSE for an importer of frames alone (share_source()),
 * which would zero a map of every node for nothing */
static void
importer_init (Importer  *imp,
               FcProfile *dst,
               FcProfile *src,
               gboolean   map_stacks)
{
  imp->dst = dst;
  imp->src = src;
  imp->by_function = FALSE;
  imp->infer_in_app = FALSE;
  imp->rules = NULL;
  imp->new_stacks = FALSE;
  imp->same_strings = FALSE;
  /* the source may be live: map what is published now */
  imp->threads = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_array_set_size (imp->threads, fc_profile_get_n_threads (src));
  imp->strings = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_array_set_size (imp->strings, fc_profile_get_n_strings (src));
  imp->frames = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_array_set_size (imp->frames, fc_profile_get_n_frames (src));
  imp->frame_addressed = g_array_new (FALSE, TRUE, sizeof (guint8));
  g_array_set_size (imp->frame_addressed, imp->frames->len);
  imp->stacks = g_array_new (FALSE, TRUE, sizeof (guint32));
  if (map_stacks)
    g_array_set_size (imp->stacks, fc_profile_get_n_stacks (src));
}

static void
importer_clear (Importer *imp)
{
  g_array_unref (imp->strings);
  g_array_unref (imp->frames);
  g_array_unref (imp->frame_addressed);
  g_array_unref (imp->stacks);
  g_array_unref (imp->threads);
}

static guint32
import_string (Importer *imp,
               guint32   id)
{
  guint32 *slot;

  if (id == FC_STRING_NONE || imp->same_strings)
    return id;

  slot = &g_array_index (imp->strings, guint32, id);
  if (*slot == 0)
    *slot = fc_profile_intern (imp->dst, fc_profile_string (imp->src, id)) + 1;
  return *slot - 1;
}

/* A live source may use a string after the strings this import knows were published (a recorder
 * naming a thread between two updates): such a string waits for a later update (update_source()). */
static gboolean
string_published (Importer *imp,
                  guint32   id)
{
  return id != FC_STRING_NONE && (imp->same_strings || id < imp->strings->len);
}

static guint32
import_string_published (Importer *imp,
                         guint32   id)
{
  return string_published (imp, id) ? import_string (imp, id) : FC_STRING_NONE;
}

static guint32
import_new_frame (Importer *imp,
                  guint32   id)
{
  FcFrame frame = *fc_profile_get_frame (imp->src, id);
  /* the source's: a live destination publishes what this interns only later */
  const char *function = fc_profile_string (imp->src, frame.function);

  if (imp->infer_in_app && frame.in_app == FC_IN_APP_UNKNOWN)
    {
      frame.in_app = fc_profile_frame_in_app (imp->src, id, imp->rules);
      frame.in_app_inferred = frame.in_app != FC_IN_APP_UNKNOWN;
    }

  frame.function = import_string (imp, frame.function);
  frame.module = import_string (imp, frame.module);
  frame.package = import_string (imp, frame.package);
  frame.filename = import_string (imp, frame.filename);
  frame.abs_path = import_string (imp, frame.abs_path);
  frame.platform = import_string (imp, frame.platform);
  frame.extra = import_string (imp, frame.extra);

  /* One function called from several lines, or sampled at several
   * addresses, is one box and one call tree node; so is a function whose
   * inlined copies name another file (a header) than its own code, as
   * Sentry's functions are one per name and package. The first file seen
   * stays the frame's. */
  if (imp->by_function && function != NULL && function[0] != '\0')
    {
      guint32 merged;

      frame.lineno = FC_LINE_NONE;
      frame.colno = FC_LINE_NONE;
      frame.has_instruction_addr = FALSE;
      frame.instruction_addr = 0;
      frame.extra = FC_STRING_NONE;
      if (imp->dst->locations != NULL)
        {
          if (!fc_location_table_find_function (imp->dst->locations, &frame, &merged))
            {
              merged = fc_profile_intern_frame (imp->dst, &frame);
              fc_location_table_add_function (imp->dst->locations, &frame, merged);
            }
          return merged;
        }
    }

  return fc_profile_intern_frame (imp->dst, &frame);
}

static guint32
import_frame (Importer *imp,
              guint32   id)
{
  guint32 *slot = &g_array_index (imp->frames, guint32, id);

  if (*slot == 0)
    {
      guint n_before = imp->dst->frames.len;

      *slot = import_new_frame (imp, id) + 1;
      /* two source frames made one */
      if (*slot - 1 < n_before)
        imp->new_stacks = FALSE;
      g_array_index (imp->frame_addressed, guint8, id) = fc_profile_get_frame (imp->src, id)->has_instruction_addr;
    }

  return *slot - 1;
}

/* A symbolizer gives an inlined function the address of the function it
 * was inlined into, which is its caller in the stack (Sentry's native
 * frames do the same). Frames without an address are known from the
 * importer's map: reading each node's frame missed the cache for a tenth
 * of a deep chunk's copy. */
static gboolean
inlined_at (FcProfile         *src,
            const FcStackNode *node)
{
  const FcFrame *frame, *caller;

  if (node->parent == FC_STACK_EMPTY)
    return FALSE;
  frame = fc_profile_get_frame (src, node->frame);
  caller = fc_profile_get_frame (src, fc_profile_get_stack (src, node->parent)->frame);
  return frame->has_instruction_addr && caller->has_instruction_addr &&
         frame->instruction_addr == caller->instruction_addr && frame->function != caller->function;
}

static gboolean
is_inlined (Importer          *imp,
            const FcStackNode *node)
{
  return g_array_index (imp->frame_addressed, guint8, node->frame) && inlined_at (imp->src, node);
}

static guint32
import_stack (Importer *imp,
              guint32   id)
{
  guint32 *slot;
  const FcStackNode *node;
  guint32 parent;

  if (id == FC_STACK_EMPTY)
    return FC_STACK_EMPTY;

  slot = &g_array_index (imp->stacks, guint32, id);
  if (*slot != 0)
    return *slot - 1;

  /* Stacks can be thousands deep: no recursion. Walk up to the first mapped
   * ancestor, then map back down. */
  {
    g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
    guint32 cur = id;

    while (cur != FC_STACK_EMPTY && g_array_index (imp->stacks, guint32, cur) == 0)
      {
        g_array_append_val (chain, cur);
        cur = fc_profile_get_stack (imp->src, cur)->parent;
      }

    parent = cur == FC_STACK_EMPTY ? FC_STACK_EMPTY : g_array_index (imp->stacks, guint32, cur) - 1;

    for (guint i = chain->len; i > 0; i--)
      {
        guint32 src_id = g_array_index (chain, guint32, i - 1);

        guint32 frame;

        node = fc_profile_get_stack (imp->src, src_id);
        frame = import_frame (imp, node->frame);
        parent = imp->new_stacks ? push_new_stack (imp->dst, parent, frame)
                                 : fc_profile_intern_stack (imp->dst, parent, frame);
        g_array_index (imp->stacks, guint32, src_id) = parent + 1;
        if (imp->dst->locations != NULL)
          fc_location_table_note (imp->dst->locations, parent, frame, node->frame,
                                  fc_profile_get_frame (imp->src, node->frame), is_inlined (imp, node));
      }
  }

  return parent;
}

/* A whole copy into an empty profile, before its samples: each node in id
 * order, parents before children, while no two frames have merged. The
 * nodes of a deep chunk are then read in order, not walked up from each
 * sample's leaf (a cache miss a node, the larger part of the view copy),
 * and keep their ids. A merge found on the way leaves the rest to
 * import_stack(), which interns. Nodes no sample reaches are copied too:
 * a reader interns only the stacks its samples name. */
static void
import_stacks_in_order (Importer *imp)
{
  for (guint32 id = 1; id < imp->stacks->len && imp->new_stacks; id++)
    {
      const FcStackNode *node = fc_profile_get_stack (imp->src, id);
      guint32 frame = import_frame (imp, node->frame);
      guint32 dst;

      if (!imp->new_stacks)
        break;
      dst = push_new_stack (imp->dst, node->parent == FC_STACK_EMPTY ? FC_STACK_EMPTY
                                      : g_array_index (imp->stacks, guint32, node->parent) - 1, frame);
      g_array_index (imp->stacks, guint32, id) = dst + 1;
      if (imp->dst->locations != NULL)
        fc_location_table_note (imp->dst->locations, dst, frame, node->frame,
                                fc_profile_get_frame (imp->src, node->frame), is_inlined (imp, node));
    }
}

static guint32
import_thread (Importer *imp,
               guint32   index)
{
  guint32 *slot = &g_array_index (imp->threads, guint32, index);

  if (*slot == 0)
    {
      const FcThread *src = fc_profile_get_thread (imp->src, index);
      guint32 dst_index = fc_profile_ensure_thread (imp->dst, fc_profile_string (imp->src, src->tid));
      FcThread *dst = fc_profile_get_thread_mut (imp->dst, dst_index);

      if (dst->name == FC_STRING_NONE)
        dst->name = import_string_published (imp, src->name);
      if (dst->priority < 0)
        dst->priority = src->priority;
      if (dst->extra == FC_STRING_NONE)
        dst->extra = import_string_published (imp, src->extra);
      dst->has_metadata |= src->has_metadata;
      *slot = dst_index + 1;
    }

  return *slot - 1;
}

static void
import_samples (FcProfile          *self,
                FcProfile          *src,
                gint64              begin_ns,
                gint64              end_ns,
                gboolean            by_function,
                gboolean            infer_in_app,
                const FcInAppRules *rules)
{
  Importer imp;
  const FcSample *samples;
  guint n;

  /* the samples first: on a live source, what they refer to is published before them */
  samples = fc_profile_get_samples (src, &n);
  importer_init (&imp, self, src, TRUE);
  imp.by_function = by_function;
  imp.infer_in_app = infer_in_app;
  imp.rules = rules;
  /* a copy into an empty profile */
  imp.new_stacks = self->stacks.len == 1;

  /* Threads listed in thread_metadata keep their names even without samples. */
  if (end_ns <= begin_ns)
    for (guint32 t = 0; t < imp.threads->len; t++)
      import_thread (&imp, t);
  if (end_ns <= begin_ns && imp.new_stacks)
    import_stacks_in_order (&imp);

  for (guint i = 0; i < n; i++)
    {
      const FcSample *s = &samples[i];

      if (end_ns > begin_ns && (s->timestamp_ns < begin_ns || s->timestamp_ns >= end_ns))
        continue;

      fc_profile_append_sample (self,
                                s->timestamp_ns,
                                import_thread (&imp, s->thread),
                                import_stack (&imp, s->stack),
                                import_string (&imp, s->extra));
    }

  importer_clear (&imp);
}

void
fc_profile_import (FcProfile *self,
                   FcProfile *src,
                   gint64     begin_ns,
                   gint64     end_ns)
{
  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (FC_IS_PROFILE (src));
  g_return_if_fail (self != src);

  import_samples (self, src, begin_ns, end_ns, FALSE, FALSE, NULL);
}

void
fc_profile_import_range (FcProfile *self,
                         FcProfile *src,
                         guint      first,
                         guint      n)
{
  Importer imp;
  const FcSample *samples;
  guint n_src;

  g_return_if_fail (FC_IS_PROFILE (self));
  g_return_if_fail (FC_IS_PROFILE (src));
  g_return_if_fail (self != src);

  /* the samples first: on a live source, what they refer to is published before them */
  samples = fc_profile_get_samples (src, &n_src);
  g_return_if_fail (first <= n_src && n <= n_src - first);
  importer_init (&imp, self, src, TRUE);
  for (guint i = first; i < first + n; i++)
    fc_profile_append_sample (self,
                              samples[i].timestamp_ns,
                              import_thread (&imp, samples[i].thread),
                              import_stack (&imp, samples[i].stack),
                              import_string (&imp, samples[i].extra));
  importer_clear (&imp);
}

/* ---- following a live profile by function ---- */

/* One profile the copy is made from: a recording's live chunks follow one
 * another (and, following children, run side by side). */
typedef struct {
  FcProfile *src;
  Importer   imp;       /* kept from update to update: each frame and stack is mapped once */
  guint      n_done;    /* samples of src imported */
  gboolean   done;      /* it grows no more (guarded by the follower's lock) */
} Source;

struct _FcProfileFollower {
  gatomicrefcount ref_count;
  FcProfile      *dst;
  GMutex          update_lock;  /* one update (or finish) at a time, from any thread */
  GMutex          lock;         /* guards pending and each source's done */
  GPtrArray      *pending;      /* Source*: added, not yet taken by an update (no maps yet) */
  GPtrArray      *sources;      /* Source*: changed by the updating thread, under lock */
};

static void
source_free (Source *source)
{
  if (source->imp.dst != NULL)
    importer_clear (&source->imp);
  g_object_unref (source->src);
  g_free (source);
}

/**
 * fc_profile_follower_new:
 * @src: (nullable): a profile that may be growing (see fc_profile_publish()),
 *   or NULL to add sources later (fc_profile_follower_add_source())
 *
 * A live copy of its sources by function (as fc_profile_dup_by_function()),
 * for views of a recording while it runs: each fc_profile_follower_update()
 * imports only the samples the sources published since the last one, and
 * publishes them, so readers on other threads may read the copy while it
 * grows.
 *
 * Returns: (transfer full): a follower; updates come from one thread at a time
 */
FcProfileFollower *
fc_profile_follower_new (FcProfile *src)
{
  FcProfileFollower *self;

  g_return_val_if_fail (src == NULL || FC_IS_PROFILE (src), NULL);

  self = g_new0 (FcProfileFollower, 1);
  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->update_lock);
  g_mutex_init (&self->lock);
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  self->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  self->dst = fc_profile_new (src != NULL ? src->format : FC_FORMAT_V2);
  if (src != NULL)
    {
      self->dst->start_ns = src->start_ns;
      self->dst->has_start = src->has_start;
      fc_profile_follower_add_source (self, src);
    }
  /* tooltips and details read lines and addresses while it grows */
  self->dst->locations = fc_location_table_new (TRUE);
  fc_profile_publish (self->dst);
  return self;
}

/**
 * fc_profile_follower_add_source:
 * @self: a follower
 * @src: a profile that may be growing
 *
 * The next update imports @src's samples too, from the first; threads of
 * the same id are one thread of the copy. Any thread may call this, also
 * while another updates.
 */
void
fc_profile_follower_add_source (FcProfileFollower *self,
                                FcProfile         *src)
{
  Source *source;

  g_return_if_fail (self != NULL);
  g_return_if_fail (FC_IS_PROFILE (src));

  source = g_new0 (Source, 1);
  source->src = g_object_ref (src);
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, source);
  g_mutex_unlock (&self->lock);
}

/**
 * fc_profile_follower_source_done:
 * @self: a follower
 * @src: one of its sources, finished or let go by whoever built it
 *
 * @src grows no more: once an update has imported what it published, the
 * follower lets it go (and its maps). Any thread may call this.
 */
void
fc_profile_follower_source_done (FcProfileFollower *self,
                                 FcProfile         *src)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (FC_IS_PROFILE (src));

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->sources->len; i++)
    {
      Source *source = g_ptr_array_index (self->sources, i);

      if (source->src == src)
        source->done = TRUE;
    }
  for (guint i = 0; i < self->pending->len; i++)
    {
      Source *source = g_ptr_array_index (self->pending, i);

      if (source->src == src)
        source->done = TRUE;
    }
  g_mutex_unlock (&self->lock);
}

FcProfileFollower *
fc_profile_follower_ref (FcProfileFollower *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
fc_profile_follower_unref (FcProfileFollower *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->sources);
  g_ptr_array_unref (self->pending);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->update_lock);
  g_object_unref (self->dst);
  g_free (self);
}

/* Returns: (transfer none): the copy, live until fc_profile_follower_finish() */
FcProfile *
fc_profile_follower_get_profile (FcProfileFollower *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->dst;
}

/* What @source published since the last update; TRUE when a thread was named. */
static gboolean
update_source (FcProfileFollower *self,
               Source            *source,
               guint             *added)
{
  const FcSample *samples;
  guint n, n_threads;
  gboolean renamed = FALSE;
  Importer *imp = &source->imp;

  /* the samples first: what they refer to is published before them */
  samples = fc_profile_get_samples (source->src, &n);
  n_threads = fc_profile_get_n_threads (source->src);
  g_array_set_size (imp->threads, MAX (imp->threads->len, n_threads));
  g_array_set_size (imp->strings, MAX (imp->strings->len, fc_profile_get_n_strings (source->src)));
  g_array_set_size (imp->frames, MAX (imp->frames->len, fc_profile_get_n_frames (source->src)));
  g_array_set_size (imp->frame_addressed, imp->frames->len);
  g_array_set_size (imp->stacks, MAX (imp->stacks->len, fc_profile_get_n_stacks (source->src)));

  *added += n > source->n_done ? n - source->n_done : 0;
  for (guint i = source->n_done; i < n; i++)
    fc_profile_append_sample (self->dst,
                              samples[i].timestamp_ns,
                              import_thread (imp, samples[i].thread),
                              import_stack (imp, samples[i].stack),
                              import_string (imp, samples[i].extra));
  source->n_done = MAX (source->n_done, n);

  /* a recorder names a thread once it has read its name, after its first samples */
  for (guint32 t = 0; t < n_threads; t++)
    {
      guint32 slot = g_array_index (imp->threads, guint32, t);
      const FcThread *src_thread = fc_profile_get_thread (source->src, t);

      if (slot != 0 && string_published (imp, src_thread->name) &&
          fc_profile_get_thread_mut (self->dst, slot - 1)->name == FC_STRING_NONE)
        {
          fc_profile_set_thread_name (self->dst, slot - 1, fc_profile_string (source->src, src_thread->name));
          renamed = TRUE;
        }
    }
  return renamed;
}

static guint
update_locked (FcProfileFollower *self)
{
  guint added = 0;
  gboolean renamed = FALSE;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->pending->len; i++)
    {
      Source *source = g_ptr_array_index (self->pending, i);

      importer_init (&source->imp, self->dst, source->src, TRUE);
      source->imp.by_function = TRUE;
      g_ptr_array_add (self->sources, source);
    }
  g_ptr_array_set_free_func (self->pending, NULL);
  g_ptr_array_set_size (self->pending, 0);
  g_ptr_array_set_free_func (self->pending, (GDestroyNotify) source_free);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < self->sources->len;)
    {
      Source *source = g_ptr_array_index (self->sources, i);
      gboolean done;

      /* read before the samples: a source marked done has published them all */
      g_mutex_lock (&self->lock);
      done = source->done;
      g_mutex_unlock (&self->lock);
      renamed |= update_source (self, source, &added);
      if (done)
        {
          g_mutex_lock (&self->lock);
          g_ptr_array_remove_index (self->sources, i);
          g_mutex_unlock (&self->lock);
        }
      else
        i++;
    }

  if (added > 0 || renamed)
    fc_profile_publish (self->dst);
  return added;
}

/**
 * fc_profile_follower_update:
 * @self: a follower
 *
 * Imports what the sources published since the last update and publishes it;
 * names threads the sources named since. Samples of a live source are appended
 * in order of index, which a publish never reorders. Updates from several
 * threads take turns.
 *
 * Returns: the number of samples imported
 */
guint
fc_profile_follower_update (FcProfileFollower *self)
{
  guint added;

  g_return_val_if_fail (self != NULL, 0);

  g_mutex_lock (&self->update_lock);
  added = fc_profile_is_finished (self->dst) ? 0 : update_locked (self);
  g_mutex_unlock (&self->update_lock);
  return added;
}

/**
 * fc_profile_follower_finish:
 * @self: a follower whose sources grow no more
 *
 * A last update, then the copy is finished (fc_profile_finish()): immutable,
 * readable from any thread. Later updates import nothing.
 *
 * Returns: (transfer none): the copy
 */
FcProfile *
fc_profile_follower_finish (FcProfileFollower *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&self->update_lock);
  if (!fc_profile_is_finished (self->dst))
    {
      update_locked (self);
      fc_profile_finish (self->dst);
      g_mutex_lock (&self->lock);
      g_ptr_array_set_size (self->sources, 0);
      g_mutex_unlock (&self->lock);
    }
  g_mutex_unlock (&self->update_lock);
  return self->dst;
}

static JsonObject *
object_copy (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_alloc ();
  g_autoptr(JsonNode) copy = NULL;

  json_node_init_object (node, object);
  copy = json_node_copy (node);
  return json_object_ref (json_node_get_object (copy));
}

/* an empty copy of @self's format and metadata */
static FcProfile *
new_copy (FcProfile *self,
          gboolean   by_function)
{
  FcProfile *copy;

  copy = fc_profile_new (self->format);
  g_clear_pointer (&copy->meta, json_object_unref);
  copy->meta = object_copy (self->meta);
  g_clear_pointer (&copy->profile_extra, json_object_unref);
  copy->profile_extra = object_copy (self->profile_extra);
  fc_profile_set_linked_event (copy, self->linked_event);
  fc_profile_copy_sdk_and_images (copy, self);
  copy->start_ns = self->start_ns;
  copy->has_start = self->has_start;
  /* merging drops lines and addresses: keep a summary of them */
  if (by_function)
    copy->locations = fc_location_table_new (FALSE);
  return copy;
}

/* A whole copy by function of a finished profile where no two frames merge
 * (each function called from one place, as in most big chunks): its
 * strings and threads keep their ids and its frames, changed for the view,
 * keep theirs, so its stack nodes, samples and per-thread indexes would be
 * the source's own. It reads them in place (fc_column_borrow()) and holds
 * the source: a deep chunk's view copied 1.6 million nodes and half a
 * million samples, a third of the loading worker's time, for nothing. Each
 * node's location is its frame's, and whether it was inlined there is read
 * from the source's addresses (fc_profile_get_stack_location()). FALSE when
 * two frames merge: @copy is then half made, for the caller to drop. */
static gboolean
share_source (FcProfile          *copy,
              FcProfile          *src,
              gboolean            infer_in_app,
              const FcInAppRules *rules)
{
  Importer imp;
  const FcStackNode *nodes;
  guint n_strings, n_frames, n_nodes;
  gboolean addressed = FALSE;
  gboolean merged = FALSE;

  g_assert (src->finished && copy->stacks.len == 1 && copy->strings.len == 1);

  n_strings = fc_profile_get_n_strings (src);
  for (guint32 i = 1; i < n_strings; i++)
    {
      G_GNUC_UNUSED guint32 id = fc_profile_intern (copy, fc_profile_string (src, i));

      g_assert (id == i);
    }

  importer_init (&imp, copy, src, FALSE);
  imp.by_function = TRUE;
  imp.infer_in_app = infer_in_app;
  imp.rules = rules;
  imp.new_stacks = TRUE;
  imp.same_strings = TRUE;

  n_frames = fc_profile_get_n_frames (src);
  reserve_frames (copy, n_frames);
  for (guint32 i = 0; i < n_frames && !merged; i++)
    {
      const FcFrame *frame = fc_profile_get_frame (src, i);

      merged = import_frame (&imp, i) != i;
      fc_location_table_note_frame (copy->locations, i, i, frame, FALSE);
      addressed |= frame->has_instruction_addr;
    }
  merged |= !imp.new_stacks;
  importer_clear (&imp);
  if (merged)
    return FALSE;

  /* a frame inlined somewhere says so in its details */
  nodes = fc_profile_get_stacks (src, &n_nodes);
  for (guint32 id = 1; id < n_nodes && addressed; id++)
    if (inlined_at (src, &nodes[id]))
      fc_location_table_note_frame (copy->locations, nodes[id].frame, nodes[id].frame,
                                    fc_profile_get_frame (src, nodes[id].frame), TRUE);

  /* the root node, which every profile has, is the source's too */
  fc_column_clear (&copy->stacks);
  fc_column_borrow (&copy->stacks, &src->stacks);
  fc_column_borrow (&copy->samples, &src->samples);
  for (guint32 t = 0; t < fc_profile_get_n_threads (src); t++)
    {
      const FcThread *from = fc_profile_get_thread (src, t);
      FcThread *to;
      guint32 index = fc_profile_ensure_thread (copy, fc_profile_string (src, from->tid));

      g_assert (index == t);
      to = fc_profile_get_thread_mut (copy, index);
      *to = *from;
      fc_column_borrow (thread_index_column (copy, t), thread_index_column (src, t));
    }
  copy->shared_from = g_object_ref (src);
  return TRUE;
}

static FcProfile *
copy_profile (FcProfile          *self,
              gint64              begin_ns,
              gint64              end_ns,
              gboolean            by_function,
              gboolean            infer_in_app,
              const FcInAppRules *rules)
{
  FcProfile *copy;

  copy = new_copy (self, by_function);
  if (end_ns <= begin_ns && by_function && self->finished)
    {
      if (share_source (copy, self, infer_in_app, rules))
        {
          fc_location_table_trim (copy->locations);
          return copy;
        }
      g_object_unref (copy);
      copy = new_copy (self, by_function);
    }

  /* the whole profile: at most the source's stacks, and all its samples */
  if (end_ns <= begin_ns)
    {
      fc_column_reserve (&copy->stacks, fc_profile_get_n_stacks (self), TRUE);
      fc_column_reserve (&copy->samples, fc_profile_get_n_samples (self), TRUE);
    }

  import_samples (copy, self, begin_ns, end_ns, by_function, infer_in_app, rules);
  fc_profile_sort_samples (copy);
  if (copy->locations != NULL)
    fc_location_table_trim (copy->locations);
  return copy;
}

FcProfile *
fc_profile_copy_range (FcProfile *self,
                       gint64     begin_ns,
                       gint64     end_ns)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  return copy_profile (self, begin_ns, end_ns, FALSE, FALSE, NULL);
}

/**
 * fc_profile_dup_by_function:
 *
 * Views aggregate by function, as Sysprof and Hotspot do: a copy where
 * frames that differ only by line, column or address (one function called
 * from several places) become one frame. Frames without a function name
 * keep their address, which is all that tells them apart.
 *
 * Returns: (transfer full): the collapsed copy
 */
FcProfile *
fc_profile_dup_by_function (FcProfile *self)
{
  FcProfile *copy;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  copy = copy_profile (self, 0, 0, TRUE, FALSE, NULL);
  fc_profile_finish (copy);
  return copy;
}

/**
 * fc_profile_dup_for_view:
 * @rules: (nullable): the user's in-app prefixes
 *
 * What views show: fc_profile_dup_by_function(), and every frame whose
 * payload left in_app out gets the value Sentry would infer (fc-in-app.h),
 * marked `in_app_inferred`. Frames with an explicit in_app keep it.
 *
 * Returns: (transfer full): a finished copy
 */
FcProfile *
fc_profile_dup_for_view (FcProfile          *self,
                         const FcInAppRules *rules)
{
  FcProfile *copy;

  g_return_val_if_fail (FC_IS_PROFILE (self), NULL);

  copy = copy_profile (self, 0, 0, TRUE, TRUE, rules);
  fc_profile_finish (copy);
  return copy;
}

static gboolean
frames_equal (FcProfile *a,
              guint32    fa,
              FcProfile *b,
              guint32    fb)
{
  const FcFrame *x = fc_profile_get_frame (a, fa);
  const FcFrame *y = fc_profile_get_frame (b, fb);

  return g_strcmp0 (fc_profile_string (a, x->function), fc_profile_string (b, y->function)) == 0 &&
         g_strcmp0 (fc_profile_string (a, x->module), fc_profile_string (b, y->module)) == 0 &&
         g_strcmp0 (fc_profile_string (a, x->package), fc_profile_string (b, y->package)) == 0 &&
         g_strcmp0 (fc_profile_string (a, x->filename), fc_profile_string (b, y->filename)) == 0 &&
         g_strcmp0 (fc_profile_string (a, x->abs_path), fc_profile_string (b, y->abs_path)) == 0 &&
         x->lineno == y->lineno &&
         x->colno == y->colno &&
         x->in_app == y->in_app &&
         x->has_instruction_addr == y->has_instruction_addr &&
         x->instruction_addr == y->instruction_addr;
}

gboolean
fc_profile_equal_samples (FcProfile *a,
                          FcProfile *b,
                          GString   *why)
{
  const FcSample *sa;
  const FcSample *sb;
  guint na, nb;

  g_return_val_if_fail (FC_IS_PROFILE (a), FALSE);
  g_return_val_if_fail (FC_IS_PROFILE (b), FALSE);

  sa = fc_profile_get_samples (a, &na);
  sb = fc_profile_get_samples (b, &nb);

  if (na != nb)
    {
      if (why != NULL)
        g_string_printf (why, "%u samples vs %u samples", na, nb);
      return FALSE;
    }

  for (guint i = 0; i < na; i++)
    {
      const char *ta = fc_profile_string (a, fc_profile_get_thread (a, sa[i].thread)->tid);
      const char *tb = fc_profile_string (b, fc_profile_get_thread (b, sb[i].thread)->tid);
      guint32 ia = sa[i].stack;
      guint32 ib = sb[i].stack;

      if (sa[i].timestamp_ns / 1000 != sb[i].timestamp_ns / 1000)
        {
          if (why != NULL)
            g_string_printf (why, "sample %u: timestamp %" G_GINT64_FORMAT " ns vs %" G_GINT64_FORMAT " ns",
                             i, sa[i].timestamp_ns, sb[i].timestamp_ns);
          return FALSE;
        }

      if (g_strcmp0 (ta, tb) != 0)
        {
          if (why != NULL)
            g_string_printf (why, "sample %u: thread %s vs %s", i, ta, tb);
          return FALSE;
        }

      if (fc_profile_get_stack (a, ia)->depth != fc_profile_get_stack (b, ib)->depth)
        {
          if (why != NULL)
            g_string_printf (why, "sample %u: stack depth %u vs %u", i,
                             fc_profile_get_stack (a, ia)->depth, fc_profile_get_stack (b, ib)->depth);
          return FALSE;
        }

      for (guint depth = 0; ia != FC_STACK_EMPTY; depth++)
        {
          const FcStackNode *na_ = fc_profile_get_stack (a, ia);
          const FcStackNode *nb_ = fc_profile_get_stack (b, ib);

          if (!frames_equal (a, na_->frame, b, nb_->frame))
            {
              char buf_a[128], buf_b[128];

              if (why != NULL)
                g_string_printf (why, "sample %u: frame %u from the leaf: %s vs %s", i, depth,
                                 fc_profile_frame_label (a, na_->frame, buf_a, sizeof buf_a),
                                 fc_profile_frame_label (b, nb_->frame, buf_b, sizeof buf_b));
              return FALSE;
            }

          ia = na_->parent;
          ib = nb_->parent;
        }
    }

  return TRUE;
}

/**
 * fc_profile_get_stack_location:
 * @stack: a stack id
 *
 * Where the frame of stack node @stack was: in a by-function copy, the first
 * of the frames merged into it and whether the others agree; otherwise the
 * frame's own line, column and address.
 */
gboolean
fc_profile_get_stack_location (FcProfile       *self,
                               guint32          stack,
                               FcFrameLocation *location)
{
  const FcStackNode *node;

  g_return_val_if_fail (FC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (location != NULL, FALSE);

  if (stack == FC_STACK_EMPTY || stack >= fc_profile_get_n_stacks (self))
    return FALSE;
  node = fc_profile_get_stack (self, stack);
  if (self->shared_from != NULL)
    {
      /* one source frame a frame: the node is where its frame was */
      if (!fc_location_table_lookup (self->locations, FALSE, node->frame, location))
        return FALSE;
      location->inlined = inlined_at (self->shared_from, node);
      return TRUE;
    }
  if (self->locations != NULL)
    return fc_location_table_lookup (self->locations, TRUE, stack, location);

  fc_frame_location_of (fc_profile_get_frame (self, node->frame), node->frame, location);
  return TRUE;
}

/**
 * fc_profile_get_frame_location:
 * @frame: a frame id
 *
 * As fc_profile_get_stack_location(), over every call path of @frame.
 */
gboolean
fc_profile_get_frame_location (FcProfile       *self,
                               guint32          frame,
                               FcFrameLocation *location)
{
  g_return_val_if_fail (FC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (location != NULL, FALSE);

  if (frame >= fc_profile_get_n_frames (self))
    return FALSE;
  if (self->locations != NULL)
    return fc_location_table_lookup (self->locations, FALSE, frame, location);

  fc_frame_location_of (fc_profile_get_frame (self, frame), frame, location);
  return TRUE;
}
