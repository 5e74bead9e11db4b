/* fc-frame-location.c - where the frames merged into one view frame were
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-frame-location-private.h"

#include <string.h>

/* a slot: location index + 1 (0: none yet), this bit when the merged
 * frames disagree, and that one when one of them was an inlined copy */
#define SEVERAL 0x80000000u
#define INLINED 0x40000000u
#define INDEX   (~(SEVERAL | INLINED))

/*
 * The table of a finished copy is built by one thread and read after the
 * handover. A live copy's table (fc_profile_follower_new()) is read while it
 * grows: its columns are shared (they never move what readers hold), and a
 * slot, which a later merge may change after it was published (SEVERAL set,
 * or set at all when frames were noted out of order), is read and written
 * atomically. A reader that finds a location not yet published knows
 * nothing yet.
 */
struct _FcLocationTable
{
  FcColumn  locations;   /* FcFrameLocation, one per distinct source frame */
  GArray   *by_source;   /* guint32 per source frame id: location index + 1; the writer's */
  FcColumn  by_stack;    /* guint32 slot per stack id of the copy */
  FcColumn  by_frame;    /* guint32 slot per frame id of the copy */
  GHashTable *functions; /* FunctionKey -> frame id + 1 of the copy; the writer's */
};

G_STATIC_ASSERT (sizeof (FcFrameLocation) == 24);

/* what makes a function one (string ids of the copy): no text to format
 * for each of a big profile's frames */
typedef struct {
  guint32 function;
  guint32 module;
  guint32 package;
  guint32 platform;
  gint32  in_app;
  gint32  in_app_inferred;
} FunctionKey;

static void
function_key (const FcFrame *frame,
              FunctionKey   *key)
{
  key->function = frame->function;
  key->module = frame->module;
  key->package = frame->package;
  key->platform = frame->platform;
  key->in_app = frame->in_app;
  key->in_app_inferred = frame->in_app_inferred;
}

static guint
function_key_hash (gconstpointer data)
{
  const FunctionKey *key = data;
  guint h = key->function;

  h = h * 31 + key->module;
  h = h * 31 + key->package;
  h = h * 31 + key->platform;
  h = h * 31 + (guint) key->in_app;
  return h * 31 + (guint) key->in_app_inferred;
}

static gboolean
function_key_equal (gconstpointer a,
                    gconstpointer b)
{
  return memcmp (a, b, sizeof (FunctionKey)) == 0;
}

FcLocationTable *
fc_location_table_new (gboolean shared)
{
  FcLocationTable *self = g_new0 (FcLocationTable, 1);

  fc_column_init (&self->locations, sizeof (FcFrameLocation));
  fc_column_init (&self->by_stack, sizeof (guint32));
  fc_column_init (&self->by_frame, sizeof (guint32));
  self->by_source = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->functions = g_hash_table_new_full (function_key_hash, function_key_equal, g_free, NULL);
  if (shared)
    {
      fc_column_share (&self->locations);
      fc_column_share (&self->by_stack);
      fc_column_share (&self->by_frame);
    }
  return self;
}

void
fc_location_table_free (FcLocationTable *self)
{
  if (self == NULL)
    return;
  fc_column_clear (&self->locations);
  fc_column_clear (&self->by_stack);
  fc_column_clear (&self->by_frame);
  g_array_unref (self->by_source);
  g_clear_pointer (&self->functions, g_hash_table_unref);
  g_free (self);
}

void
fc_location_table_publish (FcLocationTable *self)
{
  g_return_if_fail (self != NULL);

  /* the locations first: a published slot may name a location only once
   * it is there */
  fc_column_publish (&self->locations);
  fc_column_publish (&self->by_stack);
  fc_column_publish (&self->by_frame);
}

void
fc_frame_location_of (const FcFrame   *frame,
                      guint32          frame_id,
                      FcFrameLocation *location)
{
  memset (location, 0, sizeof *location);
  location->lineno = frame->lineno;
  location->colno = frame->colno;
  location->has_instruction_addr = frame->has_instruction_addr != 0;
  location->instruction_addr = frame->has_instruction_addr ? frame->instruction_addr : 0;
  location->source_frame = frame_id;
}

static gboolean
same_place (const FcFrameLocation *a,
            const FcFrameLocation *b)
{
  return a->lineno == b->lineno && a->colno == b->colno &&
         a->has_instruction_addr == b->has_instruction_addr &&
         a->instruction_addr == b->instruction_addr;
}

static void
merge (FcLocationTable *self,
       FcColumn        *slots,
       guint32          id,
       guint32          location,
       gboolean         inlined)
{
  guint *slot;
  guint value;

  while (slots->len <= id)
    fc_column_push (slots);
  slot = &fc_column_writer_at (slots, guint, id);
  value = g_atomic_int_get (slot);

  if (value == 0)
    g_atomic_int_set (slot, (location + 1) | (inlined ? INLINED : 0));
  else
    {
      if ((value & SEVERAL) == 0 && (value & INDEX) != location + 1 &&
          !same_place (&fc_column_writer_at (&self->locations, FcFrameLocation, (value & INDEX) - 1),
                       &fc_column_writer_at (&self->locations, FcFrameLocation, location)))
        g_atomic_int_or (slot, SEVERAL);
      if (inlined && (value & INLINED) == 0)
        g_atomic_int_or (slot, INLINED);
    }
}

gboolean
fc_location_table_find_function (FcLocationTable *self,
                                 const FcFrame   *frame,
                                 guint32         *dst_frame)
{
  FunctionKey key;
  gpointer value;

  g_return_val_if_fail (self != NULL, FALSE);

  function_key (frame, &key);
  value = g_hash_table_lookup (self->functions, &key);
  if (value == NULL)
    return FALSE;
  *dst_frame = GPOINTER_TO_UINT (value) - 1;
  return TRUE;
}

void
fc_location_table_add_function (FcLocationTable *self,
                                const FcFrame   *frame,
                                guint32          dst_frame)
{
  FunctionKey *key = g_new (FunctionKey, 1);

  g_return_if_fail (self != NULL);

  function_key (frame, key);
  g_hash_table_insert (self->functions, key, GUINT_TO_POINTER (dst_frame + 1));
}

/* the location of @src_frame, made at its first note */
static guint32
source_location (FcLocationTable *self,
                 guint32          src_frame,
                 const FcFrame   *frame)
{
  guint32 *source;

  if (src_frame >= self->by_source->len)
    g_array_set_size (self->by_source, MAX (src_frame + 1, self->by_source->len * 2));
  source = &g_array_index (self->by_source, guint32, src_frame);
  if (*source == 0)
    {
      fc_frame_location_of (frame, src_frame, fc_column_push (&self->locations));
      *source = self->locations.len;
    }
  return *source - 1;
}

void
fc_location_table_note (FcLocationTable *self,
                        guint32          stack,
                        guint32          dst_frame,
                        guint32          src_frame,
                        const FcFrame   *frame,
                        gboolean         inlined)
{
  guint32 location;

  g_return_if_fail (self != NULL);
  g_return_if_fail (frame != NULL);

  location = source_location (self, src_frame, frame);
  merge (self, &self->by_stack, stack, location, inlined);
  merge (self, &self->by_frame, dst_frame, location, inlined);
}

void
fc_location_table_note_frame (FcLocationTable *self,
                              guint32          dst_frame,
                              guint32          src_frame,
                              const FcFrame   *frame,
                              gboolean         inlined)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (frame != NULL);

  merge (self, &self->by_frame, dst_frame, source_location (self, src_frame, frame), inlined);
}

void
fc_location_table_trim (FcLocationTable *self)
{
  g_return_if_fail (self != NULL);

  /* growing doubled them: a big profile has millions of stacks */
  fc_column_trim (&self->by_stack);
  fc_column_trim (&self->by_frame);
  fc_column_trim (&self->locations);
  g_clear_pointer (&self->by_source, g_array_unref);
  self->by_source = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_hash_table_remove_all (self->functions);
}

gboolean
fc_location_table_lookup (const FcLocationTable *self,
                          gboolean               by_stack,
                          guint32                id,
                          FcFrameLocation       *location)
{
  FcLocationTable *table = (FcLocationTable *) self;
  const guint *slots;
  const FcFrameLocation *locations;
  guint n_slots, n_locations, slot;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (location != NULL, FALSE);

  slots = fc_column_read (by_stack ? &table->by_stack : &table->by_frame, &n_slots);
  slot = id < n_slots ? g_atomic_int_get (&slots[id]) : 0;
  locations = fc_column_read (&table->locations, &n_locations);
  if (slot == 0 || (slot & INDEX) - 1 >= n_locations)
    return FALSE;

  *location = locations[(slot & INDEX) - 1];
  location->several = (slot & SEVERAL) != 0;
  location->inlined = (slot & INLINED) != 0;
  return TRUE;
}
