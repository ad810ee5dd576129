/* gst-octopus point clouds: the worker pool. */
#include "pc-workers.h"

struct _OctoPcWorkers {
  guint threads;
  GThreadPool *pool;            /* threads - 1 helpers; NULL for 1 */
};

typedef struct {
  OctoPcJob job;
  gpointer data;
  gint n_jobs;
  gint next;                    /* atomic: the next job to take */
  GMutex lock;
  GCond done;
  guint helpers_left;
} Batch;

guint
octo_pc_workers_default_threads (void)
{
  return CLAMP (g_get_num_processors (), 1u, 4u);
}

static void
take_jobs (Batch *b)
{
  gint i;
  while ((i = g_atomic_int_add (&b->next, 1)) < b->n_jobs)
    b->job ((guint) i, b->data);
}

static void
helper (gpointer batch, gpointer unused)
{
  Batch *b = batch;
  (void) unused;
  take_jobs (b);
  g_mutex_lock (&b->lock);
  b->helpers_left--;
  g_cond_signal (&b->done);
  g_mutex_unlock (&b->lock);
}

OctoPcWorkers *
octo_pc_workers_new (guint threads)
{
  OctoPcWorkers *w = g_new0 (OctoPcWorkers, 1);

  g_return_val_if_fail (threads >= 1, NULL);
  w->threads = threads;
  if (threads > 1)
    w->pool = g_thread_pool_new (helper, NULL, (gint) threads - 1, TRUE,
        NULL);
  return w;
}

void
octo_pc_workers_free (OctoPcWorkers *w)
{
  if (!w)
    return;
  if (w->pool)
    g_thread_pool_free (w->pool, FALSE, TRUE);
  g_free (w);
}

guint
octo_pc_workers_threads (const OctoPcWorkers *w)
{
  return w->threads;
}

void
octo_pc_workers_run (OctoPcWorkers *w, guint n_jobs, OctoPcJob job,
    gpointer data)
{
  Batch b = { job, data, (gint) n_jobs, 0, {0}, {0}, 0 };
  guint helpers = w->pool && n_jobs > 1 ?
      MIN (w->threads - 1, n_jobs - 1) : 0;

  g_mutex_init (&b.lock);
  g_cond_init (&b.done);
  b.helpers_left = helpers;
  for (guint i = 0; i < helpers; i++)
    g_thread_pool_push (w->pool, &b, NULL);
  take_jobs (&b);
  g_mutex_lock (&b.lock);
  while (b.helpers_left > 0)
    g_cond_wait (&b.done, &b.lock);
  g_mutex_unlock (&b.lock);
  g_mutex_clear (&b.lock);
  g_cond_clear (&b.done);
}
