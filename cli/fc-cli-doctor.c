/* fc-cli-doctor.c - flamecast-cli doctor: what stands between the profiler and a process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-attach-check.h"
#include "fc-cli.h"

static gboolean
report (GPid          pid,
        FcSamplerMode mode)
{
  g_autoptr(GError) error = NULL;
  const char *mode_name = mode == FC_SAMPLER_MODE_CPU ? "cpu" : "wall";

  if (fc_attach_check (pid, mode, &error))
    {
      if (pid > 0)
        printf (_("%s mode: ready to record process %d\n"), mode_name, pid);
      else
        printf (_("%s mode: ready to record processes of this user\n"), mode_name);
      return TRUE;
    }
  printf (_("%s mode: %s\n"), mode_name, error->message);
  return FALSE;
}

int
fc_cli_doctor (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  FcAttachFacts facts;
  int pid = 0;
  gboolean wall_ok;
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, N_("Check what stands in the way of recording PID"), "PID" },
    { NULL }
  };

  context = g_option_context_new (_("- check that this system lets the profiler attach"));
  g_option_context_set_summary (context,
                                _("Prints Yama's ptrace_scope, perf_event_paranoid, the memory perf buffers\n"
                                  "may lock and the user's rights, then whether wall and cpu mode can record\n"
                                  "(PID with --pid), naming what stands in the way and the fix.\n"
                                  "\n"
                                  "Exit status: 0 when nothing stands in the way of wall mode, 1 when\n"
                                  "something does, 2 on bad usage."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli doctor: %s\n", error->message);
      return 2;
    }
  if (argc > 1 || pid < 0)
    {
      fprintf (stderr, "flamecast-cli doctor: %s\n", _("give at most --pid PID"));
      return 2;
    }

  fc_attach_facts_read ("/proc", &facts);
  if (facts.ptrace_scope < 0)
    printf (_("Yama ptrace_scope: not present\n"));
  else
    printf (_("Yama ptrace_scope: %d\n"), facts.ptrace_scope);
  printf (_("perf_event_paranoid: %d\n"), facts.perf_event_paranoid);
  {
    g_autofree char *mlock = fc_attach_describe_mlock (&facts);

    /* what cpu mode's ring buffers may lock: where "Cannot map the perf ring buffer" comes from */
    printf (_("locked memory for perf buffers: %s\n"), mlock);
  }
  printf (_("user: uid %u%s\n"), (guint) facts.euid,
          facts.cap_sys_ptrace ? _(", with CAP_SYS_PTRACE") : "");
  if (facts.in_container)
    printf (_("container: yes%s\n"),
            facts.cap_sys_ptrace ? "" : _(" (without CAP_SYS_PTRACE: if attaching fails, run it with "
                                          "--cap-add=SYS_PTRACE and a seccomp profile that allows ptrace)"));
  printf (_("launching a command (record -- COMMAND): always possible\n"));

  /* wall mode is what record uses by default: it decides the exit status */
  wall_ok = report (pid, FC_SAMPLER_MODE_WALL);
  report (pid, FC_SAMPLER_MODE_CPU);
  return wall_ok ? 0 : 1;
}
