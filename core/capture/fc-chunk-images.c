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
  g_autoptr(GArray) images = g_array_sized_new (FALSE, FALSE, sizeof (FcDebugImage), g_hash_table_size (modules));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, modules);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const FcModule *m = key;

      if (m->path[0] != '/')
        continue;
      g_array_append_val (images, ((FcDebugImage) {
        .code_file = m->path,
        .code_id = m->build_id,
        .image_addr = m->start,
        .image_size = m->end - m->start,
        .image_vmaddr = m->vmaddr,
      }));
    }
  fc_chunk_meta_set_images (chunk, (const FcDebugImage *) (gpointer) images->data, images->len);
}
