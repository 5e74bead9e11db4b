/* fc-python-runtime.c - finding CPython in a process: its version, state and layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No cooperation from the target and no debug info: CPython exports _PyRuntime (its state)
 * and Py_Version from the executable (Debian's static python3.11) or from libpython3.X.so
 * (--enable-shared builds) in the dynamic symbol table, with PyCode_Type and friends, which
 * tell a code object from anything else at an address.
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-capture-error.h"
#include "fc-python-runtime.h"

/* python3.11, python3, libpython3.12.so.1.0: the files CPython lives in (an embedding program
 * links libpython) */
gboolean
fc_python_module_may_be_python (const FcModule *m)
{
  const char *base = strrchr (m->path, '/');

  base = base != NULL ? base + 1 : m->path;
  return g_str_has_prefix (base, "python") || g_str_has_prefix (base, "libpython");
}

/**
 * fc_python_runtime_find:
 *
 * Looks for a CPython in the modules @maps read last.
 *
 * Returns: TRUE with @runtime filled when one is there and its version is supported; FALSE
 *   without @error when there is none; FALSE with @error naming the version when there is one
 *   whose frames cannot be read.
 */
gboolean
fc_python_runtime_find (FcProcMaps      *maps,
                        FcPythonRuntime *runtime,
                        GError         **error)
{
  guint n_modules = 0;
  const FcModule * const *modules = fc_proc_maps_get_modules (maps, &n_modules);
  GPid pid = fc_proc_maps_get_pid (maps);

  for (guint i = 0; i < n_modules; i++)
    {
      const FcModule *m = modules[i];
      guint64 version_addr = 0, eval_size = 0, state = 0;
      guint32 version = 0;
      guint8 head[FC_PYTHON_DEBUG_OFFSETS_SIZE];
      g_autofree char *version_string = NULL;

      if (!fc_python_module_may_be_python (m))
        continue;
      if (!fc_module_find_symbol (m, "_PyRuntime", &state, NULL))
        {
          /* CPython before 3.7 has no _PyRuntime: named by its file (libpython3.6m.so) */
          const char *name = g_strrstr (m->path, "python");
          g_autofree char *minor = g_strndup (name + 6, strspn (name + 6, "0123456789."));

          if (!fc_module_find_symbol (m, "Py_Initialize", &state, NULL))
            continue;
          if (g_str_has_suffix (minor, "."))
            minor[strlen (minor) - 1] = 0;
          g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                       _("CPython %s (%s) is not supported: Flamecast reads the frames of CPython 3.11 to 3.13"),
                       minor[0] != 0 ? minor : _("older than 3.7"), m->path);
          return FALSE;
        }
      memset (runtime, 0, sizeof *runtime);
      runtime->runtime = state;
      /* Py_Version is read-only data: the file holds what the target sees */
      if (!fc_module_find_symbol (m, "Py_Version", &version_addr, NULL) ||
          !fc_module_read (m, version_addr, &version, sizeof version))
        {
          /* Py_Version came with 3.11: an older one is named by its file (libpython3.10.so) */
          const char *name = g_strrstr (m->path, "python");
          g_autofree char *minor = g_strndup (name + 6, strspn (name + 6, "0123456789."));

          if (g_str_has_suffix (minor, "."))
            minor[strlen (minor) - 1] = 0;
          g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                       _("CPython %s (%s) is not supported: Flamecast reads the frames of CPython 3.11 to 3.13"),
                       minor[0] != 0 ? minor : _("older than 3.11"), m->path);
          return FALSE;
        }
      version_string = fc_python_version_string (version);
      if (!fc_process_read (pid, runtime->runtime, head, sizeof head))
        {
          g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                       _("Python %s in process %d: its _PyRuntime at 0x%" PRIx64 " cannot be read"),
                       version_string, pid, runtime->runtime);
          return FALSE;
        }
      if (!fc_python_layout_init (&runtime->layout, version, head, sizeof head, error))
        return FALSE;
      if (!fc_module_find_symbol (m, "PyCode_Type", &runtime->code_type, NULL) ||
          !fc_module_find_symbol (m, "PyUnicode_Type", &runtime->unicode_type, NULL) ||
          !fc_module_find_symbol (m, "PyBytes_Type", &runtime->bytes_type, NULL) ||
          !fc_module_find_symbol (m, "_PyEval_EvalFrameDefault", &runtime->eval_start, &eval_size))
        {
          g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                       _("Python %s in %s: PyCode_Type, PyUnicode_Type, PyBytes_Type or "
                       "_PyEval_EvalFrameDefault is not exported"), version_string, m->path);
          return FALSE;
        }
      runtime->pid = pid;
      runtime->version = version;
      g_strlcpy (runtime->version_string, version_string, sizeof runtime->version_string);
      runtime->eval_end = runtime->eval_start + MAX (eval_size, 1);
      runtime->shared = !m->is_main;
      return TRUE;
    }
  return FALSE;
}
