/* test-unwinder.c - DWARF unwinding of captured stacks from optimized programs without frame pointers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-error.h"
#include "fc-proc-maps.h"
#include "fc-sampler.h"
#include "fc-symbolizer.h"
#include "fc-unwinder.h"
#include "fc-test-util.h"

typedef struct {
  GAsyncQueue *queue;
} Sink;

static void
sink_cb (FcSnapshot *snap,
         gpointer    user_data)
{
  Sink *sink = user_data;
  g_async_queue_push (sink->queue, snap);
}

typedef struct {
  guint n_stacks;
  guint n_steady;       /* of threads that had reached their start routine (see count_stack) */
  guint n_complete;     /* of those: unwound to the end */
  guint n_rooted;       /* of those: reach main or the thread start routine */
  guint n_a, n_b;       /* stacks through hot_a / hot_b */
  guint n_plugin;       /* leaf in the dlopen()ed library */
  gboolean plugin_in_app;
  GHashTable *functions;
  GHashTable *started;  /* tids */
} Result;

static gboolean
has_function (const FcSymbol **syms,
              guint            n,
              const char      *name)
{
  for (guint i = 0; i < n; i++)
    for (const FcSymbol *s = syms[i]; s != NULL; s = s->caller)
      if (strcmp (s->function, name) == 0)
        return TRUE;
  return FALSE;
}

static void
count_stack (Result             *result,
             const char * const *roots,
             int                 tid,
             const FcSymbol    **syms,
             guint               n,
             gboolean            complete)
{
  gboolean rooted = FALSE;

  for (guint r = 0; roots[r] && !rooted; r++)
    rooted = has_function (syms, n, roots[r]);
  result->n_stacks++;
  /* A thread counts from its first stack through its start routine on: before that it is
   * being born (clone3) or the program is starting (ld.so, libc's initialisation), which a
   * loaded machine makes a bigger share of the stacks. */
  if (rooted)
    g_hash_table_add (result->started, GINT_TO_POINTER (tid));
  if (g_hash_table_contains (result->started, GINT_TO_POINTER (tid)))
    {
      result->n_steady++;
      result->n_complete += complete;
      result->n_rooted += rooted;
      if (!rooted)
        g_test_message ("not rooted: %s (%u frames, %s)", syms[0]->function, n, complete ? "complete" : "incomplete");
    }
  result->n_a += has_function (syms, n, "hot_a");
  result->n_b += has_function (syms, n, "hot_b");
  if (strcmp (syms[0]->function, "plugin_burn") == 0)
    {
      result->n_plugin++;
      result->plugin_in_app = syms[0]->in_app && syms[0]->module != NULL &&
                              g_str_has_suffix (syms[0]->module->path, "libfcplugin.so");
    }
}

/* Samples a spawned command in wall or cpu mode, then unwinds and symbolizes every snapshot. */
/* With @enough > 0 the recording ends once that many stacks are unwound (however loaded the
 * machine is) and the target is then terminated; otherwise it ends when the target exits. */
static void
record (const char * const *argv,
        FcSamplerMode       mode,
        guint               frequency,
        const char * const *roots,
        guint               enough,
        Result             *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProcMaps) maps = NULL;
  g_autoptr(FcUnwinder) unwinder = NULL;
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  Sink sink = { g_async_queue_new () };
  FcSampler *sampler = fc_sampler_new (sink_cb, &sink);
  gboolean exited = FALSE;
  int status = -1;

  memset (result, 0, sizeof *result);
  result->functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  result->started = g_hash_table_new (NULL, NULL);

  g_assert_true (fc_sampler_spawn (sampler, argv, NULL, mode, &error));
  g_assert_no_error (error);
  maps = fc_proc_maps_new (fc_sampler_get_pid (sampler));
  unwinder = fc_unwinder_new (maps);
  symbolizer = fc_symbolizer_new (maps);
  g_assert_true (fc_sampler_start (sampler, frequency, 32768, &error));
  g_assert_no_error (error);

  /* unwind while the target lives, as the recorder does */
  while (!exited)
    {
      FcSnapshot *snap;

      if (enough > 0 && result->n_stacks >= enough)
        {
          GPid pid = fc_sampler_get_pid (sampler);
          fc_sampler_stop (sampler);
          fc_sampler_detach (sampler);
          kill (pid, SIGTERM);
          g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
          g_assert_true (WIFSIGNALED (status));
          g_assert_cmpint (WTERMSIG (status), ==, SIGTERM);
          break;
        }
      snap = g_async_queue_pop (sink.queue);
      guint64 ips[256];
      const FcSymbol *syms[256];
      gboolean complete;
      guint n;

      switch (snap->kind)
        {
        case FC_SNAPSHOT_EXEC:
          fc_proc_maps_forget (maps);
          fc_proc_maps_reload (maps, NULL);
          fc_unwinder_flush (unwinder);
          break;
        case FC_SNAPSHOT_TARGET_EXIT:
          exited = TRUE;
          status = snap->status;
          break;
        case FC_SNAPSHOT_SAMPLE:
          n = fc_unwinder_unwind (unwinder, snap, ips, G_N_ELEMENTS (ips), &complete);
          g_assert_cmpuint (n, >, 0);
          g_assert_cmpuint (ips[0], ==, snap->regs[16]);   /* the leaf is the PC */
          for (guint i = 0; i < n; i++)
            {
              syms[i] = fc_symbolizer_lookup (symbolizer, ips[i], i > 0);
              g_assert_nonnull (syms[i]->function);
              g_assert_cmpstr (syms[i]->function, !=, "");
              for (const FcSymbol *s = syms[i]; s != NULL; s = s->caller)
                g_hash_table_add (result->functions, g_strdup (s->function));
            }
          count_stack (result, roots, snap->tid, syms, n, complete);
          break;
        default:
          break;
        }
      g_free (snap);
    }

  if (enough == 0)
    {
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    }
  fc_sampler_stop (sampler);
  fc_sampler_free (sampler);
  {
    FcSnapshot *snap;
    while ((snap = g_async_queue_try_pop (sink.queue)) != NULL)
      g_free (snap);
  }
  g_async_queue_unref (sink.queue);
}

static void
result_clear (Result *result)
{
  g_hash_table_unref (result->functions);
  g_hash_table_unref (result->started);
}

static void
check_burner (FcSamplerMode mode,
              guint         frequency)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *script = g_strdup_printf ("exec '%s' -s 30 -t 2 > /dev/null", burner);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  const char *roots[] = { "main", "thread_main", NULL };
  Result r;
  double margin;

  /* 800 stacks: the split's standard deviation is 1.6 points */
  record (argv, mode, frequency, roots, 800, &r);
  g_test_message ("%u stacks, %u of running threads: %u complete, %u rooted; hot_a %u, hot_b %u",
                  r.n_stacks, r.n_steady, r.n_complete, r.n_rooted, r.n_a, r.n_b);

  /* at least 95% of the stacks of running threads unwind all the way to main or the thread's
   * start routine */
  g_assert_cmpuint (r.n_steady, >, 0);
  g_assert_cmpuint (r.n_rooted * 100, >=, r.n_steady * 95);
  g_assert_cmpuint (r.n_complete * 100, >=, r.n_steady * 95);
  /* the true split is 70/30: hot_a's share of the stacks through either, within five
   * standard deviations of a binomial count (about 8 points at 800 stacks) */
  margin = fc_test_binomial_margin (r.n_a + r.n_b, 0.7);
  g_test_message ("hot_a %u of %u, expected %.1f +- %.1f", r.n_a, r.n_a + r.n_b, 0.7 * (r.n_a + r.n_b), margin);
  g_assert_cmpfloat (r.n_a, >=, 0.7 * (r.n_a + r.n_b) - margin);
  g_assert_cmpfloat (r.n_a, <=, 0.7 * (r.n_a + r.n_b) + margin);
  /* every frame of the chain is named */
  g_assert_true (g_hash_table_contains (r.functions, "level_two"));
  g_assert_true (g_hash_table_contains (r.functions, "level_one"));
  g_assert_true (g_hash_table_contains (r.functions, "run_workload"));
  result_clear (&r);
}

static void
test_burner_wall (void)
{
  check_burner (FC_SAMPLER_MODE_WALL, 400);
}

static void
test_burner_cpu (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "0.1", NULL };

  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS,
                            "checked that cpu mode refuses to start and points to wall mode"))
    {
      g_autoptr(GError) error = NULL;
      Sink sink = { g_async_queue_new () };
      FcSampler *refused = fc_sampler_new (sink_cb, &sink);

      g_assert_false (fc_sampler_spawn (refused, argv, NULL, FC_SAMPLER_MODE_CPU, &error));
      g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "wall mode"));
      fc_sampler_free (refused);
      g_async_queue_unref (sink.queue);
      return;
    }
  check_burner (FC_SAMPLER_MODE_CPU, 1000);
}

static void
test_dlopen (void)
{
  g_autofree char *dlopen_target = fc_test_target_path ("dlopen");
  g_autofree char *plugin = g_build_filename (g_getenv ("FC_TARGETS_DIR"), "libfcplugin.so", NULL);
  g_autofree char *script = g_strdup_printf ("exec '%s' '%s' 30 > /dev/null", dlopen_target, plugin);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  /* the dynamic loader's start-up, before main, is sampled too (its stacks end in _start) */
  const char *roots[] = { "main", "_start", NULL };
  Result r;

  record (argv, FC_SAMPLER_MODE_WALL, 300, roots, 150, &r);
  g_test_message ("%u stacks, %u of running threads: %u complete, %u rooted; %u in the plugin",
                  r.n_stacks, r.n_steady, r.n_complete, r.n_rooted, r.n_plugin);
  /* a library loaded after the attach is found, unwound through and named */
  g_assert_cmpuint (r.n_plugin, >, 100);
  g_assert_true (r.plugin_in_app);
  g_assert_cmpuint (r.n_steady, >, 0);
  g_assert_cmpuint (r.n_rooted * 100, >=, r.n_steady * 95);
  result_clear (&r);
}

static void
test_threads (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  g_autofree char *script = g_strdup_printf ("exec '%s' 30 > /dev/null", threads);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  /* the dynamic loader's start-up and a thread's own (before its routine) are sampled too */
  const char *roots[] = { "main", "worker_main", "sleeper_main", "_start", "start_thread", NULL };
  Result r;

  record (argv, FC_SAMPLER_MODE_WALL, 200, roots, 200, &r);
  g_test_message ("%u stacks, %u of running threads: %u complete, %u rooted",
                  r.n_stacks, r.n_steady, r.n_complete, r.n_rooted);
  g_assert_cmpuint (r.n_steady, >, 0);
  g_assert_cmpuint (r.n_rooted * 100, >=, r.n_steady * 95);
  /* waiting threads are sampled too (wall mode): the sleeper is seen in its wait */
  g_assert_true (g_hash_table_contains (r.functions, "sleeper_wait"));
  g_assert_true (g_hash_table_contains (r.functions, "worker_spin"));
  result_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/unwinder/burner-wall", test_burner_wall);
  g_test_add_func ("/core/unwinder/burner-cpu", test_burner_cpu);
  g_test_add_func ("/core/unwinder/dlopen", test_dlopen);
  g_test_add_func ("/core/unwinder/threads", test_threads);

  return g_test_run ();
}
