/* fc-column.c - an append-only array that readers on other threads can read while it grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-column.h"

void
fc_column_init (FcColumn *self,
                guint     elt_size)
{
  memset (self, 0, sizeof *self);
  self->elt_size = elt_size;
}

void
fc_column_clear (FcColumn *self)
{
  g_free (self->data);
  g_clear_pointer (&self->retired, g_ptr_array_unref);
  self->data = NULL;
  self->len = self->published = self->capacity = 0;
}

static void
grow (FcColumn *self)
{
  guint capacity = MAX (16, self->capacity * 2);
  gpointer data;

  g_assert (self->capacity < G_MAXUINT / 2);

  if (!self->shared)
    {
      data = g_realloc_n (self->data, capacity, self->elt_size);
    }
  else
    {
      /* Readers may be reading the old buffer right now: copy, never move. */
      data = g_malloc_n (capacity, self->elt_size);
      if (self->len > 0)
        memcpy (data, self->data, (gsize) self->len * self->elt_size);
      if (self->data != NULL)
        {
          if (self->retired == NULL)
            self->retired = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (self->retired, self->data);
        }
    }

  g_atomic_pointer_set (&self->data, data);
  self->capacity = capacity;
}

gpointer
fc_column_push (FcColumn *self)
{
  gpointer slot;

  if (self->len == self->capacity)
    grow (self);

  slot = (guint8 *) self->data + (gsize) self->len * self->elt_size;
  memset (slot, 0, self->elt_size);
  self->len++;
  return slot;
}

void
fc_column_truncate (FcColumn *self,
                    guint     len)
{
  g_assert (len <= self->len);
  g_assert (!self->shared || len >= self->published);

  self->len = len;
  if (self->published > len)
    g_atomic_int_set (&self->published, len);
}

void
fc_column_share (FcColumn *self)
{
  self->shared = TRUE;
}

void
fc_column_publish (FcColumn *self)
{
  /* release: the elements and the buffer pointer written before are visible
   * to whoever reads this count */
  g_atomic_int_set (&self->published, self->len);
}

gpointer
fc_column_read (FcColumn *self,
                guint    *n)
{
  guint count;

  /* While one thread builds, it reads what it wrote; the handover to other
   * threads (a GTask, a signal) orders the rest. */
  if (!self->shared)
    {
      if (n != NULL)
        *n = self->len;
      return self->data;
    }

  count = g_atomic_int_get (&self->published);
  if (n != NULL)
    *n = count;
  return g_atomic_pointer_get (&self->data);
}

guint
fc_column_n_published (FcColumn *self)
{
  if (!self->shared)
    return self->len;
  return g_atomic_int_get (&self->published);
}
