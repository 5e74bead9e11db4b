/* fc-read-flags.h - how strictly a payload is read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owned by the payload parser (which implements them); the reader passes
 * them through. Their own header so the parser does not include the reader.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FC_READ_FLAGS_NONE = 0,
  FC_READ_LENIENT    = 1 << 0,  /* recover from reference problems, record them as FcProblems in the document */
} FcReadFlags;

G_END_DECLS
