/* gst-octopus core: a reliable, in-order byte stream with TCP CUBIC
 * congestion control (RFC 9438; Linux defaults: beta 0.7, C 0.4, initial
 * window 10 segments, minimum RTO 200 ms, HyStart's delay-increase exit
 * from slow start), SACK loss detection (a segment is lost once three
 * segments above it are SACKed, RFC 6675's DupThresh) and retransmission.
 * Unpaced, ACK-clocked, as Linux CUBIC without the fq qdisc.  The transport
 * of the baselines that run over TCP (AWStream-like, ViVo-like).
 *
 * Sans-IO: the shell appends app bytes, polls for the next segment to
 * transmit, and feeds back the receiver's ACKs (cumulative ACK plus up to
 * OCTO_TCP_MAX_SACK blocks) with the current time. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_TCP_MSS 1400
#define OCTO_TCP_MAX_SACK 3

typedef struct {
  guint64 start, end;           /* [start, end) of the stream */
} OctoTcpBlock;

typedef struct {
  guint64 seq;                  /* stream offset of its first byte */
  guint32 len;
  gboolean retransmission;
} OctoTcpSegment;

typedef struct {
  guint64 cumulative;           /* every byte below it arrived */
  guint n_sack;
  OctoTcpBlock sack[OCTO_TCP_MAX_SACK];  /* most recently changed first */
} OctoTcpAck;

typedef struct {
  gdouble cwnd;                 /* segments */
  gdouble ssthresh;
  OctoTime srtt, rto;
  guint64 unsent_bytes;         /* written by the app, never transmitted */
  guint64 acked_bytes;          /* the receiver has every byte below it */
  guint64 in_flight_bytes;      /* transmitted, neither ACKed nor lost */
  guint64 segments_sent, segments_retransmitted, loss_events, timeouts;
} OctoTcpStats;

typedef struct _OctoTcpSender OctoTcpSender;

OctoTcpSender *octo_tcp_sender_new (void);
void octo_tcp_sender_free (OctoTcpSender *tcp);
/* The app writes @bytes more to the stream. */
void octo_tcp_sender_write (OctoTcpSender *tcp, guint64 bytes);
/* If the window allows a segment at @now, fills @seg and returns TRUE (lost
 * segments go before new data); otherwise sets @wake to the retransmission
 * timeout (OCTO_TIME_NONE: not before the next write or ACK). */
gboolean octo_tcp_sender_poll (OctoTcpSender *tcp, OctoTime now,
    OctoTcpSegment *seg, OctoTime *wake);
void octo_tcp_sender_on_ack (OctoTcpSender *tcp, const OctoTcpAck *ack,
    OctoTime now);
void octo_tcp_sender_get_stats (const OctoTcpSender *tcp,
    OctoTcpStats *stats);

typedef struct _OctoTcpReceiver OctoTcpReceiver;

OctoTcpReceiver *octo_tcp_receiver_new (void);
void octo_tcp_receiver_free (OctoTcpReceiver *rx);
/* Takes in a segment; returns the in-order end of the stream (every byte
 * below it arrived) and fills @ack, the ACK to send back. */
guint64 octo_tcp_receiver_on_segment (OctoTcpReceiver *rx, guint64 seq,
    guint32 len, OctoTcpAck *ack);

G_END_DECLS
