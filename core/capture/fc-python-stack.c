/* fc-python-stack.c - a thread's Python frames, read from the interpreter's memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What py-spy, Austin and the OpenTelemetry profiler do, with process_vm_readv and no
 * cooperation: the OS thread's PyThreadState (matched by native_thread_id), its current
 * _PyInterpreterFrame, and the chain of `previous` frames, read on the sampler thread right
 * after the sample: a small read per frame, none of them stopping the target. Code objects are
 * named from a cache (fc-python-code.c), checked in one more read per sample.
 *
 * The target runs on while we read: a frame may be popped and its memory reused under us. A
 * pointer that does not look like one (null, misaligned, outside user space) or a read that
 * fails ends the walk, marked truncated; the worker checks each code object before naming it.
 */

#include <string.h>

#include "fc-python-stack.h"

#define MAX_THREADS 4096
#define MAX_INTERPRETERS 64
/* a thread not found is looked for again after this long: it may not have run Python yet */
#define MISS_RETRY_US (100 * 1000)
/* A thread state found is trusted this long, then the list is walked again: a freed one keeps
 * its thread id until its memory is reused (seen on 3.13 at start-up, where the thread state
 * of the first samples was gone a moment later and its frames pointed at freed objects). */
#define RESCAN_US (100 * 1000)

struct _FcPython {
  FcPythonRuntime  runtime;
  FcPythonCodes   *codes;
  GHashTable      *tstates;     /* tid -> PyThreadState address; 0: none at the last scan */
  gint64           scanned_us;  /* when the thread list was last walked */
  gsize            tstate_read; /* bytes of a PyThreadState we read */
  gsize            frame_read;  /* bytes of an _PyInterpreterFrame we read */
};

static gboolean
plausible_pointer (guint64 p)
{
  return p >= 4096 && (p & 7) == 0 && p < G_GUINT64_CONSTANT (0x800000000000);
}

static gsize
read_size (const guint64 *offsets,
           guint          n,
           gsize          width)
{
  gsize size = 0;

  for (guint i = 0; i < n; i++)
    if (offsets[i] != FC_PYTHON_NO_FIELD)
      size = MAX (size, offsets[i] + width);
  return size;
}

FcPython *
fc_python_new (const FcPythonRuntime *runtime)
{
  FcPython *self = g_new0 (FcPython, 1);
  const FcPythonLayout *l = &runtime->layout;
  guint64 tstate_fields[] = { l->tstate_next, l->tstate_native_thread_id, l->tstate_cframe, l->tstate_current_frame };
  guint64 frame_fields[] = { l->frame_code, l->frame_previous, l->frame_instr, l->frame_owner, l->frame_is_entry };

  self->runtime = *runtime;
  self->codes = fc_python_codes_new (runtime);
  self->tstates = g_hash_table_new (NULL, NULL);
  self->scanned_us = G_MININT64 / 2;
  self->tstate_read = read_size (tstate_fields, G_N_ELEMENTS (tstate_fields), 8);
  self->frame_read = read_size (frame_fields, G_N_ELEMENTS (frame_fields), 8);
  return self;
}

void
fc_python_free (FcPython *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->tstates);
  fc_python_codes_free (self->codes);
  g_free (self);
}

const FcPythonRuntime *
fc_python_get_runtime (FcPython *self)
{
  return &self->runtime;
}

static guint64
field (const guint8 *buf,
       guint64       offset)
{
  guint64 v;

  memcpy (&v, buf + offset, 8);
  return v;
}

static gboolean
read_pointer (FcPython *self,
              guint64   addr,
              guint64  *value)
{
  return plausible_pointer (addr) && fc_process_read (self->runtime.pid, addr, value, 8);
}

/* Every thread state of every interpreter: native thread id -> PyThreadState. */
static void
scan_threads (FcPython *self)
{
  const FcPythonLayout *l = &self->runtime.layout;
  guint64 interp = 0;
  guint8 buf[512];

  g_hash_table_remove_all (self->tstates);
  self->scanned_us = g_get_monotonic_time ();
  if (!read_pointer (self, self->runtime.runtime + l->runtime_interpreters_head, &interp))
    return;
  for (guint i = 0; i < MAX_INTERPRETERS && plausible_pointer (interp); i++)
    {
      guint64 tstate = 0;

      if (!read_pointer (self, interp + l->interp_threads_head, &tstate))
        break;
      for (guint k = 0; k < MAX_THREADS && plausible_pointer (tstate); k++)
        {
          if (self->tstate_read > sizeof buf || !fc_process_read (self->runtime.pid, tstate, buf, self->tstate_read))
            break;
          g_hash_table_insert (self->tstates, GINT_TO_POINTER ((int) field (buf, l->tstate_native_thread_id)),
                               GSIZE_TO_POINTER ((gsize) tstate));
          tstate = field (buf, l->tstate_next);
        }
      if (!read_pointer (self, interp + l->interp_next, &interp))
        break;
    }
}

/* The thread state of @tid and its current frame; FALSE when @tid runs no Python. */
static gboolean
current_frame (FcPython *self,
               int       tid,
               guint64  *frame)
{
  const FcPythonLayout *l = &self->runtime.layout;
  gpointer value = NULL;
  gboolean known;
  guint8 buf[512];

  if (g_get_monotonic_time () - self->scanned_us > RESCAN_US)
    scan_threads (self);
  known = g_hash_table_lookup_extended (self->tstates, GINT_TO_POINTER (tid), NULL, &value);

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      guint64 tstate = GPOINTER_TO_SIZE (value);

      if (tstate != 0 && self->tstate_read <= sizeof buf &&
          fc_process_read (self->runtime.pid, tstate, buf, self->tstate_read) &&
          (int) field (buf, l->tstate_native_thread_id) == tid)
        {
          if (l->tstate_current_frame != FC_PYTHON_NO_FIELD)
            *frame = field (buf, l->tstate_current_frame);
          else if (!read_pointer (self, field (buf, l->tstate_cframe) + l->cframe_current_frame, frame))
            return FALSE;
          return TRUE;
        }
      /* a thread gone, a new one, or one that has not run Python yet: walk the list again, but
       * not at every sample of a thread that never will */
      if (attempt > 0 || (known && tstate == 0 && g_get_monotonic_time () - self->scanned_us < MISS_RETRY_US))
        break;
      scan_threads (self);
      if (!g_hash_table_lookup_extended (self->tstates, GINT_TO_POINTER (tid), NULL, &value))
        g_hash_table_insert (self->tstates, GINT_TO_POINTER (tid), NULL);
      known = TRUE;
    }
  return FALSE;
}

/**
 * fc_python_read_stack:
 *
 * Reads and names the Python frames @tid runs now. Call it from one thread only (the
 * sampler's): the names are read while the frames are there.
 *
 * Returns: (transfer full) (nullable): the frames, or NULL when @tid runs no Python
 */
FcPythonStack *
fc_python_read_stack (FcPython *self,
                      int       tid)
{
  const FcPythonLayout *l = &self->runtime.layout;
  guint64 codes[FC_PYTHON_MAX_FRAMES];
  gint32 units[FC_PYTHON_MAX_FRAMES];
  FcPythonStack *stack;
  guint64 addr = 0;
  guint n = 0, n_named = 0;
  gboolean truncated = FALSE;
  guint8 buf[256];

  if (!current_frame (self, tid, &addr))
    return NULL;
  g_assert (self->frame_read <= sizeof buf);
  while (addr != 0)
    {
      guint64 code, previous, instr, first;
      int owner;

      if (n + 2 > G_N_ELEMENTS (codes) || !plausible_pointer (addr) ||
          !fc_process_read (self->runtime.pid, addr, buf, self->frame_read))
        {
          truncated = TRUE;
          break;
        }
      owner = buf[l->frame_owner];
      previous = field (buf, l->frame_previous);
      code = field (buf, l->frame_code);
      instr = field (buf, l->frame_instr);
      if (owner > FC_PYTHON_FRAME_OWNED_BY_CSTACK || previous == addr)
        {
          truncated = TRUE;
          break;
        }
      if (owner == FC_PYTHON_FRAME_OWNED_BY_CSTACK)
        {
          /* 3.12+: the shim an interpreter activation starts with ends the run above it */
          codes[n] = 0;
          units[n++] = -1;
        }
      else
        {
          if (!plausible_pointer (code))
            {
              truncated = TRUE;
              break;
            }
          first = code + l->code_adaptive;
          codes[n] = code;
          /* before the first instruction (a frame just pushed): -1, the function's first line */
          units[n++] = instr >= first && instr - first < G_MAXINT32 ? (gint32) ((instr - first) / 2) : -1;
          /* 3.11: the first frame of an activation says so itself */
          if (l->frame_is_entry != FC_PYTHON_NO_FIELD && buf[l->frame_is_entry] != 0)
            {
              codes[n] = 0;
              units[n++] = -1;
            }
        }
      addr = previous;
    }
  if (n == 0 && !truncated)
    return NULL;

  /* the cached code objects are still those, then every frame is named */
  fc_python_codes_check (self->codes, codes, n);
  stack = g_malloc (sizeof (FcPythonStack) + n * sizeof (const FcSymbol *));
  for (guint i = 0; i < n; i++)
    {
      const FcSymbol *sym = NULL;

      /* a frame whose code object does not check out is left out, never named wrongly */
      if (codes[i] != 0 && (sym = fc_python_codes_lookup (self->codes, codes[i], units[i])) == NULL)
        continue;
      stack->frames[n_named++] = sym;
    }
  stack->n = n_named;
  stack->truncated = truncated;
  return stack;
}

guint
fc_python_stack_n_frames (const FcPythonStack *stack)
{
  guint n = 0;

  for (guint i = 0; stack != NULL && i < stack->n; i++)
    n += stack->frames[i] != NULL;
  return n;
}
