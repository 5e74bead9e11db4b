/* fc-python-code.h - names, files and lines of Python code objects, cached by address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-python-runtime.h"
#include "fc-symbolizer.h"

G_BEGIN_DECLS

typedef struct _FcPythonCodes FcPythonCodes;

FcPythonCodes         *fc_python_codes_new         (const FcPythonRuntime *runtime);
void                   fc_python_codes_free        (FcPythonCodes         *self);
const FcPythonRuntime *fc_python_codes_get_runtime (FcPythonCodes         *self);
void                   fc_python_codes_check       (FcPythonCodes         *self,
                                                    const guint64         *codes,
                                                    guint                  n_codes);
const FcSymbol        *fc_python_codes_lookup      (FcPythonCodes         *self,
                                                    guint64                code,
                                                    int                    unit);
guint                  fc_python_codes_get_n_cached (FcPythonCodes        *self);

void                   fc_python_module_for_path   (GPid                   pid,
                                                    const char            *abs_path,
                                                    char                 **module,
                                                    char                 **filename);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcPythonCodes, fc_python_codes_free)

G_END_DECLS
