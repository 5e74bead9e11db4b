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
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-capture-error.h"
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

  /* worker: a JIT runtime, named by its modules */
  const char    *jit_runtime;      /* "Node.js", "Java", ".NET", or NULL */
  const char    *jit_hint;         /* the flag that makes it write a perf map */
  gboolean       is_go;
  gint64         jit_noted_us;
  FcJitInfo      jit;

  /* any thread, under lock */
  GMutex         lock;
  char          *description;      /* the Python part */
  char          *hint;
  char          *jit_description;
  char          *jit_hint_text;
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
  g_free (self->jit_description);
  g_free (self->jit_hint_text);
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

/* HotSpot needs two flags: frame pointers to unwind through its code, a map to name it. */
static const char *
java_hint (GPid pid)
{
  g_autofree char *cmdline = NULL;
  gsize len = 0;
  gboolean frame_pointers = FALSE;

  if ((cmdline = fc_access_read_proc (pid, 0, "cmdline", &len)) != NULL)
    for (gsize i = 0; i < len; i += strlen (cmdline + i) + 1)
      frame_pointers |= strcmp (cmdline + i, "-XX:+PreserveFramePointer") == 0;
  if (!frame_pointers)
    return _("start java with -XX:+PreserveFramePointer (stacks through JIT code) and "
             "-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit, or run jcmd PID Compiler.perfmap while recording");
  return _("start java with -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit, or run jcmd PID "
           "Compiler.perfmap while recording");
}

static void
describe_jit (FcRuntimes *self,
              char       *description,
              char       *hint)
{
  g_mutex_lock (&self->lock);
  g_free (self->jit_description);
  g_free (self->jit_hint_text);
  self->jit_description = description;
  self->jit_hint_text = hint;
  g_mutex_unlock (&self->lock);
}

/**
 * fc_runtimes_note_jit:
 * @force: now, not at most once a second
 *
 * The worker's: how the symbolizer named JIT code so far, for the summary.
 */
void
fc_runtimes_note_jit (FcRuntimes   *self,
                      FcSymbolizer *symbolizer,
                      gboolean      force)
{
  FcJitInfo info;
  const char *source;
  guint64 n;

  if (!force && g_get_monotonic_time () - self->jit_noted_us < G_USEC_PER_SEC)
    return;
  self->jit_noted_us = g_get_monotonic_time ();
  fc_symbolizer_get_jit_info (symbolizer, &info);
  if (info.n_named == self->jit.n_named && info.n_unnamed == self->jit.n_unnamed &&
      info.perf_map_found == self->jit.perf_map_found && info.jitdump == self->jit.jitdump && !force)
    return;
  self->jit = info;
  n = info.n_named + info.n_unnamed;
  source = info.jitdump != NULL ? info.jitdump : info.perf_map_found ? info.perf_map : NULL;
  if (n == 0 && self->jit_runtime == NULL)
    return;
  if (n == 0)
    describe_jit (self, g_strdup_printf (_("%s: no JIT code sampled"), self->jit_runtime), NULL);
  else if (source != NULL)
    describe_jit (self,
                  g_strdup_printf (info.jitdump == NULL
                                   ? _("%s: JIT code named from %s (%" PRIu64 " of %" PRIu64 " addresses)")
                                   : info.perf_map_found
                                   ? _("%s: JIT code named from the jitdump %s and the perf map (%" PRIu64 " of %"
                                       PRIu64 " addresses)")
                                   : _("%s: JIT code named from the jitdump %s (%" PRIu64 " of %" PRIu64 " addresses)"),
                                   self->jit_runtime ? self->jit_runtime : _("JIT code"), source,
                                   info.n_named, n),
                  info.jitdump_error != NULL ? g_strdup (info.jitdump_error) : NULL);
  else
    describe_jit (self,
                  g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: JIT code without names (%" PRIu64 " address; no %s)",
                                                "%s: JIT code without names (%" PRIu64 " addresses; no %s)", n),
                                   self->jit_runtime ? self->jit_runtime : _("JIT code"), n,
                                   info.perf_map),
                  g_strdup (self->jit_hint != NULL ? self->jit_hint
                                                   : _("a perf map (/tmp/perf-PID.map) written by the runtime names it")));
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
  if (self->python_expected && !self->python_found && !self->python_failed && self->retries >= 200)
    {
      /* a python with no CPython we know in it: its stacks are native */
      self->python_failed = TRUE;
      describe (self, g_strdup (_("a python executable without a CPython runtime Flamecast knows (no _PyRuntime); "
                                "native stacks only")), NULL);
    }
  if (self->python_expected && !self->python_found && !self->python_failed &&
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
    {
      g_autofree char *base = g_path_get_basename (modules[i]->path);
      guint64 addr;

      if (modules[i]->is_main && fc_python_module_may_be_python (modules[i]))
        self->python_expected = TRUE;
      /* JIT runtimes, by the files they run from */
      if ((modules[i]->is_main && (strcmp (base, "node") == 0 || strcmp (base, "nodejs") == 0)) ||
          g_str_has_prefix (base, "libnode.so"))
        {
          self->jit_runtime = "Node.js";
          self->jit_hint = _("start node with --perf-basic-prof (or --perf-prof for a jitdump)");
        }
      else if (strcmp (base, "libjvm.so") == 0)
        {
          self->jit_runtime = "Java";
          self->jit_hint = java_hint (self->pid);
        }
      else if (strcmp (base, "libcoreclr.so") == 0)
        {
          self->jit_runtime = ".NET";
          self->jit_hint = _("set DOTNET_PerfMapEnabled=1 before starting it");
        }
      else if (modules[i]->is_main && !self->is_go && fc_module_find_symbol (modules[i], "runtime.main", &addr, NULL))
        {
          self->is_go = TRUE;
          describe_jit (self, g_strdup (_("Go: stacks followed by frame pointer, names and lines from its symbol "
                                        "table and DWARF")), NULL);
        }
    }

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
      describe (self, g_strdup_printf (_("CPython %s: Python frames read from the interpreter's memory"),
                                       runtime.version_string), NULL);
    }
  else if (g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED))
    {
      self->python_failed = TRUE;
      describe (self, g_strdup_printf (_("%s; native stacks only"), error->message), NULL);
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
  self->jit_runtime = NULL;
  self->jit_hint = NULL;
  self->is_go = FALSE;
  describe (self, NULL, NULL);
  describe_jit (self, NULL, NULL);
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

/* The worker's: whether fc_runtimes_splice() in @mode gives other frames than the native ones */
gboolean
fc_runtimes_splices (FcRuntimes   *self,
                     FcStacksMode  mode)
{
  return mode == FC_STACKS_PYTHON || (mode != FC_STACKS_NATIVE && self->python_found);
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
  GString *text = g_string_new (NULL);
  GString *hints = g_string_new (NULL);

  g_mutex_lock (&self->lock);
  if (self->description != NULL)
    g_string_append (text, self->description);
  if (self->jit_description != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? "; " : "", self->jit_description);
  if (self->hint != NULL)
    g_string_append (hints, self->hint);
  if (self->jit_hint_text != NULL)
    g_string_append_printf (hints, "%s%s", hints->len > 0 ? "; " : "", self->jit_hint_text);
  g_mutex_unlock (&self->lock);
  if (hint != NULL)
    *hint = hints->len > 0 ? g_string_free (hints, FALSE) : (g_string_free (hints, TRUE), NULL);
  else
    g_string_free (hints, TRUE);
  return text->len > 0 ? g_string_free (text, FALSE) : (g_string_free (text, TRUE), NULL);
}
