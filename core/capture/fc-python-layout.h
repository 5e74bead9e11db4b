/* fc-python-layout.h - where CPython keeps its threads, frames and code objects, per version
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FC_PYTHON_NO_FIELD G_MAXUINT64

/* Offsets in bytes of the fields a profiler reads, as the version's headers lay them out. */
typedef struct {
  guint32 version;              /* Py_Version: 0x030B02F0 is 3.11.2 final */
  /* _PyRuntimeState */
  guint64 runtime_interpreters_head;
  /* PyInterpreterState */
  guint64 interp_next;
  guint64 interp_threads_head;
  /* PyThreadState */
  guint64 tstate_next;
  guint64 tstate_native_thread_id;
  guint64 tstate_cframe;        /* 3.11, 3.12: the _PyCFrame holding current_frame; else NO_FIELD */
  guint64 tstate_current_frame; /* 3.13+ */
  guint64 cframe_current_frame;
  /* _PyInterpreterFrame */
  guint64 frame_code;           /* f_code, f_executable on 3.13 */
  guint64 frame_previous;
  guint64 frame_instr;          /* prev_instr (3.11, 3.12), instr_ptr (3.13) */
  guint64 frame_owner;
  guint64 frame_is_entry;       /* 3.11; 3.12+ mark an entry with a shim frame owned by the C stack */
  /* PyCodeObject */
  guint64 code_filename;
  guint64 code_name;
  guint64 code_qualname;
  guint64 code_linetable;
  guint64 code_firstlineno;
  guint64 code_adaptive;        /* where the code units start */
  /* objects */
  guint64 ob_type;
  guint64 bytes_size;           /* ob_size of a PyBytesObject */
  guint64 bytes_data;           /* ob_sval */
  guint64 unicode_length;
  guint64 unicode_state;
  guint64 unicode_ascii_data;   /* characters of a compact ASCII string: sizeof (PyASCIIObject) */
  guint64 unicode_compact_data; /* of another compact string: sizeof (PyCompactUnicodeObject) */
} FcPythonLayout;

/* A frame whose owner is the C stack (3.12+): the shim _PyEval_EvalFrameDefault pushes on entry. */
#define FC_PYTHON_FRAME_OWNED_BY_CSTACK 3

/* Bytes of _PyRuntime to read for fc_python_layout_init: 3.13's _Py_DebugOffsets. */
#define FC_PYTHON_DEBUG_OFFSETS_SIZE 584

gboolean fc_python_layout_init           (FcPythonLayout *layout,
                                          guint32         py_version,
                                          const guint8   *runtime_head,
                                          gsize           len,
                                          GError        **error);
char    *fc_python_version_string        (guint32         py_version);

G_END_DECLS
