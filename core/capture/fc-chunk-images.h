/* fc-chunk-images.h - the images a chunk's stacks touched, as the chunk's debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* Sets @chunk's images (fc-chunk-meta.h) to @modules (a set of FcModule*):
 * each with a file, its build id, load address, size and preferred address.
 * Modules without a file ([vdso]) are left out: nothing to symbolicate. */
void fc_chunk_images_set (FcProfile  *chunk,
                          GHashTable *modules);

G_END_DECLS
