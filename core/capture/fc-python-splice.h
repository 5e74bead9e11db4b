/* fc-python-splice.h - Python frames put into a native stack, or a native stack made Python
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-python-stack.h"

G_BEGIN_DECLS

/* How a recording shows programs with an interpreter (flamecast-cli record --stacks). */
typedef enum {
  FC_STACKS_AUTO,     /* python for a CPython program, native otherwise */
  FC_STACKS_PYTHON,   /* Python frames only, as the Python SDK sends (platform python) */
  FC_STACKS_MIXED,    /* native stacks with each interpreter activation's Python frames in it */
  FC_STACKS_NATIVE,   /* machine code only */
} FcStacksMode;

#define FC_TYPE_STACKS_MODE (fc_stacks_mode_get_type ())
GType        fc_stacks_mode_get_type  (void);
const char  *fc_stacks_mode_to_string (FcStacksMode  mode);
gboolean     fc_stacks_mode_from_string (const char  *text,
                                         FcStacksMode *mode);

/* What the Python SDK sends at most: deeper stacks lose their outermost frames. */
#define FC_PYTHON_SDK_MAX_FRAMES 128

guint fc_python_splice (const FcPythonRuntime *runtime,
                        const FcPythonStack   *python,
                        const guint64         *ips,
                        const FcSymbol * const *symbols,
                        guint                  n,
                        gboolean               python_only,
                        guint64               *out_ips,
                        const FcSymbol       **out_symbols,
                        guint                  max_out);

G_END_DECLS
