/* gst-octopus core: the Octopus transport's sending logic over RTP.
 *
 * Sans-IO, like octo-sender.h, but the packets are the payloader's RTP
 * packets (opaque here) and the feedback is transport-wide congestion
 * control (octo-twcc.h) instead of Octopus ACKs.  Packets wait in the send
 * session's buffer (octo-send-session.h, the transport's own skeleton)
 * keyed by SSRC, whose bandwidth is the controller's bottleneck estimate,
 * so a source faster than the path fills the buffer and the dropping rules
 * decide what goes; packets leave when the pacer and the window allow.
 * Nothing is retransmitted, and there is no padding: the app is expected
 * to overshoot the estimate (paper 000 §6.2).
 *
 * Only packets that carry a TWCC sequence number are tracked in flight:
 * feedback cannot speak of the others, which are paced but never ACKed.
 *
 * Transport-wide feedback comes in batches (a browser every 50-250 ms, a
 * GStreamer 1.22 receiver with its RTCP, often 200 ms and more apart), not
 * per packet like the transport's ACKs.  BBR's window (2 x BDP over the
 * shortest RTT) would then cap the rate at window / feedback gap, and the
 * flight's loss timeout would call packets lost that are merely unreported.
 * So each batch tells the path its hold-back (how long its first arrival
 * waited to be reported), and the path extends the window and the loss
 * timeout by the largest recent one (octo-send-path.h).  An outage, with
 * nothing to report, is no hold-back: the gap between feedbacks across it
 * would grant a window of seconds afterwards.
 *
 * Until the first feedback arrives (a GStreamer 1.22 receiver sends its
 * first RTCP seconds into the call) there is no RTT and no window to speak
 * of: the path paces at initial_rate, like GCC at its start estimate,
 * instead of stalling on BBR's initial window and timing packets out.
 *
 * An outage asks the application for a key frame (restart_after,
 * octo-send-session.h). */
#pragma once

#include "octo-send-session.h"
#include "octo-twcc.h"

G_BEGIN_DECLS

/* Link bytes of an RTP packet beyond its RTP bytes: IPv4 + UDP headers and
 * the SRTP authentication tag (HMAC-SHA1-80). */
#define OCTO_RTP_LINK_OVERHEAD (28 + 10)

typedef struct {
  OctoSenderCc cc;
  guint32 mss;                  /* link bytes of a full packet */
  guint64 buffer_bytes;         /* send buffer, link bytes */
  gboolean rules;               /* FALSE: drop-tail */
  guint64 max_rate;             /* cap on pacing and estimate, bits/s; 0 = none
                                 * (OCTO_SENDER_FIXED: the rate) */
  guint64 initial_rate;         /* pacing before any feedback; 0 = BBR's */
  guint32 seed;
  GDestroyNotify free_data;     /* releases a packet the buffer dropped */
  /* octo_rtp_sender_take_restart(); 0: never */
  OctoTime restart_after;
} OctoRtpSenderConfig;

#define OCTO_RTP_SENDER_DEFAULT_MSS (1200 + OCTO_RTP_LINK_OVERHEAD)

void octo_rtp_sender_config_init (OctoRtpSenderConfig *config);

typedef struct {
  OctoSendStats session;        /* cwnd with the hold-back allowance */
  guint64 packets_submitted, packets_untagged, packets_untracked;
  guint64 feedbacks;
  const OctoTwccStats *twcc;
} OctoRtpSenderStats;

/* One packet to transmit now. */
typedef struct {
  gpointer data;
  gboolean has_twcc;            /* write @twcc_seq into its TWCC extension */
  guint16 twcc_seq;
} OctoRtpSend;

typedef struct _OctoRtpSender OctoRtpSender;

OctoRtpSender *octo_rtp_sender_new (const OctoRtpSenderConfig *config,
    OctoTime now);
/* Releases queued packets with config->free_data. */
void octo_rtp_sender_free (OctoRtpSender *sender);

/* Queues one RTP packet of @rtp_bytes bytes (@payload_bytes of payload)
 * from @ssrc.  @header: its Octopus parameters (msg_id, first/last as the
 * extension carried them), NULL for a packet without them (plain FIFO).
 * @has_twcc: it carries a TWCC extension the sender may number.  Returns
 * FALSE if the buffer discarded it at once (@data was freed). */
gboolean octo_rtp_sender_submit (OctoRtpSender *sender, gpointer data,
    guint32 rtp_bytes, guint32 payload_bytes, guint32 ssrc,
    const OctoHeader *header, gboolean has_twcc, OctoTime now);

/* If a packet may leave at @now, fills @out and returns TRUE; the caller
 * now owns out->data.  Otherwise sets @wake to when to poll again
 * (OCTO_TIME_NONE: not before the next submit or feedback). */
gboolean octo_rtp_sender_poll (OctoRtpSender *sender, OctoTime now,
    OctoRtpSend *out, OctoTime *wake);

/* See octo_send_session_take_restart(); octo_rtp_sender_poll()'s @wake
 * includes the moment. */
gboolean octo_rtp_sender_take_restart (OctoRtpSender *sender, OctoTime now);
/* Transport-wide feedback received at @now. */
void octo_rtp_sender_on_feedback (OctoRtpSender *sender,
    const OctoTwccReport *reports, guint n, OctoTime now);

/* The bottleneck estimate (capped by max_rate), bits/s of link bytes;
 * OCTO_BW_UNKNOWN before the first sample. */
guint64 octo_rtp_sender_bandwidth (const OctoRtpSender *sender);
/* The rate the encoder should aim at (octo_send_path_app_rate). */
guint64 octo_rtp_sender_app_rate (const OctoRtpSender *sender);
guint32 octo_rtp_sender_queued_packets (const OctoRtpSender *sender);
void octo_rtp_sender_get_stats (const OctoRtpSender *sender,
    OctoRtpSenderStats *stats);

G_END_DECLS
