/* fc-python-linetable.h - CPython's location table (PEP 626/657): code unit -> line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One run of code units with one line: units [start, end) are on @line (-1: no line). */
typedef struct {
  guint32 start;
  guint32 end;
  gint32  line;
} FcPythonLineRange;

GArray *fc_python_linetable_decode (const guint8 *table,
                                    gsize         len,
                                    int           firstlineno);
int     fc_python_linetable_line   (GArray       *ranges,
                                    int           firstlineno,
                                    int           unit);

G_END_DECLS
