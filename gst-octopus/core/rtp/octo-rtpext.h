/* gst-octopus core: Octopus parameters in RTP (the header extension).
 *
 * The extension element's data is exactly the 12-byte Octopus header
 * (octo-wire.h): one-byte form (RFC 8285), so it fits WebRTC's default and
 * keeps the marker and CRC that make an unknown extension id learnable.
 * This file adds what RTP needs around it: demultiplexing a datagram
 * (RFC 7983/9443), walking an RTP packet's header extensions (one- and
 * two-byte forms, also under SRTP, whose headers stay in the clear), learning
 * the extension id from traffic, and the writer's first/last/msg_id state.
 * docs/wire-format.md is the byte-level reference. */
#pragma once

#include "octo-wire.h"

G_BEGIN_DECLS

/* The extension's URI (RFC 8285 a=extmap); .invalid never resolves, so it
 * can never clash with a registered one. */
#define OCTO_RTPEXT_URI "http://gst-octopus.invalid/rtp-hdrext/octopus-v1"
#define OCTO_RTPEXT_LEN OCTO_WIRE_HEADER_LEN
#define OCTO_RTPEXT_ID_NONE 0

/* What a datagram on a WebRTC 5-tuple is, by its first bytes. */
typedef enum {
  OCTO_DGRAM_EMPTY = 0,
  OCTO_DGRAM_STUN,              /* 0-3 */
  OCTO_DGRAM_OCTOPUS_CONTROL,   /* 4-7: transport ACKs */
  OCTO_DGRAM_OCTOPUS,           /* 8-15: Octopus data */
  OCTO_DGRAM_ZRTP,              /* 16-19 */
  OCTO_DGRAM_DTLS,              /* 20-63 */
  OCTO_DGRAM_RTP,               /* 128-191, payload type not RTCP's */
  OCTO_DGRAM_RTCP,              /* 128-191, packet type 192-223 (RFC 5761) */
  OCTO_DGRAM_OTHER,             /* TURN channels, QUIC, anything else */
  OCTO_DGRAM_N_KINDS
} OctoDgramKind;

const gchar *octo_dgram_kind_to_string (OctoDgramKind kind);
OctoDgramKind octo_dgram_classify (const guint8 *data, gsize len);

typedef enum {
  OCTO_RTP_PARSE_OK = 0,
  OCTO_RTP_PARSE_TRUNCATED,     /* header, CSRCs or extension block cut off */
  OCTO_RTP_PARSE_NOT_RTP,       /* version is not 2 */
  OCTO_RTP_PARSE_BAD_EXTENSION, /* an element runs past its block */
  OCTO_RTP_PARSE_N_RESULTS
} OctoRtpParseResult;

const gchar *octo_rtp_parse_result_to_string (OctoRtpParseResult result);

/* The fixed header and where the RFC 8285 extension block is. */
typedef struct {
  guint32 ssrc;
  guint16 seq;
  guint8 payload_type;
  gboolean marker;
  guint16 ext_profile;          /* 0xBEDE one-byte, 0x100x two-byte, else 0 */
  const guint8 *ext;            /* the block's elements; NULL if none */
  gsize ext_len;
} OctoRtpPacket;

/* Reads the header of an RTP or SRTP packet; never reads past @len.
 * Checks that every extension element stays inside its block. */
OctoRtpParseResult octo_rtp_parse (const guint8 *data, gsize len,
    OctoRtpPacket *out);

/* The @index-th extension element (0-based) of a parsed packet: its id and
 * data.  FALSE when there are fewer elements (or the block is neither the
 * one-byte nor the two-byte form). */
gboolean octo_rtp_ext_element (const OctoRtpPacket *rtp, guint index,
    guint8 *id, const guint8 **data, gsize *len);

/* The Octopus header carried in element @id.  OCTO_PARSE_TRUNCATED if the
 * packet has no element @id or it is not 12 bytes long. */
OctoParseResult octo_rtp_get_header (const OctoRtpPacket *rtp, guint8 id,
    OctoHeader *out);

/* Learns the extension id from traffic: an id is taken once
 * OCTO_RTPEXT_LEARN_PACKETS packets in a row carried a valid Octopus header
 * in it (each accepts random bytes with probability 2^-17, docs/design.md). */
#define OCTO_RTPEXT_LEARN_PACKETS 3

typedef struct {
  guint8 id;                    /* learned id, or OCTO_RTPEXT_ID_NONE */
  guint8 candidate;
  guint hits;
} OctoRtpextLearner;

void octo_rtpext_learner_init (OctoRtpextLearner *learner);
/* Feeds one RTP packet; returns the id learned so far (maybe NONE).  Once
 * learned, the id stays. */
guint8 octo_rtpext_learner_feed (OctoRtpextLearner *learner,
    const OctoRtpPacket *rtp);

/* The sender side: marks first/last packets and numbers messages.  A new
 * message starts after a packet that ended one, or when the caller's message
 * identity changes (a payloader that never marked the previous end). */
typedef struct {
  guint32 next_msg_id;
  guint32 msg_id;
  gboolean in_message;
  guint64 identity;
} OctoRtpextWriter;

void octo_rtpext_writer_init (OctoRtpextWriter *writer, guint32 first_msg_id);
/* For one RTP packet of the message @identity, @ends_message if it is the
 * message's last packet: sets @header's msg_id, first and last. */
void octo_rtpext_writer_next (OctoRtpextWriter *writer, guint64 identity,
    gboolean ends_message, OctoHeader *header);

G_END_DECLS
