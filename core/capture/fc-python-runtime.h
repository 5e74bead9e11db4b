/* fc-python-runtime.h - finding CPython in a process: its version, state and layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-proc-maps.h"
#include "fc-python-layout.h"

G_BEGIN_DECLS

/* What a profiler needs to know of one CPython in a process; plain data, copied freely. */
typedef struct {
  GPid           pid;
  guint32        version;       /* Py_Version */
  char           version_string[16];
  FcPythonLayout layout;
  guint64        runtime;       /* &_PyRuntime in the target */
  guint64        code_type;     /* &PyCode_Type */
  guint64        unicode_type;  /* &PyUnicode_Type */
  guint64        bytes_type;    /* &PyBytes_Type */
  guint64        eval_start;    /* _PyEval_EvalFrameDefault: where Python frames meet native ones */
  guint64        eval_end;
  gboolean       shared;        /* in a libpython, not in the executable */
} FcPythonRuntime;

gboolean fc_python_runtime_find        (FcProcMaps      *maps,
                                        FcPythonRuntime *runtime,
                                        GError         **error);
gboolean fc_python_module_may_be_python (const FcModule *module);

G_END_DECLS
