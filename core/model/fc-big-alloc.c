/* fc-big-alloc.c - arrays of megabytes, in huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fc-big-alloc.h"

#define HUGE_PAGE ((gsize) 2 << 20)

/* A mapping is no heap block: LeakSanitizer would not look for pointers in
 * it (see fc-column.c), so each is a root region while it lives. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define lsan_register(data, size)   __lsan_register_root_region ((data), (size))
#define lsan_unregister(data, size) __lsan_unregister_root_region ((data), (size))
#else
#define lsan_register(data, size)   ((void) 0)
#define lsan_unregister(data, size) ((void) 0)
#endif

static gboolean
is_big (gsize bytes)
{
  return bytes >= FC_BIG_MIN;
}

static gsize
mapping_size (gsize bytes)
{
  return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

static gsize
page_size (void)
{
  static gsize size;

  if (size == 0)
    size = (gsize) sysconf (_SC_PAGESIZE);
  return size;
}

/* @size bytes at a 2 MiB boundary: a huge page can only map an aligned
 * 2 MiB, so an unaligned mapping would lose one at each end */
static gpointer
map_aligned (gsize size)
{
  guint8 *raw = mmap (NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  guint8 *data;
  gsize head;

  if (raw == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  data = (guint8 *) (((gsize) raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
  head = data - raw;
  if (head > 0)
    munmap (raw, head);
  munmap (data + size, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
  /* best effort: without THP the pages come 4 KiB at a time, as before */
  madvise (data, size, MADV_HUGEPAGE);
#endif
  lsan_register (data, size);
  return data;
}

gpointer
fc_big_alloc (gsize bytes)
{
  if (!is_big (bytes))
    return g_malloc (bytes);
  return map_aligned (mapping_size (bytes));
}

void
fc_big_free (gpointer data,
             gsize    bytes)
{
  if (data == NULL)
    return;
  if (!is_big (bytes))
    {
      g_free (data);
      return;
    }
  lsan_unregister (data, mapping_size (bytes));
  munmap (data, mapping_size (bytes));
}

gpointer
fc_big_realloc (gpointer data,
                gsize    old_bytes,
                gsize    new_bytes)
{
  gsize old_size = mapping_size (old_bytes);
  gsize new_size = mapping_size (new_bytes);
  gpointer moved;

  if (data == NULL)
    return fc_big_alloc (new_bytes);
  if (!is_big (old_bytes) && !is_big (new_bytes))
    return g_realloc (data, new_bytes);
  if (is_big (old_bytes) && is_big (new_bytes))
    {
      if (new_size == old_size)
        return data;
      if (new_size < old_size)
        {
          lsan_unregister (data, old_size);
          munmap ((guint8 *) data + new_size, old_size - new_size);
          lsan_register (data, new_size);
          return data;
        }
      /* a bigger aligned mapping, the pages moved into it (mremap() moves
       * page tables, huge pages whole; nothing is copied) */
      moved = map_aligned (new_size);
      lsan_unregister (moved, new_size);
      lsan_unregister (data, old_size);
      if (mremap (data, old_size, old_size, MREMAP_MAYMOVE | MREMAP_FIXED, moved) == MAP_FAILED)
        g_error ("%s: failed to move %" G_GSIZE_FORMAT " bytes", G_STRLOC, old_size);
      lsan_register (moved, new_size);
      return moved;
    }
  /* across FC_BIG_MIN: copied from one kind to the other */
  moved = fc_big_alloc (new_bytes);
  memcpy (moved, data, MIN (old_bytes, new_bytes));
  fc_big_free (data, old_bytes);
  return moved;
}

void
fc_big_populate (gpointer data,
                 gsize    from,
                 gsize    to)
{
#ifdef MADV_POPULATE_WRITE
  gsize begin = ((gsize) data + from + page_size () - 1) & ~(page_size () - 1);
  gsize end = ((gsize) data + to) & ~(page_size () - 1);

  /* one call instead of a trap a page (or a huge page); an older kernel
   * says EINVAL and the pages come at first touch, as before */
  if (end > begin)
    madvise ((gpointer) begin, end - begin, MADV_POPULATE_WRITE);
#endif
}
