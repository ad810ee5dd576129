/* gst-octopus core: transport-wide congestion control feedback
 * (draft-holmer-rmcat-transport-wide-cc-extensions-01) turned into
 * octo-flight's ACKs.
 *
 * The RTP sender numbers each packet it transmits with a 16-bit TWCC
 * sequence number and records it here with the flight's 64-bit sequence
 * number.  Feedback (rtpsession's RTPTWCCPackets event: per sequence number
 * received or lost, and the receiver's arrival time) becomes one ACK per
 * received packet, each with its own ACK time.
 *
 * ACK times come from the receiver's arrival timestamps.  Feedback is
 * batched (rtpsession answers per marker bit or per ~100 packets), so
 * taking the feedback's own arrival as every packet's ACK time would make a
 * whole frame look delivered in one instant: ACK compression, which
 * inflates delivery-rate samples and BBR's max filter.  Instead each
 * arrival is mapped onto our clock with the smallest offset (our time a
 * feedback arrived minus its newest arrival) of the last
 * OCTO_TWCC_OFFSET_BATCHES feedbacks: the feedback that waited least.  So
 * delivery intervals are the path's, within a batch and across batches
 * whose feedback waited differently long, and ACK times are never in the
 * future; a receiver clock that jumps or drifts is followed by the
 * window.  The two clocks never need to agree.
 *
 * Sequence numbers that name nothing recorded (never sent by us, e.g.
 * numbered upstream and then dropped by the send buffer's rules, or older
 * than the record window) are ignored, never counted as path loss; packets
 * the feedback reports lost are left to octo-flight's own loss detection. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

/* Sent packets remembered for feedback: half the 16-bit space, so a
 * sequence number is never ambiguous. */
#define OCTO_TWCC_WINDOW 32768
/* Feedbacks whose clock offset the smallest is taken of. */
#define OCTO_TWCC_OFFSET_BATCHES 16

typedef struct {
  guint16 seqnum;
  gboolean lost;                /* not received */
  OctoTime remote_ts;           /* receiver's clock; ignored when lost */
  guint32 size;                 /* payload bytes as reported; 0 = unknown */
} OctoTwccReport;

typedef struct {
  guint64 flight_seq;
  OctoTime ack_time;
} OctoTwccAck;

typedef struct {
  guint64 packets_recorded;
  guint64 reports;              /* every report fed */
  guint64 reports_received;     /* matched a recorded packet, acked */
  guint64 reports_lost;         /* matched a recorded packet, not received */
  guint64 reports_unknown;      /* named no recorded packet: ignored */
  guint64 reports_repeated;     /* a packet already acked */
  guint64 size_mismatches;      /* reported size differs from recorded */
} OctoTwccStats;

typedef struct _OctoTwcc OctoTwcc;

OctoTwcc *octo_twcc_new (void);
void octo_twcc_free (OctoTwcc *twcc);

/* The packet numbered @seqnum left at @now; the flight knows it as
 * @flight_seq; @payload_size is its RTP payload length (what rtpsession
 * reports back). */
void octo_twcc_on_sent (OctoTwcc *twcc, guint16 seqnum, guint64 flight_seq,
    guint32 payload_size, OctoTime now);

/* One feedback of @n reports received at @now.  Writes at most @n ACKs to
 * @acks, in report order, with non-decreasing ack times that are never
 * before the packet was sent nor after @now; returns how many. */
guint octo_twcc_on_feedback (OctoTwcc *twcc, const OctoTwccReport *reports,
    guint n, OctoTime now, OctoTwccAck *acks);

const OctoTwccStats *octo_twcc_get_stats (const OctoTwcc *twcc);

G_END_DECLS
