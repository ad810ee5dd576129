/* gst-octopus core: packets in flight, delivery-rate samples and loss.
 *
 * Tracks every transmitted packet until it is ACKed or declared lost and
 * turns ACKs into delivery-rate samples as in draft-cheng-iccrg-delivery-
 * rate-estimation (the estimator Linux TCP and BBR use): each packet
 * remembers how much had been delivered when it was sent, so
 * delivered-since / elapsed is the rate the path actually delivered.
 * Elapsed is the longer of the send interval and the delivery interval;
 * the delivery interval is taken between the receiver's arrival times
 * where the ACKs carry them (OCTO_ACK_FLAG_TIMESTAMPS), else between our
 * ACK times, which an ACK held back on its way stretches.
 *
 * Samples taken while the sender had nothing to send are app-limited, as
 * in the draft, unless the path evidently could not carry what was sent
 * (see OCTO_FLIGHT_PATH_LIMITED_MARGIN).
 *
 * A packet is lost once a packet sent more than OCTO_FLIGHT_REORDER_PACKETS
 * after it was ACKed (packet threshold: with 3, the 4th newer one; RFC
 * 9002's kPacketThreshold of 3 declares it at the 3rd) or it stayed
 * unacknowledged for max(3 x srtt, 100 ms).  Sizes are link bytes. */
#pragma once

#include "octo-packet.h"

G_BEGIN_DECLS

#define OCTO_FLIGHT_REORDER_PACKETS 3
#define OCTO_FLIGHT_MIN_TIMEOUT (100 * OCTO_MSECOND)
#define OCTO_FLIGHT_TIMEOUT_RTTS 3
/* Before the first RTT sample (TCP's initial RTO, RFC 6298). */
#define OCTO_FLIGHT_INITIAL_TIMEOUT (1 * OCTO_SECOND)
/* A sample whose send rate exceeds its delivery rate by more than
 * 1/MARGIN (here 25 %) is path-limited even if the sender ran out of data. */
#define OCTO_FLIGHT_PATH_LIMITED_MARGIN 4

typedef struct {
  guint64 delivery_rate;        /* bits/s; 0 if this ACK gave no valid sample */
  gboolean is_app_limited;
  OctoTime interval;
  guint64 delivered;            /* bytes delivered over @interval */
  guint64 prior_delivered;      /* connection's delivered count when sent */
  OctoTime rtt;                 /* of the newest acked packet; 0 if none */
  guint64 newly_acked;          /* bytes */
  guint64 newly_lost;           /* bytes */
  guint64 last_acked_seq;       /* newest seq acked by this ACK */
} OctoRateSample;

typedef struct {
  guint64 packets_sent, bytes_sent;
  guint64 packets_acked, bytes_acked;
  guint64 packets_lost, bytes_lost;
  guint64 acks_ignored;         /* ranges naming seqs never sent */
} OctoFlightStats;

typedef struct _OctoFlight OctoFlight;

OctoFlight *octo_flight_new (void);
void octo_flight_free (OctoFlight *flight);

/* Records a transmission and returns its (64-bit) sequence number; the
 * packet carries its low 32 bits. */
guint64 octo_flight_on_sent (OctoFlight *flight, guint32 bytes, OctoTime now);

/* The sender had nothing to send while the window allowed it: samples taken
 * until the current flight is delivered may underestimate the path. */
void octo_flight_mark_app_limited (OctoFlight *flight);

/* Processes an ACK; @rs describes what it delivered. */
void octo_flight_on_ack (OctoFlight *flight, const OctoAck *ack,
    OctoTime now, OctoRateSample *rs);

/* A queue trimmed @bytes off packet @seq32 (its low 32 bits) on the way
 * (QUCO): while it is outstanding, it counts only what is left, in flight
 * and when its ACK delivers it, so rate samples measure what crossed the
 * link.  FALSE (nothing changed) if it is not outstanding or @bytes is not
 * below its size. */
gboolean octo_flight_on_trimmed (OctoFlight *flight, guint32 seq32,
    guint32 bytes);

/* Declares timed-out packets lost; returns the bytes. */
guint64 octo_flight_on_timer (OctoFlight *flight, OctoTime now);
/* How long a packet may go unacknowledged before it is lost: max(3 x
 * srtt, 100 ms), 1 s before the first RTT sample. */
OctoTime octo_flight_loss_timeout (const OctoFlight *flight);
/* When the oldest packet in flight times out; OCTO_TIME_NONE if none. */
OctoTime octo_flight_next_timeout (const OctoFlight *flight);

/* Whether packet @seq was sent and is neither ACKed nor declared lost. */
gboolean octo_flight_outstanding (const OctoFlight *flight, guint64 seq);
guint64 octo_flight_inflight (const OctoFlight *flight);
gboolean octo_flight_is_app_limited (const OctoFlight *flight);
OctoTime octo_flight_srtt (const OctoFlight *flight);
/* The sRTT is stale (no sample for a long while): the next RTT sample
 * replaces it, as the first did, instead of being smoothed into it; until
 * then it stands. */
void octo_flight_expire_srtt (OctoFlight *flight);
OctoTime octo_flight_min_rtt (const OctoFlight *flight);
const OctoFlightStats *octo_flight_get_stats (const OctoFlight *flight);

G_END_DECLS
