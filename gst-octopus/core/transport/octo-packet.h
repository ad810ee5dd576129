/* gst-octopus core: the transport's data and control packet layout,
 * transport version 2 (docs/wire-format.md is the byte-level reference).
 *
 * A data packet is the 12-byte in-network header (octo-wire.h) followed by
 * the per-packet transport fields, all big-endian:
 *
 *   version (u8 = 2)  flags (u8)  path_id (u8)  reserved (u8)
 *   conn_id (u32)  seq (u32)  send_time_us (u32)  msg_len (u32)
 *   offset (u32)  frag_index (u16)  frag_count (u16)
 *
 * Fragment 0 then carries the message info (20 bytes: capture time u64 ns,
 * frame id u32, spatial, temporal, cell and density layer u8 each, flags u8,
 * 3 zero bytes) so the receiver can restore the per-message metadata; the
 * payload follows.  conn_id, seq and send_time_us are written at
 * transmission, so packets the send buffer drops never consume sequence
 * numbers.  conn_id names the sender's connection: an unpredictable number
 * drawn at its start, as is its first seq, so that an off-path host can
 * neither forge its ACKs nor be taken for it, and a receiver tells a
 * restarted sender from the old one at once.
 *
 * flags: OCTO_DATA_FLAG_CHUNKED marks a qualitative packet (paper 004,
 * octo-qpacket.h): its payload ends in a QUCO chunk trailer that queues may
 * trim, so its length is not checked against msg_len and offset is 0;
 * OCTO_DATA_FLAG_RESENDS one whose lost packets the sender resends.
 * path_id: the path a multipath sender sent it on (0: the only path),
 * which numbers each path's seqs on its own; the reserved byte is 0.
 *
 * A control packet starts with a byte in 0x04..0x07, outside the Octopus
 * data range, so routers pass it as plain traffic.  An ACK (0x04):
 *
 *   0x04  version (u8 = 2)  n_ranges (u16, 1..32)  conn_id (u32)
 *   ack_delay_us (u32)  path_id (u8)  flags (u8)  reserved (u16 = 0)
 *   n_ranges x { first_seq (u32)  last_seq (u32) }   newest range first
 *
 * conn_id echoes the data packets'.  Every ACK repeats the newest received
 * ranges, so a lost ACK costs nothing but latency.  path_id names the path
 * whose seqs the ranges are (multipath; 0: the only path).  flags: 0x02
 * asks for a key frame (OCTO_ACK_FLAG_KEYFRAME_REQUEST); 0x01 (a
 * receive-timestamp block follows the ranges) and the others are reserved:
 * senders write 0, parsers pass them on.  The reserved u16 must be 0.
 * A NACK (0x05, paper 004 Algorithm 2) reports one data packet whose
 * chunks a queue trimmed:
 *
 *   0x05  version (u8 = 2)  path_id (u8)  trimmed (u8, 1..15)
 *   conn_id (u32)  seq (u32)
 *
 * It asks the sender to ease off in proportion to trimmed, not to resend.
 * 0x06 and 0x07 are reserved for later use. */
#pragma once

#include "octo-wire.h"

G_BEGIN_DECLS

/* The transport version of data and control packets. */
#define OCTO_TRANSPORT_VERSION 2

#define OCTO_DATA_FIELDS_LEN 28
#define OCTO_MSG_INFO_LEN 20
#define OCTO_DATA_PREFIX_LEN (OCTO_WIRE_HEADER_LEN + OCTO_DATA_FIELDS_LEN)
#define OCTO_DATA_FIRST_PREFIX_LEN (OCTO_DATA_PREFIX_LEN + OCTO_MSG_INFO_LEN)
/* Smallest MTU that leaves room for payload in every fragment. */
#define OCTO_MTU_MIN (OCTO_DATA_FIRST_PREFIX_LEN + 16)
#define OCTO_MTU_MAX 65507
#define OCTO_FRAGMENTS_MAX 65535
/* IPv4 + UDP bytes per datagram: link bytes = UDP payload + this. */
#define OCTO_LINK_OVERHEAD 28

#define OCTO_LAYER_NONE 0xff
#define OCTO_MSG_FLAG_KEYFRAME 0x01
/* A bandwidth probe: the receiver acknowledges it and discards it. */
#define OCTO_MSG_FLAG_PADDING 0x02

typedef struct {
  OctoTime capture_time;        /* OCTO_TIME_NONE if unknown */
  guint32 frame_id;
  guint8 spatial_layer;         /* OCTO_LAYER_NONE if not layered */
  guint8 temporal_layer;
  guint8 cell_id;
  guint8 density_layer;
  guint8 flags;                 /* OCTO_MSG_FLAG_* */
} OctoMsgInfo;

void octo_msg_info_init (OctoMsgInfo *info);

/* Data packet flags. */
/* The payload is a qualitative packet ending in a chunk trailer. */
#define OCTO_DATA_FLAG_CHUNKED 0x01
/* ... whose chunks are all equally significant (recovered only whole). */
#define OCTO_DATA_FLAG_CHUNKS_EQUAL 0x02
/* The sender resends this message's lost packets (a multipath key frame,
 * octo-mp-session.h): a receiver may hold newer messages for it longer. */
#define OCTO_DATA_FLAG_RESENDS 0x04

typedef struct {
  OctoHeader header;
  guint8 flags;                 /* OCTO_DATA_FLAG_* */
  guint8 path_id;               /* multipath: the path sent on */
  guint32 conn_id;
  guint32 seq;
  guint32 send_time_us;
  guint32 msg_len;
  guint32 offset;
  guint16 frag_index;
  guint16 frag_count;
  OctoMsgInfo info;             /* valid when frag_index == 0 */
  const guint8 *payload;
  guint32 payload_len;
} OctoDataPacket;

typedef enum {
  OCTO_DATA_OK = 0,
  OCTO_DATA_BAD_HEADER,         /* octo_header_parse() rejected it */
  OCTO_DATA_TRUNCATED,          /* shorter than its fixed fields */
  OCTO_DATA_BAD_VERSION,        /* transport version other than 2 (1 too) */
  OCTO_DATA_BAD_FRAGMENT,       /* index/offset/length/first/last inconsistent */
  OCTO_DATA_N_RESULTS
} OctoDataParseResult;

const gchar *octo_data_parse_result_to_string (OctoDataParseResult result);

/* Fragments a @msg_len-byte message needs at @mtu bytes of UDP payload;
 * 0 if @mtu is out of range or the message would need more than
 * OCTO_FRAGMENTS_MAX. */
guint32 octo_fragment_count (gsize msg_len, guint32 mtu);

/* Writes fragment @index of @count into @out (room for @mtu bytes) and
 * returns its length.  @params gives msg_id, stream and dropping fields;
 * first/last are set here.  conn_id, seq and send time are left zero. */
gsize octo_fragment_write (const OctoHeader *params, const OctoMsgInfo *info,
    const guint8 *msg, gsize msg_len, guint32 mtu, guint32 index,
    guint32 count, guint8 *out);

/* The fixed fields of fragment @index of @count (header, transport fields,
 * message info in fragment 0, offset and flags as given) into @out; returns
 * the prefix length, 0 if @params does not pack.  The payload follows. */
gsize octo_fragment_write_prefix (const OctoHeader *params,
    const OctoMsgInfo *info, guint8 flags, guint32 msg_len, guint32 offset,
    guint32 index, guint32 count, guint8 *out);

/* Writes the transmission fields into a packet built by octo_fragment_write. */
void octo_data_stamp (guint8 *packet, guint32 conn_id, guint32 seq,
    guint32 send_time_us);

/* Names the path a multipath sender sends it on (0: the only path). */
void octo_data_stamp_path (guint8 *packet, guint8 path_id);
/* Sets @flags (OCTO_DATA_FLAG_*) in a packet built by octo_fragment_write
 * or octo_qpacket_write, besides those it has. */
void octo_data_add_flags (guint8 *packet, guint8 flags);
/* The flags of such a packet of @len bytes (our own, as sent: no other
 * check); 0 if it is too short to have them. */
guint8 octo_data_get_flags (const guint8 *packet, gsize len);

/* @header_result (nullable) receives the header parser's verdict. */
OctoDataParseResult octo_data_parse (const guint8 *data, gsize len,
    OctoDataPacket *out, OctoParseResult *header_result);

/* TRUE if @data is a data packet of a padding message (a bandwidth probe). */
gboolean octo_data_is_padding (const guint8 *data, gsize len);
/* The connection id of a transport data packet (what a queue needs to tell
 * a restarted sender from its predecessor at the same address), or 0 if
 * @data is not a complete version-2 data packet prefix. */
guint32 octo_data_connection (const guint8 *data, gsize len);

/* TRUE if @data starts like a transport control packet (0x04..0x07). */
static inline gboolean
octo_packet_is_control (const guint8 *data, gsize len)
{
  return len > 0 && (data[0] & 0xfc) == OCTO_WIRE_CONTROL_MARKER;
}

#define OCTO_CONTROL_ACK 0x04
/* A NACK naming a packet whose chunks a queue trimmed (QUCO). */
#define OCTO_CONTROL_NACK 0x05
#define OCTO_NACK_LEN 12
/* A chunk trailer names at most 15 chunks (octo-chunks.h). */
#define OCTO_NACK_MAX_TRIMMED 15
#define OCTO_ACK_MAX_RANGES 32
#define OCTO_ACK_HEADER_LEN 16
/* A receive timestamp follows the ranges: the receiver's clock, in
 * microseconds modulo 2^32, when ranges[0].last arrived.  Only differences
 * of two such stamps mean anything (delivery intervals at the receiver,
 * free of how long the ACKs took back). */
#define OCTO_ACK_FLAG_TIMESTAMPS 0x01
#define OCTO_ACK_TIMESTAMP_LEN 4
/* The receiver's decoder lost a reference and asks for a key frame (RTCP's
 * PLI): set on its ACKs for OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN after the
 * request, so one lost ACK does not lose it. */
#define OCTO_ACK_FLAG_KEYFRAME_REQUEST 0x02
#define OCTO_ACK_MAX_LEN (OCTO_ACK_HEADER_LEN + 8 * OCTO_ACK_MAX_RANGES + \
    OCTO_ACK_TIMESTAMP_LEN)

typedef struct {
  guint32 first;
  guint32 last;                 /* inclusive; serial order first <= last */
} OctoAckRange;

typedef struct {
  guint32 conn_id;              /* echoes the data packets' */
  guint8 path_id;               /* multipath: whose seqs the ranges are */
  guint8 flags;                 /* OCTO_ACK_FLAG_* */
  guint32 ack_delay_us;         /* receiver hold time of ranges[0].last */
  guint32 arrival_us;           /* with TIMESTAMPS: see the flag */
  guint n_ranges;
  OctoAckRange ranges[OCTO_ACK_MAX_RANGES];     /* newest first, disjoint */
} OctoAck;

typedef enum {
  OCTO_ACK_OK = 0,
  OCTO_ACK_NOT_ACK,             /* byte 0 is not the ACK marker */
  OCTO_ACK_BAD_VERSION,         /* transport version other than 2 (1 too) */
  OCTO_ACK_TRUNCATED,           /* length does not match n_ranges and flags */
  OCTO_ACK_BAD_RANGES,          /* zero/too many, inverted, overlapping or unordered */
  OCTO_ACK_BAD_RESERVED,        /* the reserved u16 is not 0 */
  OCTO_ACK_N_RESULTS
} OctoAckParseResult;

const gchar *octo_ack_parse_result_to_string (OctoAckParseResult result);

/* Returns bytes written, 0 if @ack is invalid or @size too small. */
gsize octo_ack_write (const OctoAck *ack, guint8 *out, gsize size);
OctoAckParseResult octo_ack_parse (const guint8 *data, gsize len,
    OctoAck *out);

typedef struct {
  guint32 conn_id;              /* echoes the data packet's */
  guint8 path_id;               /* echoes the data packet's */
  guint8 trimmed;               /* chunks the network cut, 1..OCTO_NACK_MAX_TRIMMED */
  guint32 seq;                  /* the degraded data packet */
} OctoNack;

typedef enum {
  OCTO_NACK_OK = 0,
  OCTO_NACK_NOT_NACK,           /* byte 0 is not the NACK marker */
  OCTO_NACK_BAD_VERSION,        /* transport version other than 2 */
  OCTO_NACK_TRUNCATED,          /* not exactly OCTO_NACK_LEN bytes */
  OCTO_NACK_BAD_TRIMMED,        /* trimmed is 0 or above 15 */
  OCTO_NACK_N_RESULTS
} OctoNackParseResult;

const gchar *octo_nack_parse_result_to_string (OctoNackParseResult result);
/* Returns OCTO_NACK_LEN, or 0 if @nack is invalid or @size too small. */
gsize octo_nack_write (const OctoNack *nack, guint8 *out, gsize size);
OctoNackParseResult octo_nack_parse (const guint8 *data, gsize len,
    OctoNack *out);

/* RFC 1982 order on 32-bit sequence numbers. */
static inline gboolean
octo_seq_newer (guint32 a, guint32 b)
{
  return a != b && (a - b) < 0x80000000u;
}

G_END_DECLS
