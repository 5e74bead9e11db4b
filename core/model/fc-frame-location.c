/* fc-frame-location.c - where the frames merged into one view frame were
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-frame-location-private.h"

#include <string.h>

/* a slot: location index + 1 (0: none yet), and this bit when the merged
 * frames disagree */
#define SEVERAL 0x80000000u

struct _FcLocationTable
{
  GArray *locations;     /* FcFrameLocation, one per distinct source frame */
  GArray *by_source;     /* guint32 per source frame id: location index + 1 */
  GArray *by_stack;      /* guint32 slot per stack id of the copy */
  GArray *by_frame;      /* guint32 slot per frame id of the copy */
};

G_STATIC_ASSERT (sizeof (FcFrameLocation) == 24);

FcLocationTable *
fc_location_table_new (void)
{
  FcLocationTable *self = g_new0 (FcLocationTable, 1);

  self->locations = g_array_new (FALSE, FALSE, sizeof (FcFrameLocation));
  self->by_source = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->by_stack = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->by_frame = g_array_new (FALSE, TRUE, sizeof (guint32));
  return self;
}

void
fc_location_table_free (FcLocationTable *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->locations);
  g_array_unref (self->by_source);
  g_array_unref (self->by_stack);
  g_array_unref (self->by_frame);
  g_free (self);
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
       GArray          *slots,
       guint32          id,
       guint32          location)
{
  guint32 *slot;

  if (id >= slots->len)
    g_array_set_size (slots, MAX (id + 1, slots->len * 2));
  slot = &g_array_index (slots, guint32, id);

  if (*slot == 0)
    *slot = location + 1;
  else if ((*slot & SEVERAL) == 0 && *slot != location + 1 &&
           !same_place (&g_array_index (self->locations, FcFrameLocation, *slot - 1),
                        &g_array_index (self->locations, FcFrameLocation, location)))
    *slot |= SEVERAL;
}

void
fc_location_table_note (FcLocationTable *self,
                        guint32          stack,
                        guint32          dst_frame,
                        guint32          src_frame,
                        const FcFrame   *frame)
{
  guint32 *source;

  g_return_if_fail (self != NULL);
  g_return_if_fail (frame != NULL);

  if (src_frame >= self->by_source->len)
    g_array_set_size (self->by_source, MAX (src_frame + 1, self->by_source->len * 2));
  source = &g_array_index (self->by_source, guint32, src_frame);
  if (*source == 0)
    {
      FcFrameLocation location;

      fc_frame_location_of (frame, src_frame, &location);
      g_array_append_val (self->locations, location);
      *source = self->locations->len;
    }

  merge (self, self->by_stack, stack, *source - 1);
  merge (self, self->by_frame, dst_frame, *source - 1);
}

static void
trim (GArray **slots,
      guint    n)
{
  GArray *exact = g_array_sized_new (FALSE, TRUE, sizeof (guint32), n);

  g_array_set_size (exact, n);
  memcpy (exact->data, (*slots)->data, sizeof (guint32) * MIN (n, (*slots)->len));
  g_array_unref (*slots);
  *slots = exact;
}

void
fc_location_table_trim (FcLocationTable *self,
                        guint            n_stacks,
                        guint            n_frames)
{
  g_return_if_fail (self != NULL);

  /* growing doubled them: a big profile has millions of stacks */
  trim (&self->by_stack, n_stacks);
  trim (&self->by_frame, n_frames);
  g_clear_pointer (&self->by_source, g_array_unref);
  self->by_source = g_array_new (FALSE, TRUE, sizeof (guint32));
}

gboolean
fc_location_table_lookup (const FcLocationTable *self,
                          gboolean               by_stack,
                          guint32                id,
                          FcFrameLocation       *location)
{
  GArray *slots;
  guint32 slot;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (location != NULL, FALSE);

  slots = by_stack ? self->by_stack : self->by_frame;
  slot = id < slots->len ? g_array_index (slots, guint32, id) : 0;
  if (slot == 0)
    return FALSE;

  *location = g_array_index (self->locations, FcFrameLocation, (slot & ~SEVERAL) - 1);
  location->several = (slot & SEVERAL) != 0;
  return TRUE;
}
