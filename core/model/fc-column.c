/* fc-column.c - an append-only array that readers on other threads can read while it grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fc-big-alloc.h"
#include "fc-column.h"

/* fc_column_reserve() faults in room that will be filled from this size */
#define FC_COLUMN_POPULATE_MIN (256 * 1024)

/* LeakSanitizer scans the heap, stacks and globals, never a program's own
 * mappings: the heap blocks a mapped column points to (a profile's per-thread
 * columns) would look leaked while the profile lives. Each reservation is a
 * root region it scans (only its readable pages). */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define lsan_register(data, size)   __lsan_register_root_region ((data), (size))
#define lsan_unregister(data, size) __lsan_unregister_root_region ((data), (size))
#else
#define lsan_register(data, size)   ((void) 0)
#define lsan_unregister(data, size) ((void) 0)
#endif

typedef struct {
  gpointer data;
  gsize    size;
} Mapping;

/* the bytes of a private column's block (fc-big-alloc.h: its size says what it is) */
static gsize
block_bytes (FcColumn *self)
{
  return (gsize) self->capacity * self->elt_size;
}

static void
clear_block (gpointer data)
{
  Mapping *block = data;

  fc_big_free (block->data, block->size);
}

static gsize
page_size (void)
{
  static gsize size;

  if (size == 0)
    size = (gsize) sysconf (_SC_PAGESIZE);
  return size;
}

static void
clear_mapping (gpointer data)
{
  Mapping *mapping = data;

  lsan_unregister (mapping->data, mapping->size);
  munmap (mapping->data, mapping->size);
}

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
  if (self->borrowed)
    {
      fc_column_init (self, self->elt_size);
      return;
    }
  if (self->reserved > 0)
    {
      lsan_unregister (self->data, self->reserved);
      munmap (self->data, self->reserved);
    }
  else
    fc_big_free (self->data, block_bytes (self));
  g_clear_pointer (&self->retired, g_array_unref);
  g_clear_pointer (&self->retired_maps, g_array_unref);
  self->data = NULL;
  self->reserved = 0;
  self->len = self->published = self->capacity = 0;
}

static void
retire (FcColumn *self)
{
  if (self->data == NULL)
    return;
  if (self->reserved > 0)
    {
      Mapping mapping = { self->data, self->reserved };

      if (self->retired_maps == NULL)
        {
          self->retired_maps = g_array_new (FALSE, FALSE, sizeof (Mapping));
          g_array_set_clear_func (self->retired_maps, clear_mapping);
        }
      g_array_append_val (self->retired_maps, mapping);
      return;
    }
  {
    Mapping block = { self->data, block_bytes (self) };

    if (self->retired == NULL)
      {
        self->retired = g_array_new (FALSE, FALSE, sizeof (Mapping));
        g_array_set_clear_func (self->retired, clear_block);
      }
    g_array_append_val (self->retired, block);
  }
}

/* Room for capacity elements at a fixed address: within the reservation,
 * more pages become usable; otherwise a new reservation (the first, or one
 * past FC_COLUMN_MAX_ELEMENTS) receives a copy. FALSE when the system
 * refuses address space: the caller copies into the heap instead. */
static gboolean
grow_mapped (FcColumn *self,
             guint     capacity)
{
  gsize used = ((gsize) capacity * self->elt_size + page_size () - 1) & ~(page_size () - 1);
  gsize reserve;
  gpointer data;

  if (self->reserved > 0 && used <= self->reserved)
    {
      /* the pages past the old capacity were never readable: no reader sees this */
      gsize old = ((gsize) self->capacity * self->elt_size + page_size () - 1) & ~(page_size () - 1);

      if (used > old && mprotect ((guint8 *) self->data + old, used - old, PROT_READ | PROT_WRITE) != 0)
        return FALSE;
      self->capacity = used / self->elt_size;
      return TRUE;
    }

  reserve = (gsize) MAX (capacity, FC_COLUMN_MAX_ELEMENTS) * self->elt_size;
  reserve = (reserve + page_size () - 1) & ~(page_size () - 1);
  data = mmap (NULL, reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (data == MAP_FAILED)
    return FALSE;
  if (mprotect (data, used, PROT_READ | PROT_WRITE) != 0)
    {
      munmap (data, reserve);
      return FALSE;
    }
  lsan_register (data, reserve);
  if (self->len > 0)
    memcpy (data, self->data, (gsize) self->len * self->elt_size);
  /* Readers may be reading the old buffer right now: retired, not freed. */
  retire (self);
  g_atomic_pointer_set (&self->data, data);
  self->reserved = reserve;
  self->capacity = used / self->elt_size;
  return TRUE;
}

void
fc_column_grow (FcColumn *self)
{
  guint capacity = MAX (16, self->capacity * 2);
  gpointer data;

  g_assert (self->capacity < G_MAXUINT / 2);
  g_assert (!self->borrowed);

  if (!self->shared)
    {
      g_assert (self->reserved == 0);
      data = fc_big_realloc (self->data, block_bytes (self), (gsize) capacity * self->elt_size);
    }
  else if (grow_mapped (self, capacity))
    {
      return;
    }
  else
    {
      /* Readers may be reading the old buffer right now: copy, never move. */
      data = fc_big_alloc ((gsize) capacity * self->elt_size);
      if (self->len > 0)
        memcpy (data, self->data, (gsize) self->len * self->elt_size);
      retire (self);
      self->reserved = 0;
    }

  g_atomic_pointer_set (&self->data, data);
  self->capacity = capacity;
}

gpointer
fc_column_push (FcColumn *self)
{
  gpointer slot;

  if (self->len == self->capacity)
    fc_column_grow (self);

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
  g_assert (!self->borrowed || len == self->len);

  self->len = len;
  if (self->published > len)
    g_atomic_int_set (&self->published, len);
}

void
fc_column_trim (FcColumn *self)
{
  /* a shared column's buffer may be in readers' hands: it stays */
  if (self->shared || self->borrowed || self->capacity == self->len)
    return;
  g_assert (self->reserved == 0);
  self->data = fc_big_realloc (self->data, block_bytes (self), (gsize) MAX (self->len, 1) * self->elt_size);
  self->capacity = MAX (self->len, 1);
}

void
fc_column_reserve (FcColumn *self,
                   guint     capacity,
                   gboolean  will_fill)
{
  gsize filled;

  /* a shared column grows page by page in place already */
  if (self->shared || capacity <= self->capacity)
    return;
  g_assert (!self->borrowed);
  g_assert (self->reserved == 0);
  /* from FC_BIG_MIN on, huge pages: the stack nodes of a deep chunk (tens
   * of MB) took thousands of faults */
  self->data = fc_big_realloc (self->data, block_bytes (self), (gsize) capacity * self->elt_size);
  self->capacity = capacity;

  /* Room that will be filled is faulted in by one call: a page fault per
   * 4 KiB, each a trap (through the hypervisor on a VM), cost a deep
   * chunk's view copy about a fifth of its time. */
  filled = (gsize) self->len * self->elt_size;
  if (will_fill && block_bytes (self) > filled + FC_COLUMN_POPULATE_MIN)
    fc_big_populate (self->data, filled, block_bytes (self));
}

void
fc_column_adopt (FcColumn *self,
                 gpointer  data,
                 guint     len,
                 guint     capacity)
{
  g_assert (self->len == 0 && !self->shared && !self->borrowed && self->reserved == 0);
  g_assert (len <= capacity);

  fc_big_free (self->data, block_bytes (self));
  self->data = data;
  self->len = len;
  self->capacity = capacity;
}

void
fc_column_borrow (FcColumn *self,
                  FcColumn *src)
{
  guint n;

  g_assert (self->len == 0 && self->data == NULL);
  g_assert (self->elt_size == src->elt_size);

  self->data = fc_column_read (src, &n);
  self->len = self->published = self->capacity = n;
  self->borrowed = TRUE;
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
