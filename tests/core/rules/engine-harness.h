/* Drives an OctoEngine in tests and logs every outcome compactly:
 * "+s/m" sent, "-s/m:reason" dropped (s = stream, m = msg_id). */
#pragma once

#include "octo-engine.h"

typedef struct {
  guint8 priority;
  gboolean drop;
  guint8 threshold;
  guint64 bitrate;
  guint16 slack_ms;
} Tags;

typedef struct {
  OctoEngine *engine;
  GString *log;
  guint outstanding;            /* payloads not yet handed back */
  guint32 connection;           /* the packets' connection id (0: none) */
} Harness;

Harness *harness_new (guint64 limit_bytes, OctoBwSource bw_source);
Harness *harness_new_full (const OctoEngineConfig *config);
void harness_free (Harness *h);
/* Enqueues n_packets of @size bytes as message @msg_id of (source, stream). */
void harness_message (Harness *h, guint64 source, guint16 stream,
    guint32 msg_id, guint n_packets, guint32 size, const Tags *tags,
    OctoTime now);
/* Enqueues packets [first, first + count) of a message of @total packets. */
void harness_packets (Harness *h, guint64 source, guint16 stream,
    guint32 msg_id, guint first, guint count, guint total, guint32 size,
    const Tags *tags, OctoTime now);
/* Dequeues up to @n packets at @now (G_MAXUINT = until empty). */
guint harness_dequeue (Harness *h, guint n, OctoTime now);
/* Returns the log so far (space separated) and clears it. */
gchar *harness_take_log (Harness *h);
