/* fc-tsan-glib.c - GLib's locks made visible to ThreadSanitizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On Linux GMutex and GCond are futexes inside libglib, which is not
 * instrumented: ThreadSanitizer sees neither lock and reports every access
 * a GMutex guards as a data race. Linked into the tests of the
 * -Db_sanitize=thread build (make check-tsan) only, these definitions take
 * the place of GLib's for the program's own calls, call GLib's, and tell
 * ThreadSanitizer what they did: a lock taken is an acquire of the mutex's
 * address, a lock given up (unlock, or waiting on a condition) a release.
 */

#include <dlfcn.h>

#include <glib.h>

void __tsan_acquire (void *addr);
void __tsan_release (void *addr);

typedef void     (*MutexFunc)    (GMutex *mutex);
typedef gboolean (*TryFunc)      (GMutex *mutex);
typedef void     (*RecFunc)      (GRecMutex *mutex);
typedef void     (*WaitFunc)     (GCond *cond, GMutex *mutex);
typedef gboolean (*WaitUntilFunc) (GCond *cond, GMutex *mutex, gint64 end_time);

/* GLib's own definition of @name, looked up once */
#define REAL(type, name) \
  static type real; \
  if (G_UNLIKELY (real == NULL)) \
    real = (type) dlsym (RTLD_NEXT, name)

void
g_mutex_lock (GMutex *mutex)
{
  REAL (MutexFunc, "g_mutex_lock");
  real (mutex);
  __tsan_acquire (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  REAL (TryFunc, "g_mutex_trylock");
  if (!real (mutex))
    return FALSE;
  __tsan_acquire (mutex);
  return TRUE;
}

void
g_mutex_unlock (GMutex *mutex)
{
  REAL (MutexFunc, "g_mutex_unlock");
  __tsan_release (mutex);
  real (mutex);
}

void
g_rec_mutex_lock (GRecMutex *mutex)
{
  REAL (RecFunc, "g_rec_mutex_lock");
  real (mutex);
  __tsan_acquire (mutex);
}

void
g_rec_mutex_unlock (GRecMutex *mutex)
{
  REAL (RecFunc, "g_rec_mutex_unlock");
  __tsan_release (mutex);
  real (mutex);
}

void
g_cond_wait (GCond  *cond,
             GMutex *mutex)
{
  REAL (WaitFunc, "g_cond_wait");
  __tsan_release (mutex);
  real (cond, mutex);
  __tsan_acquire (mutex);
}

gboolean
g_cond_wait_until (GCond  *cond,
                   GMutex *mutex,
                   gint64  end_time)
{
  gboolean signalled;

  REAL (WaitUntilFunc, "g_cond_wait_until");
  __tsan_release (mutex);
  signalled = real (cond, mutex, end_time);
  __tsan_acquire (mutex);
  return signalled;
}

/* GAsyncQueue: what a thread pushes, the thread that pops it sees */
typedef void     (*PushFunc)     (GAsyncQueue *queue, gpointer data);
typedef gpointer (*PopFunc)      (GAsyncQueue *queue);

void
g_async_queue_push (GAsyncQueue *queue,
                    gpointer     data)
{
  REAL (PushFunc, "g_async_queue_push");
  __tsan_release (queue);
  real (queue, data);
}

gpointer
g_async_queue_pop (GAsyncQueue *queue)
{
  gpointer data;

  REAL (PopFunc, "g_async_queue_pop");
  data = real (queue);
  __tsan_acquire (queue);
  return data;
}

gpointer
g_async_queue_try_pop (GAsyncQueue *queue)
{
  gpointer data;

  REAL (PopFunc, "g_async_queue_try_pop");
  data = real (queue);
  if (data != NULL)
    __tsan_acquire (queue);
  return data;
}
