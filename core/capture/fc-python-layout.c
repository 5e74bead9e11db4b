/* fc-python-layout.c - where CPython keeps its threads, frames and code objects, per version
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * 3.11 and 3.12 publish nothing: their offsets are tables taken from their headers
 * (tools/python-offsets.c prints them; Debian's 3.11.2 and pyenv's 3.11.7 agree). 3.13 starts
 * _PyRuntime with _Py_DebugOffsets, the offsets its own build used, for out-of-process
 * tools: they are read from there, so a 3.13 built differently still reads right. Its layout
 * changes between minor versions (3.14 adds fields in the middle), so each minor version is
 * known on its own, and a newer one is refused with its version named.
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-capture-error.h"
#include "fc-python-layout.h"

char *
fc_python_version_string (guint32 v)
{
  return g_strdup_printf ("%u.%u.%u", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff);
}

static const FcPythonLayout layout_311 = {
  .runtime_interpreters_head = 40,
  .interp_next = 0,
  .interp_threads_head = 16,
  .tstate_next = 8,
  .tstate_native_thread_id = 160,
  .tstate_cframe = 56,
  .tstate_current_frame = FC_PYTHON_NO_FIELD,
  .cframe_current_frame = 8,
  .frame_code = 32,
  .frame_previous = 48,
  .frame_instr = 56,
  .frame_owner = 69,
  .frame_is_entry = 68,
  .code_filename = 112,
  .code_name = 120,
  .code_qualname = 128,
  .code_linetable = 136,
  .code_firstlineno = 72,
  .code_adaptive = 184,
  .ob_type = 8,
  .bytes_size = 16,
  .bytes_data = 32,
  .unicode_length = 16,
  .unicode_state = 32,
  .unicode_ascii_data = 48,     /* 3.11 still has wstr */
  .unicode_compact_data = 72,
};

static const FcPythonLayout layout_312 = {
  .runtime_interpreters_head = 40,
  .interp_next = 0,
  .interp_threads_head = 72,
  .tstate_next = 8,
  .tstate_native_thread_id = 144,
  .tstate_cframe = 56,
  .tstate_current_frame = FC_PYTHON_NO_FIELD,
  .cframe_current_frame = 0,
  .frame_code = 0,
  .frame_previous = 8,
  .frame_instr = 56,
  .frame_owner = 70,
  .frame_is_entry = FC_PYTHON_NO_FIELD,
  .code_filename = 112,
  .code_name = 120,
  .code_qualname = 128,
  .code_linetable = 136,
  .code_firstlineno = 68,
  .code_adaptive = 192,
  .ob_type = 8,
  .bytes_size = 16,
  .bytes_data = 32,
  .unicode_length = 16,
  .unicode_state = 32,
  .unicode_ascii_data = 40,
  .unicode_compact_data = 56,
};

/* _Py_DebugOffsets of 3.13: 8 bytes of cookie, then 64-bit fields in this order (the groups'
 * sizes are fields too). Indexes, not a copy of the struct: the blob is the target's. */
enum {
  DO_VERSION = 1, DO_FREE_THREADED,
  DO_RUNTIME_SIZE, DO_RUNTIME_FINALIZING, DO_RUNTIME_INTERPRETERS_HEAD,
  DO_INTERP_SIZE, DO_INTERP_ID, DO_INTERP_NEXT, DO_INTERP_THREADS_HEAD, DO_INTERP_GC, DO_INTERP_MODULES,
  DO_INTERP_SYSDICT, DO_INTERP_BUILTINS, DO_INTERP_CEVAL_GIL, DO_INTERP_GIL, DO_INTERP_GIL_ENABLED,
  DO_INTERP_GIL_LOCKED, DO_INTERP_GIL_HOLDER,
  DO_TSTATE_SIZE, DO_TSTATE_PREV, DO_TSTATE_NEXT, DO_TSTATE_INTERP, DO_TSTATE_CURRENT_FRAME,
  DO_TSTATE_THREAD_ID, DO_TSTATE_NATIVE_THREAD_ID, DO_TSTATE_DATASTACK_CHUNK, DO_TSTATE_STATUS,
  DO_FRAME_SIZE, DO_FRAME_PREVIOUS, DO_FRAME_EXECUTABLE, DO_FRAME_INSTR_PTR, DO_FRAME_LOCALSPLUS,
  DO_FRAME_OWNER,
  DO_CODE_SIZE, DO_CODE_FILENAME, DO_CODE_NAME, DO_CODE_QUALNAME, DO_CODE_LINETABLE,
  DO_CODE_FIRSTLINENO, DO_CODE_ARGCOUNT, DO_CODE_LOCALSPLUSNAMES, DO_CODE_LOCALSPLUSKINDS,
  DO_CODE_ADAPTIVE,
  DO_OBJECT_SIZE, DO_OBJECT_TYPE,
  DO_TYPE_SIZE, DO_TYPE_NAME, DO_TYPE_REPR, DO_TYPE_FLAGS,
  DO_TUPLE_SIZE, DO_TUPLE_ITEM, DO_TUPLE_OB_SIZE,
  DO_LIST_SIZE, DO_LIST_ITEM, DO_LIST_OB_SIZE,
  DO_DICT_SIZE, DO_DICT_KEYS, DO_DICT_VALUES,
  DO_FLOAT_SIZE, DO_FLOAT_VALUE,
  DO_LONG_SIZE, DO_LONG_TAG, DO_LONG_DIGIT,
  DO_BYTES_SIZE, DO_BYTES_OB_SIZE, DO_BYTES_SVAL,
  DO_UNICODE_SIZE, DO_UNICODE_STATE, DO_UNICODE_LENGTH, DO_UNICODE_ASCII_SIZE,
  DO_GC_SIZE, DO_GC_COLLECTING,
  DO_N
};

G_STATIC_ASSERT (DO_N * 8 == FC_PYTHON_DEBUG_OFFSETS_SIZE);

static guint64
debug_offset (const guint8 *blob,
              guint         index)
{
  guint64 v;

  memcpy (&v, blob + index * 8, 8);
  return v;
}

static gboolean
layout_from_debug_offsets (FcPythonLayout *l,
                           guint32         py_version,
                           const guint8   *blob,
                           gsize           len,
                           GError        **error)
{
  g_autofree char *version = fc_python_version_string (py_version);
  /* every offset read from the target is checked against the size of its struct */
  static const struct { guint field, group_size; } checks[] = {
    { DO_RUNTIME_INTERPRETERS_HEAD, DO_RUNTIME_SIZE }, { DO_INTERP_NEXT, DO_INTERP_SIZE },
    { DO_INTERP_THREADS_HEAD, DO_INTERP_SIZE }, { DO_TSTATE_NEXT, DO_TSTATE_SIZE },
    { DO_TSTATE_NATIVE_THREAD_ID, DO_TSTATE_SIZE }, { DO_TSTATE_CURRENT_FRAME, DO_TSTATE_SIZE },
    { DO_FRAME_EXECUTABLE, DO_FRAME_SIZE }, { DO_FRAME_PREVIOUS, DO_FRAME_SIZE },
    { DO_FRAME_INSTR_PTR, DO_FRAME_SIZE }, { DO_FRAME_OWNER, DO_FRAME_SIZE },
    { DO_CODE_FILENAME, DO_CODE_SIZE }, { DO_CODE_NAME, DO_CODE_SIZE }, { DO_CODE_QUALNAME, DO_CODE_SIZE },
    { DO_CODE_LINETABLE, DO_CODE_SIZE }, { DO_CODE_FIRSTLINENO, DO_CODE_SIZE },
    { DO_CODE_ADAPTIVE, DO_CODE_SIZE }, { DO_OBJECT_TYPE, DO_OBJECT_SIZE },
    { DO_BYTES_OB_SIZE, DO_BYTES_SIZE }, { DO_BYTES_SVAL, DO_BYTES_SIZE },
    { DO_UNICODE_STATE, DO_UNICODE_SIZE }, { DO_UNICODE_LENGTH, DO_UNICODE_SIZE },
  };

  if (len < FC_PYTHON_DEBUG_OFFSETS_SIZE || memcmp (blob, "xdebugpy", 8) != 0)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                   _("Python %s: _PyRuntime does not start with its debug offsets (no \"xdebugpy\" cookie)"),
                   version);
      return FALSE;
    }
  if ((guint32) debug_offset (blob, DO_VERSION) != py_version)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                   _("Python %s: its debug offsets say version 0x%08x, Py_Version 0x%08x"),
                   version, (guint32) debug_offset (blob, DO_VERSION), py_version);
      return FALSE;
    }
  if (debug_offset (blob, DO_FREE_THREADED) != 0)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                   _("Python %s is a free-threaded build, whose frames Flamecast does not read"), version);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    if (debug_offset (blob, checks[i].field) + 8 > debug_offset (blob, checks[i].group_size) ||
        debug_offset (blob, checks[i].group_size) > 1024 * 1024)
      {
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                     _("Python %s: debug offset %u (%" PRIu64 ") lies outside its struct (%"
                     PRIu64 " bytes)"), version, checks[i].field,
                     debug_offset (blob, checks[i].field), debug_offset (blob, checks[i].group_size));
        return FALSE;
      }

  l->runtime_interpreters_head = debug_offset (blob, DO_RUNTIME_INTERPRETERS_HEAD);
  l->interp_next = debug_offset (blob, DO_INTERP_NEXT);
  l->interp_threads_head = debug_offset (blob, DO_INTERP_THREADS_HEAD);
  l->tstate_next = debug_offset (blob, DO_TSTATE_NEXT);
  l->tstate_native_thread_id = debug_offset (blob, DO_TSTATE_NATIVE_THREAD_ID);
  l->tstate_cframe = FC_PYTHON_NO_FIELD;
  l->tstate_current_frame = debug_offset (blob, DO_TSTATE_CURRENT_FRAME);
  l->cframe_current_frame = FC_PYTHON_NO_FIELD;
  l->frame_code = debug_offset (blob, DO_FRAME_EXECUTABLE);
  l->frame_previous = debug_offset (blob, DO_FRAME_PREVIOUS);
  l->frame_instr = debug_offset (blob, DO_FRAME_INSTR_PTR);
  l->frame_owner = debug_offset (blob, DO_FRAME_OWNER);
  l->frame_is_entry = FC_PYTHON_NO_FIELD;
  l->code_filename = debug_offset (blob, DO_CODE_FILENAME);
  l->code_name = debug_offset (blob, DO_CODE_NAME);
  l->code_qualname = debug_offset (blob, DO_CODE_QUALNAME);
  l->code_linetable = debug_offset (blob, DO_CODE_LINETABLE);
  l->code_firstlineno = debug_offset (blob, DO_CODE_FIRSTLINENO);
  l->code_adaptive = debug_offset (blob, DO_CODE_ADAPTIVE);
  l->ob_type = debug_offset (blob, DO_OBJECT_TYPE);
  l->bytes_size = debug_offset (blob, DO_BYTES_OB_SIZE);
  l->bytes_data = debug_offset (blob, DO_BYTES_SVAL);
  l->unicode_length = debug_offset (blob, DO_UNICODE_LENGTH);
  l->unicode_state = debug_offset (blob, DO_UNICODE_STATE);
  l->unicode_ascii_data = debug_offset (blob, DO_UNICODE_ASCII_SIZE);
  /* PyCompactUnicodeObject adds utf8_length and utf8 to PyASCIIObject (3.12+) */
  l->unicode_compact_data = l->unicode_ascii_data + 16;
  return TRUE;
}

/**
 * fc_python_layout_init:
 * @py_version: the target's Py_Version
 * @runtime_head: the first bytes of the target's _PyRuntime (3.13+: its debug offsets)
 *
 * Returns: FALSE with @error naming the version when its frames cannot be read
 */
gboolean
fc_python_layout_init (FcPythonLayout *layout,
                       guint32         py_version,
                       const guint8   *runtime_head,
                       gsize           len,
                       GError        **error)
{
  guint minor = (py_version >> 16) & 0xff;
  g_autofree char *version = fc_python_version_string (py_version);

  if ((py_version >> 24) != 3 || minor < 11 || minor > 13)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                   _("CPython %s is not supported: Flamecast reads the frames of CPython 3.11 to 3.13"), version);
      return FALSE;
    }
  if (minor == 11)
    *layout = layout_311;
  else if (minor == 12)
    *layout = layout_312;
  else if (!layout_from_debug_offsets (layout, py_version, runtime_head, len, error))
    return FALSE;
  layout->version = py_version;
  return TRUE;
}
