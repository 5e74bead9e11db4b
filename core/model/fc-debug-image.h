/* fc-debug-image.h - an image (executable, library) loaded where a profile's addresses point, as typed data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One entry of what Sentry calls debug_meta.images: the fields Sentry's
 * symbolicator reads typed, the keys the model does not interpret as
 * opaque JSON text. Only core/formats/fc-chunk-meta.c spells it as JSON.
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* an address or size the payload does not give */
#define FC_DEBUG_IMAGE_UNKNOWN G_MAXUINT64

typedef struct
{
  char    *type;          /* "symbolic", "macho", ...; NULL when the payload has none */
  char    *code_file;     /* the image's path */
  char    *code_id;       /* e.g. its GNU build id in hex */
  char    *debug_id;      /* the id symbolicator looks debug files up by */
  char    *debug_file;
  char    *arch;
  guint64  image_addr;    /* where it is loaded, or FC_DEBUG_IMAGE_UNKNOWN */
  guint64  image_size;    /* bytes mapped, or FC_DEBUG_IMAGE_UNKNOWN */
  guint64  image_vmaddr;  /* its preferred load address, or FC_DEBUG_IMAGE_UNKNOWN */
  char    *extra;         /* keys the model does not interpret, as compact JSON
                           * object text (as frames keep theirs), or NULL */
} FcDebugImage;

#define FC_TYPE_DEBUG_IMAGE (fc_debug_image_get_type ())
GType         fc_debug_image_get_type (void) G_GNUC_CONST;

/* an image of no type at @code_file, every address unknown */
FcDebugImage *fc_debug_image_new      (const char         *code_file);
FcDebugImage *fc_debug_image_copy     (const FcDebugImage *image);
void          fc_debug_image_free     (FcDebugImage       *image);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcDebugImage, fc_debug_image_free)

G_END_DECLS
