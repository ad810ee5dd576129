/* gst-octopus core: the receiver's record of received sequence numbers and
 * its ACK schedule.
 *
 * Keeps the newest OCTO_ACK_MAX_RANGES disjoint ranges of received seqs
 * (older ones are forgotten: the sender has declared them lost long ago).
 * An ACK is due once @ack_every packets arrived since the last one, or
 * @max_delay after the first of them. */
#pragma once

#include "octo-packet.h"

G_BEGIN_DECLS

typedef struct {
  OctoAckRange ranges[OCTO_ACK_MAX_RANGES];     /* newest first */
  guint n_ranges;
  guint32 ack_every;
  OctoTime max_delay;
  guint32 pending;              /* packets since the last ACK */
  OctoTime pending_since;
  OctoTime largest_arrival;     /* arrival time of ranges[0].last */
  guint64 duplicates;
} OctoAcker;

#define OCTO_ACKER_DEFAULT_EVERY 2
#define OCTO_ACKER_DEFAULT_DELAY (1 * OCTO_MSECOND)

void octo_acker_init (OctoAcker *acker, guint32 ack_every, OctoTime max_delay);

/* Records @seq; FALSE if it was already recorded (a duplicate). */
gboolean octo_acker_on_packet (OctoAcker *acker, guint32 seq, OctoTime now);

/* When the next ACK is due; OCTO_TIME_NONE if nothing is pending. */
OctoTime octo_acker_deadline (const OctoAcker *acker);

/* Fills @ack with the current ranges and the arrival time of the newest
 * (flags TIMESTAMPS; conn_id and path_id 0) and restarts the schedule.
 * FALSE if nothing was ever received. */
gboolean octo_acker_build (OctoAcker *acker, OctoTime now, OctoAck *ack);

G_END_DECLS
