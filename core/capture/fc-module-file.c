/* fc-module-file.c - an ELF file mapped once for every process that maps it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Following children, a build runs the same compiler, shell and libraries thousands of times:
 * each process's modules read the same files. One mapping per file (same device, inode, size
 * and modification time) serves them all, and what is derived from a file alone (its symbol
 * table) hangs on it, built once. Files no process holds stay mapped, the most recent few, so
 * children that run one after the other find them.
 */

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc-module-file.h"

/* files no module holds that stay mapped for the next process */
#define IDLE_MAX 64

typedef struct {
  dev_t   dev;
  ino_t   ino;
  off_t   size;
  gint64  mtime_ns;
} FileKey;

struct _FcModuleFile {
  FileKey       key;
  guint         ref_count;   /* under files_lock */
  const guint8 *data;
  gsize         size;
  GData        *shared;      /* under files_lock */
  GList        *idle_link;   /* in idle while no module holds it */
};

static GMutex files_lock;
static GHashTable *files;    /* FileKey* -> FcModuleFile*, under files_lock */
static GQueue idle = G_QUEUE_INIT;
static guint n_mapped;

static guint
file_key_hash (gconstpointer p)
{
  const FileKey *k = p;

  return (guint) k->ino ^ (guint) k->dev * 31u ^ (guint) k->size * 17u ^ (guint) k->mtime_ns;
}

static gboolean
file_key_equal (gconstpointer a,
                gconstpointer b)
{
  const FileKey *x = a, *y = b;

  return x->dev == y->dev && x->ino == y->ino && x->size == y->size && x->mtime_ns == y->mtime_ns;
}

/* under files_lock */
static void
file_free (FcModuleFile *self)
{
  g_hash_table_remove (files, &self->key);
  g_datalist_clear (&self->shared);
  munmap ((gpointer) self->data, self->size);
  g_free (self);
}

/* under files_lock: the file of @st, already mapped, with a reference taken; or NULL */
static FcModuleFile *
lookup_ref (const struct stat *st)
{
  FileKey key = { st->st_dev, st->st_ino, st->st_size, st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) +
                  st->st_mtim.tv_nsec };
  FcModuleFile *self;

  if (files == NULL)
    files = g_hash_table_new (file_key_hash, file_key_equal);
  self = g_hash_table_lookup (files, &key);
  if (self == NULL)
    return NULL;
  if (self->idle_link != NULL)
    {
      g_queue_delete_link (&idle, self->idle_link);
      self->idle_link = NULL;
    }
  self->ref_count++;
  return self;
}

/* The file of @st, already mapped, with a reference taken; NULL when it is not, or when it is no
 * file to map (*@mappable FALSE). */
static FcModuleFile *
find_mapped (const struct stat *st,
             gboolean          *mappable)
{
  FcModuleFile *self;

  *mappable = S_ISREG (st->st_mode) && st->st_size >= 64;
  if (!*mappable)
    return NULL;
  g_mutex_lock (&files_lock);
  self = lookup_ref (st);
  g_mutex_unlock (&files_lock);
  return self;
}

/**
 * fc_module_file_open:
 *
 * The regular file at @path, mapped read-only: the mapping another module of this or another
 * process made of the same file when there is one. NULL when it cannot be read or is no ELF
 * file.
 */
FcModuleFile *
fc_module_file_open (const char *path)
{
  FcModuleFile *self = NULL;
  gboolean mappable = FALSE;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) != 0 || (self = find_mapped (&st, &mappable)) != NULL || !mappable)
    return self;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  self = fc_module_file_open_fd (fd);
  close (fd);
  return self;
}

/**
 * fc_module_file_open_fd:
 *
 * The regular file open at @fd (which stays the caller's), mapped read-only, as
 * fc_module_file_open() maps a path: for a file only the helper can open (a sandboxed
 * Flamecast's view of the host's libraries).
 */
FcModuleFile *
fc_module_file_open_fd (int fd)
{
  FcModuleFile *self = NULL;
  gboolean mappable = FALSE;
  struct stat st;
  FileKey key;
  void *data;

  g_return_val_if_fail (fd >= 0, NULL);

  /* what is mapped is what was opened: the file may have been replaced since a stat of its path */
  if (fstat (fd, &st) != 0 || (self = find_mapped (&st, &mappable)) != NULL || !mappable)
    return self;
  key = (FileKey) { st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) +
                    st.st_mtim.tv_nsec };
  data = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED)
    return NULL;
  if (memcmp (data, "\177ELF", 4) != 0)
    {
      munmap (data, st.st_size);
      return NULL;
    }

  g_mutex_lock (&files_lock);
  n_mapped++;
  self = lookup_ref (&st);
  if (self != NULL)
    {
      /* another thread mapped it meanwhile: one mapping stays */
      munmap (data, st.st_size);
      g_mutex_unlock (&files_lock);
      return self;
    }
  self = g_new0 (FcModuleFile, 1);
  self->key = key;
  self->ref_count = 1;
  self->data = data;
  self->size = st.st_size;
  g_hash_table_insert (files, &self->key, self);
  g_mutex_unlock (&files_lock);
  return self;
}

FcModuleFile *
fc_module_file_ref (FcModuleFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&files_lock);
  self->ref_count++;
  g_mutex_unlock (&files_lock);
  return self;
}

/* The last module gone, the file stays mapped among the most recent idle ones. */
void
fc_module_file_unref (FcModuleFile *self)
{
  if (self == NULL)
    return;
  g_mutex_lock (&files_lock);
  g_assert (self->ref_count > 0);
  if (--self->ref_count == 0)
    {
      g_queue_push_head (&idle, self);
      self->idle_link = idle.head;
      while (idle.length > IDLE_MAX)
        {
          FcModuleFile *oldest = g_queue_pop_tail (&idle);
          oldest->idle_link = NULL;
          file_free (oldest);
        }
    }
  g_mutex_unlock (&files_lock);
}

const guint8 *
fc_module_file_get_data (FcModuleFile *self,
                         gsize        *size)
{
  g_return_val_if_fail (self != NULL, NULL);

  *size = self->size;
  return self->data;
}

/**
 * fc_module_file_dup_shared:
 * @copy: takes a reference to the data (its second argument NULL), under the files' lock
 *
 * What fc_module_file_set_shared() hung on the file under @key, with a reference taken by
 * @copy; NULL when nothing is.
 */
gpointer
fc_module_file_dup_shared (FcModuleFile  *self,
                           GQuark         key,
                           GCopyFunc      copy)
{
  gpointer data;

  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&files_lock);
  data = g_datalist_id_get_data (&self->shared, key);
  if (data != NULL)
    data = copy (data, NULL);
  g_mutex_unlock (&files_lock);
  return data;
}

/* Hangs @data, derived from the file alone, on it for every later module of the same file;
 * what was there under @key is let go with its own destroy function. */
void
fc_module_file_set_shared (FcModuleFile  *self,
                           GQuark         key,
                           gpointer       data,
                           GDestroyNotify destroy)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&files_lock);
  g_datalist_id_set_data_full (&self->shared, key, data, destroy);
  g_mutex_unlock (&files_lock);
}

/* Lets go of the files no module holds (and what hangs on them): a recording that ends need not
 * keep them for the next one. */
void
fc_module_file_release_idle (void)
{
  FcModuleFile *file;

  g_mutex_lock (&files_lock);
  while ((file = g_queue_pop_tail (&idle)) != NULL)
    {
      file->idle_link = NULL;
      file_free (file);
    }
  g_mutex_unlock (&files_lock);
}

/* Files mapped so far by this process, for tests and benchmarks: modules of the same file
 * share one mapping. */
guint
fc_module_file_get_n_mapped (void)
{
  guint n;

  g_mutex_lock (&files_lock);
  n = n_mapped;
  g_mutex_unlock (&files_lock);
  return n;
}
