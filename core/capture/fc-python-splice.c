/* fc-python-splice.c - Python frames put into a native stack, or a native stack made Python
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As py-spy's --native does: each native _PyEval_EvalFrameDefault activation, from the leaf
 * outwards, stands for one run of Python frames (fc-python-stack.h), innermost first, so the
 * C functions an extension calls, the interpreter's callers and threads' native starts stay
 * where they are. More runs than activations (the native walk was cut short) go at the
 * outer end; an activation without a run (the two were read a moment apart) stays native.
 */

#include "fc-python-splice.h"

static const GEnumValue stacks_modes[] = {
  { FC_STACKS_AUTO, "FC_STACKS_AUTO", "auto" },
  { FC_STACKS_PYTHON, "FC_STACKS_PYTHON", "python" },
  { FC_STACKS_MIXED, "FC_STACKS_MIXED", "mixed" },
  { FC_STACKS_NATIVE, "FC_STACKS_NATIVE", "native" },
  { 0, NULL, NULL },
};

GType
fc_stacks_mode_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("FcStacksMode", stacks_modes));
  return type;
}

const char *
fc_stacks_mode_to_string (FcStacksMode mode)
{
  for (guint i = 0; stacks_modes[i].value_nick != NULL; i++)
    if (stacks_modes[i].value == (int) mode)
      return stacks_modes[i].value_nick;
  return "auto";
}

gboolean
fc_stacks_mode_from_string (const char   *text,
                            FcStacksMode *mode)
{
  for (guint i = 0; text != NULL && stacks_modes[i].value_nick != NULL; i++)
    if (g_strcmp0 (stacks_modes[i].value_nick, text) == 0)
      {
        *mode = stacks_modes[i].value;
        return TRUE;
      }
  return FALSE;
}

/* Appends the frames of the run starting at @*at, up to its end marker. */
static guint
append_run (const FcPythonStack   *python,
            guint                 *at,
            guint64               *out_ips,
            const FcSymbol       **out_symbols,
            guint                  n_out,
            guint                  max_out)
{
  for (; *at < python->n; (*at)++)
    {
      const FcSymbol *sym = python->frames[*at];

      if (sym == NULL)
        {
          (*at)++;
          break;
        }
      if (n_out < max_out)
        {
          out_ips[n_out] = 0;
          out_symbols[n_out++] = sym;
        }
    }
  return n_out;
}

/**
 * fc_python_splice:
 * @python: the thread's Python frames, read right after @ips were captured
 * @ips: (array length=n): the native stack, leaf first
 * @python_only: only the Python frames (at most FC_PYTHON_SDK_MAX_FRAMES), as the SDK sends
 *
 * Python frames get an ip of 0: they have no instruction address.
 *
 * Returns: the number of frames written to @out_ips and @out_symbols
 */
guint
fc_python_splice (const FcPythonRuntime  *runtime,
                  const FcPythonStack    *python,
                  const guint64          *ips,
                  const FcSymbol * const *symbols,
                  guint                   n,
                  gboolean                python_only,
                  guint64                *out_ips,
                  const FcSymbol        **out_symbols,
                  guint                   max_out)
{
  guint at = 0, n_out = 0;

  if (python_only)
    {
      max_out = MIN (max_out, FC_PYTHON_SDK_MAX_FRAMES);
      while (python != NULL && at < python->n)
        n_out = append_run (python, &at, out_ips, out_symbols, n_out, max_out);
      return n_out;
    }
  for (guint i = 0; i < n && n_out < max_out; i++)
    {
      guint64 lookup = i > 0 ? ips[i] - 1 : ips[i];

      if (python != NULL && at < python->n && lookup >= runtime->eval_start && lookup < runtime->eval_end)
        {
          guint before = n_out;

          n_out = append_run (python, &at, out_ips, out_symbols, n_out, max_out);
          if (n_out > before)
            continue;
        }
      out_ips[n_out] = ips[i];
      out_symbols[n_out++] = symbols[i];
    }
  while (python != NULL && at < python->n && n_out < max_out)
    n_out = append_run (python, &at, out_ips, out_symbols, n_out, max_out);
  return n_out;
}
