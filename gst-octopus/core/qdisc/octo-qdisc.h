/* gst-octopus core: the queue-discipline interface.
 *
 * One discipline is one file with one state struct and a table of operations
 * (as Linux's Qdisc_ops and Mahimahi's AbstractPacketQueue).  A queue is
 * created from a spec string "NAME[:key=value,...]"; every discipline accepts
 * "limit" (the buffer in bytes) besides its own keys.  Times in arguments are
 * "5ms", "500us", "1s" or a plain number of milliseconds; sizes "375000",
 * "375KB" or "64KiB".
 *
 * Like the engine, a queue never reads a clock and never frees payloads: it
 * returns them through dequeue or the drop callback, exactly once.  Packets
 * that are not Octopus packets (tagged = FALSE) pass as plain FIFO traffic. */
#pragma once

#include "octo-engine.h"

G_BEGIN_DECLS

#define OCTO_QDISC_ERROR (octo_qdisc_error_quark ())
GQuark octo_qdisc_error_quark (void);

typedef enum {
  OCTO_QDISC_ERROR_UNKNOWN_NAME,
  OCTO_QDISC_ERROR_UNKNOWN_ARGUMENT,
  OCTO_QDISC_ERROR_BAD_VALUE,
} OctoQdiscError;

/* The largest queue limit a spec may give: 1 GiB is already minutes of
 * queueing at cellular rates, and a queue holds its limit in memory. */
#define OCTO_QDISC_MAX_LIMIT_BYTES (G_GUINT64_CONSTANT (1) << 30)

typedef struct _OctoQdisc OctoQdisc;
typedef struct _OctoQdiscOps OctoQdiscOps;

/* packets_in = packets_out + the drops + what is still queued: a trimmed
 * packet stays queued, so trims are counted apart from the drops (whose
 * OCTO_DROP_TRIM entries stay 0). */
typedef struct {
  guint64 packets_in, bytes_in;
  guint64 packets_out, bytes_out;
  guint64 packets_dropped[OCTO_DROP_N_REASONS];
  guint64 bytes_dropped[OCTO_DROP_N_REASONS];
  guint64 packets_trimmed, bytes_trimmed, chunks_trimmed;
} OctoQdiscStats;

/* The packet bound of a @limit_bytes buffer: one per 64 bytes, at least 16,
 * as the engine's default limit_packets, so that a flood of tiny datagrams
 * cannot make a queue hold more descriptors (and payload buffers) than its
 * byte limit suggests. */
static inline guint32
octo_qdisc_packet_limit (guint64 limit_bytes)
{
  return (guint32) CLAMP (limit_bytes / 64, 16, G_MAXUINT32);
}

/* Settings a queue gets from its owner rather than from the spec string. */
typedef struct {
  guint64 limit_bytes;          /* default buffer; "limit=" overrides it */
  /* Called for every discarded packet, and with OCTO_DROP_TRIM for every
   * trimmed one: that packet stays queued and @packet->size is the number
   * of bytes cut off it. */
  OctoDropFunc drop_func;
  gpointer user_data;
  guint64 seed;                 /* randomised disciplines (PIE) */
} OctoQdiscEnv;

void octo_qdisc_env_init (OctoQdiscEnv *env);

/* NULL with OCTO_QDISC_ERROR set and a message naming the discipline, the
 * culprit and what was expected. */
OctoQdisc *octo_qdisc_new (const gchar *spec, const OctoQdiscEnv *env,
    GError **error);
/* Payloads still queued are not handed back: dequeue them first. */
void octo_qdisc_free (OctoQdisc *qdisc);

const gchar *octo_qdisc_name (const OctoQdisc *qdisc);
guint64 octo_qdisc_limit_bytes (const OctoQdisc *qdisc);
/* octo_qdisc_packet_limit (limit_bytes), for every discipline. */
guint32 octo_qdisc_limit_packets (const OctoQdisc *qdisc);

/* Queues @packet arriving at @now.  @payload and *@payload_len (may be NULL)
 * are the datagram's bytes, which a trimming discipline may shorten in place:
 * it then lowers *@payload_len and @packet->size by the bytes it cut.
 * Returns FALSE if the packet was discarded (the drop callback has been
 * called). */
gboolean octo_qdisc_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    guint8 *payload, gsize *payload_len, OctoTime now);
/* The packet that would leave next at @now, after the discipline's dequeue
 * time decisions (AQM drops).  Valid until the next call on the queue. */
const OctoPacket *octo_qdisc_peek (OctoQdisc *qdisc, OctoTime now);
gboolean octo_qdisc_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out);
guint64 octo_qdisc_queued_bytes (OctoQdisc *qdisc);
guint32 octo_qdisc_queued_packets (OctoQdisc *qdisc);
const OctoQdiscStats *octo_qdisc_get_stats (const OctoQdisc *qdisc);

/* The NULL-terminated table of disciplines, for help texts. */
const OctoQdiscOps *const *octo_qdisc_list (void);
const gchar *octo_qdisc_ops_name (const OctoQdiscOps *ops);
/* "target=5ms,interval=100ms": the keys and their defaults. */
const gchar *octo_qdisc_ops_usage (const OctoQdiscOps *ops);
const gchar *octo_qdisc_ops_summary (const OctoQdiscOps *ops);

G_END_DECLS
