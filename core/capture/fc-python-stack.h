/* fc-python-stack.h - a thread's Python frames, read from the interpreter's memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-python-code.h"

G_BEGIN_DECLS

#define FC_PYTHON_MAX_FRAMES 256

/* A thread's frames at one moment, innermost first, named. The frames one
 * _PyEval_EvalFrameDefault activation runs form a run; each run ends with a marker (NULL), so
 * the runs line up with the native stack's interpreter activations. A frame whose code object
 * did not check out is left out. The symbols belong to the FcPython that read them. */
typedef struct {
  guint            n;
  gboolean         truncated;  /* a read failed or did not check out: the walk stopped there */
  const FcSymbol  *frames[];
} FcPythonStack;

typedef struct _FcPython FcPython;

FcPython      *fc_python_new         (const FcPythonRuntime *runtime);
void           fc_python_free        (FcPython              *self);
const FcPythonRuntime *fc_python_get_runtime (FcPython      *self);
FcPythonStack *fc_python_read_stack  (FcPython              *self,
                                      int                    tid);
guint          fc_python_stack_n_frames (const FcPythonStack *stack);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcPython, fc_python_free)

G_END_DECLS
