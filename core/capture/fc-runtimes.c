/* fc-runtimes.c - the language runtimes in a recorded process, and how their frames are read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One per program a recorded process runs. Three threads touch it, each its own part:
 *   the worker finds the runtime (it owns the process's maps) and names frames (the code
 *     object cache);
 *   the sampler thread reads a thread's Python frames right after its sample was taken (the
 *     recorder's snapshot sink), with an FcPython the worker hands over through an atomic
 *     pointer and that the sink owns from then on;
 *   the main context asks for the summary line, under a lock.
 * An exec() replaces the program: the sink drops its reader at once, the worker finds the
 * runtime again when it reaches the exec. A reader handed over just before an exec (or for the
 * program the launch exec'd into) reads the new program until then: every pointer it follows
 * is checked, so what does not fit ends the walk.
 */

#include <string.h>

#include "fc-error.h"
#include "fc-python-runtime.h"
#include "fc-python-stack.h"
#include "fc-runtimes.h"

struct _FcRuntimes {
  GPid           pid;

  /* worker */
  FcProcMaps    *maps;
  guint          looked_generation;
  gboolean       looked;
  gint64         reloaded_us;
  guint          retries;
  gboolean       python_expected;  /* the executable is a python */
  gboolean       python_failed;    /* a CPython whose frames cannot be read */
  gboolean       python_found;
  FcPythonRuntime python_runtime;  /* when found */

  /* worker -> sampler thread */
  FcPython      *pending;          /* atomic */

  /* sampler thread */
  FcPython      *python;
  GPtrArray     *replaced;         /* FcPython: their symbols may still be on their way */

  /* any thread, under lock */
  GMutex         lock;
  char          *description;
  char          *hint;
};

FcRuntimes *
fc_runtimes_new (FcProcMaps *maps)
{
  FcRuntimes *self = g_new0 (FcRuntimes, 1);

  self->maps = fc_proc_maps_ref (maps);
  self->pid = fc_proc_maps_get_pid (maps);
  self->replaced = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_python_free);
  g_mutex_init (&self->lock);
  return self;
}

void
fc_runtimes_free (FcRuntimes *self)
{
  if (self == NULL)
    return;
  fc_python_free (g_atomic_pointer_exchange (&self->pending, NULL));
  fc_python_free (self->python);
  g_ptr_array_unref (self->replaced);
  fc_proc_maps_unref (self->maps);
  g_mutex_clear (&self->lock);
  g_free (self->description);
  g_free (self->hint);
  g_free (self);
}

static void
describe (FcRuntimes *self,
          char       *description,
          char       *hint)
{
  g_mutex_lock (&self->lock);
  g_free (self->description);
  g_free (self->hint);
  self->description = description;
  self->hint = hint;
  g_mutex_unlock (&self->lock);
}

/**
 * fc_runtimes_update:
 *
 * The worker's: looks for a runtime again when the process's modules changed (libpython is
 * mapped after the executable). Cheap when nothing changed.
 */
void
fc_runtimes_update (FcRuntimes *self)
{
  g_autoptr(GError) error = NULL;
  FcPythonRuntime runtime;
  guint generation = fc_proc_maps_get_generation (self->maps);
  guint n_modules = 0;
  const FcModule * const *modules;

  /* A python whose libpython is not (fully) mapped yet: the maps are read again and the
   * runtime looked for now and then (for ten seconds), since the unwinder reads the maps only
   * when an address is in no module, and a library being mapped can be seen half done. */
  if (self->python_expected && !self->python_found && !self->python_failed && self->retries < 200 &&
      g_get_monotonic_time () - self->reloaded_us > G_USEC_PER_SEC / 20)
    {
      self->reloaded_us = g_get_monotonic_time ();
      self->retries++;
      fc_proc_maps_reload (self->maps, NULL);
      generation = fc_proc_maps_get_generation (self->maps);
      self->looked = FALSE;
    }
  if (self->looked && self->looked_generation == generation)
    return;
  self->looked = TRUE;
  self->looked_generation = generation;
  modules = fc_proc_maps_get_modules (self->maps, &n_modules);
  for (guint i = 0; i < n_modules; i++)
    if (modules[i]->is_main && fc_python_module_may_be_python (modules[i]))
      self->python_expected = TRUE;

  if (self->python_found || self->python_failed)
    return;
  if (fc_python_runtime_find (self->maps, &runtime, &error))
    {
      if (g_getenv ("FC_DEBUG_PYTHON"))
        g_printerr ("python: found %s at 0x%" G_GINT64_MODIFIER "x: ob_type at %" G_GUINT64_FORMAT ", frame code at %"
                    G_GUINT64_FORMAT ", interpreters at %" G_GUINT64_FORMAT "\n", runtime.version_string, runtime.runtime,
                    runtime.layout.ob_type, runtime.layout.frame_code, runtime.layout.runtime_interpreters_head);
      self->python_found = TRUE;
      self->python_runtime = runtime;
      fc_python_free (g_atomic_pointer_exchange (&self->pending, fc_python_new (&runtime)));
      describe (self, g_strdup_printf ("CPython %s: Python frames read from the interpreter's memory",
                                       runtime.version_string), NULL);
    }
  else if (g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED))
    {
      self->python_failed = TRUE;
      describe (self, g_strdup_printf ("%s; native stacks only", error->message), NULL);
    }
}

/* The worker's, at an exec: what was found belongs to the program that is gone. */
void
fc_runtimes_worker_exec (FcRuntimes *self)
{
  self->python_found = FALSE;
  self->python_failed = FALSE;
  self->retries = 0;
  self->python_expected = FALSE;
  self->looked = FALSE;
  describe (self, NULL, NULL);
}

/* The sampler thread's, at an exec. */
void
fc_runtimes_sink_exec (FcRuntimes *self)
{
  if (self->python != NULL)
    g_ptr_array_add (self->replaced, g_steal_pointer (&self->python));
}

/**
 * fc_runtimes_read_python:
 *
 * The sampler thread's: the Python frames @tid runs now, or NULL.
 */
FcPythonStack *
fc_runtimes_read_python (FcRuntimes *self,
                         int         tid)
{
  FcPython *handed = g_atomic_pointer_exchange (&self->pending, NULL);

  if (handed != NULL)
    {
      if (self->python != NULL)
        g_ptr_array_add (self->replaced, self->python);
      self->python = handed;
    }
  return self->python != NULL ? fc_python_read_stack (self->python, tid) : NULL;
}

/**
 * fc_runtimes_resolve_mode:
 *
 * Returns: what @requested means for this process: auto is python for a CPython program whose
 *   frames can be read, native otherwise; python and mixed are native where there is no Python
 */
FcStacksMode
fc_runtimes_resolve_mode (FcRuntimes   *self,
                          FcStacksMode  requested)
{
  gboolean python = (self->python_expected || self->python_found) && !self->python_failed;

  if (requested == FC_STACKS_AUTO)
    return python ? FC_STACKS_PYTHON : FC_STACKS_NATIVE;
  if (requested != FC_STACKS_NATIVE && !python)
    return FC_STACKS_NATIVE;
  return requested;
}

/**
 * fc_runtimes_splice:
 * @mode: a resolved mode (fc_runtimes_resolve_mode)
 *
 * The worker's: the stack to record. In python mode, 0 frames when the thread ran no Python
 * (a native thread, or the interpreter not found yet): the Python SDK sees no such thread.
 */
guint
fc_runtimes_splice (FcRuntimes             *self,
                    FcStacksMode            mode,
                    const FcPythonStack    *python,
                    const guint64          *ips,
                    const FcSymbol * const *symbols,
                    guint                   n,
                    guint64                *out_ips,
                    const FcSymbol        **out_symbols,
                    guint                   max_out)
{
  if (mode == FC_STACKS_NATIVE || !self->python_found)
    {
      if (mode == FC_STACKS_PYTHON)
        return 0;
      n = MIN (n, max_out);
      memcpy (out_ips, ips, n * sizeof (guint64));
      memcpy (out_symbols, symbols, n * sizeof (const FcSymbol *));
      return n;
    }
  return fc_python_splice (&self->python_runtime, python, ips, symbols, n, mode == FC_STACKS_PYTHON,
                           out_ips, out_symbols, max_out);
}

/**
 * fc_runtimes_dup_description:
 * @hint: (out) (optional): what would help, or NULL
 *
 * Returns: (nullable): which runtime the process runs and how its frames are named, or NULL
 *   when it runs none Flamecast knows
 */
char *
fc_runtimes_dup_description (FcRuntimes  *self,
                             char       **hint)
{
  char *text;

  g_mutex_lock (&self->lock);
  text = g_strdup (self->description);
  if (hint != NULL)
    *hint = g_strdup (self->hint);
  g_mutex_unlock (&self->lock);
  return text;
}
