/* fc-debug-image.c - an image loaded where a profile's addresses point, as typed data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-debug-image.h"

G_DEFINE_BOXED_TYPE (FcDebugImage, fc_debug_image, fc_debug_image_copy, fc_debug_image_free)

FcDebugImage *
fc_debug_image_new (const char *code_file)
{
  FcDebugImage *image = g_new0 (FcDebugImage, 1);

  image->code_file = g_strdup (code_file);
  image->image_addr = FC_DEBUG_IMAGE_UNKNOWN;
  image->image_size = FC_DEBUG_IMAGE_UNKNOWN;
  image->image_vmaddr = FC_DEBUG_IMAGE_UNKNOWN;
  return image;
}

FcDebugImage *
fc_debug_image_copy (const FcDebugImage *image)
{
  FcDebugImage *copy;

  if (image == NULL)
    return NULL;
  copy = g_memdup2 (image, sizeof *image);
  copy->type = g_strdup (image->type);
  copy->code_file = g_strdup (image->code_file);
  copy->code_id = g_strdup (image->code_id);
  copy->debug_id = g_strdup (image->debug_id);
  copy->debug_file = g_strdup (image->debug_file);
  copy->arch = g_strdup (image->arch);
  copy->extra = g_strdup (image->extra);
  return copy;
}

void
fc_debug_image_free (FcDebugImage *image)
{
  if (image == NULL)
    return;
  g_free (image->type);
  g_free (image->code_file);
  g_free (image->code_id);
  g_free (image->debug_id);
  g_free (image->debug_file);
  g_free (image->arch);
  g_free (image->extra);
  g_free (image);
}
