/* fc-chunk-images.c - the images a chunk's stacks touched, as the chunk's debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-chunk-images.h"
#include "fc-chunk-meta.h"
#include "fc-proc-maps.h"

void
fc_chunk_images_set (FcProfile  *chunk,
                     GHashTable *modules)
{
  GPtrArray *images = g_ptr_array_new_full (g_hash_table_size (modules), (GDestroyNotify) fc_debug_image_free);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, modules);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const FcModule *m = key;

      if (m->path[0] != '/')
        continue;
      g_ptr_array_add (images, fc_chunk_meta_new_elf_image (m->path, m->build_id, m->start,
                                                            m->end - m->start, m->vmaddr));
    }
  fc_profile_take_images (chunk, images);
}
