/* octopus-shim: what a datagram is, and the queue's view of it.
 *
 * Octopus transport packets carry the header first; RTP and SRTP packets
 * carry it as a header extension (octo-rtpext.h) whose id is given or
 * learned per user and direction.  Everything else (STUN, DTLS, RTCP, RTP
 * without the extension) is plain FIFO traffic.  Pure: no I/O. */
#pragma once

#include "octo-engine.h"
#include "octo-rtpext.h"
#include "shim-addr.h"

/* Tagged RTP is keyed by SSRC, wherever it comes from (RFC 3550: the SSRC
 * names the source); this bit keeps SSRC keys apart from address keys. */
#define SHIM_SOURCE_SSRC (G_GUINT64_CONSTANT (1) << 63)

typedef struct {
  guint8 rtp_ext_id;            /* from the command line; NONE: learn */
  OctoRtpextLearner learner;
  guint64 kinds[OCTO_DGRAM_N_KINDS];
  guint64 rtp_tagged;           /* RTP packets queued by their extension */
  OctoHeaderCache header_cache; /* the last Octopus header parsed */
} ShimClassifier;

void shim_classifier_init (ShimClassifier *c, guint8 rtp_ext_id);
/* The id in use: the given one, or the learned one, or NONE. */
guint8 shim_classifier_rtp_ext_id (const ShimClassifier *c);

/* Fills @op's tagged, header and source (@addr_key, or the SSRC for RTP
 * with the extension) for the datagram @data.  Returns the Octopus header's
 * parse result (OCTO_PARSE_NOT_OCTOPUS for traffic without one). */
OctoParseResult shim_classify (ShimClassifier *c, const guint8 *data,
    gsize len, guint64 addr_key, OctoPacket *op);

/* --shell: a whole IP packet (IPv4, or IPv6 without extension headers).
 * Sets @source to its source address (and UDP port) and returns the offset
 * of the UDP payload, or -1 for anything but a well-formed unfragmented
 * UDP datagram (TCP, ICMP, fragments), which is then plain traffic. */
gssize shim_ip_udp_payload (const guint8 *ip, gsize len, ShimAddr *source);

/* shim_classify() for the UDP payload of the IP packet @ip. */
OctoParseResult shim_classify_ip (ShimClassifier *c, const guint8 *ip,
    gsize len, ShimAddr *source, OctoPacket *op);
