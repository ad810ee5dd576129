/* gst-octopus point clouds: a small worker pool for the independent jobs of
 * one frame (its layers' Draco encodes).  octo_pc_workers_run runs jobs
 * 0..n-1 on the calling thread and threads - 1 helpers and returns when all
 * are done; jobs write their results by index, so the output does not
 * depend on which thread ran what. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A sensible default thread count: the processors, at most 4 (a frame has
 * about 20 jobs; more threads mostly add contention). */
guint octo_pc_workers_default_threads (void);

typedef struct _OctoPcWorkers OctoPcWorkers;

typedef void (*OctoPcJob) (guint index, gpointer data);

/* @threads >= 1; 1 runs every job on the caller. */
OctoPcWorkers *octo_pc_workers_new (guint threads);
void octo_pc_workers_free (OctoPcWorkers *workers);
guint octo_pc_workers_threads (const OctoPcWorkers *workers);

void octo_pc_workers_run (OctoPcWorkers *workers, guint n_jobs,
    OctoPcJob job, gpointer data);

G_END_DECLS
