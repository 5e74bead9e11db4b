/* fc-chunk-meta.h - a chunk's SDK and loaded images as typed data, written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recorder and the readers of other formats (pprof, OTLP) say what SDK
 * made a profile and which images were loaded where; this module alone
 * knows how Sentry spells it (client_sdk{name,version},
 * debug_meta.images[]{type: symbolic, code_file, code_id, debug_id,
 * image_addr, image_size, image_vmaddr}), which the writer then writes.
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* image_vmaddr not known (another format's mapping): none is written */
#define FC_DEBUG_IMAGE_NO_VMADDR G_MAXUINT64

typedef struct
{
  const char *code_file;     /* the image's path */
  const char *code_id;       /* its GNU build id in hex, or NULL */
  guint64     image_addr;    /* where it is loaded */
  guint64     image_size;    /* bytes mapped, 0 when unknown */
  guint64     image_vmaddr;  /* its preferred load address, or FC_DEBUG_IMAGE_NO_VMADDR */
} FcDebugImage;

typedef struct
{
  const char *name;
  const char *version;
} FcClientSdk;

void     fc_chunk_meta_set_client_sdk (FcProfile          *profile,
                                       const FcClientSdk  *sdk);
/* Replaces the images of @profile's debug_meta by @images. */
void     fc_chunk_meta_set_images     (FcProfile          *profile,
                                       const FcDebugImage *images,
                                       gsize               n_images);
void     fc_chunk_meta_add_image      (FcProfile          *profile,
                                       const FcDebugImage *image);
/* The image whose code_file is @code_file, its strings borrowed from
 * @profile (code_id, else debug_id without dashes... as it was written);
 * FALSE when there is none. */
gboolean fc_chunk_meta_find_image     (FcProfile          *profile,
                                       const char         *code_file,
                                       FcDebugImage       *image);

/* A GNU build id (hex, any length) as Sentry's debug_id: its first 16
 * bytes as a little-endian GUID, as symbolic writes it; NULL for NULL or
 * what is not hex. */
char    *fc_build_id_to_debug_id      (const char         *build_id_hex);

G_END_DECLS
