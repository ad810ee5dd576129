/* gst-octopus core: the 12-byte in-network Octopus header.
 *
 * docs/wire-format.md is the byte-level reference; this is its only
 * implementation.  Parsing never reads past @len and names the reason for
 * every rejection. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_WIRE_HEADER_LEN 12
#define OCTO_WIRE_VERSION 1
/* Byte 0 is 0b00001vvv: inside 4..15, which RFC 7983/9443 leave unassigned
 * (STUN 0-3, ZRTP 16-19, DTLS 20-63, TURN 64-79, QUIC 64-127/192-255,
 * RTP/RTCP 128-191). */
#define OCTO_WIRE_MARKER 0x08
#define OCTO_WIRE_MARKER_MASK 0xf8
/* 0x04..0x07 are for the transport's own control packets (ACKs). */
#define OCTO_WIRE_CONTROL_MARKER 0x04

#define OCTO_PRIORITY_MAX 7
#define OCTO_SLACK_MS_MAX 1023
/* Smallest and largest non-zero bitrate threshold the header can carry. */
#define OCTO_BITRATE_MIN_BPS ((guint64) 129)
#define OCTO_BITRATE_MAX_BPS ((guint64) 255 << 31)

typedef struct {
  guint32 msg_id;
  guint16 stream_id;
  guint16 slack_ms;             /* 0..OCTO_SLACK_MS_MAX */
  /* link bits/s (IP datagrams, as the queue measures its share); 0 = no
   * bitrate rule */
  guint64 link_bitrate_threshold_bps;
  guint8 priority;              /* 0 (most important) .. 7 */
  guint8 priority_threshold;    /* 0..7, meaningful when drop is set */
  guint8 first : 1;             /* first packet of the message */
  guint8 last : 1;              /* last packet of the message */
  guint8 drop : 1;              /* the message is a dropper */
} OctoHeader;

typedef enum {
  OCTO_PARSE_OK = 0,
  OCTO_PARSE_TRUNCATED,       /* fewer than 12 bytes */
  OCTO_PARSE_NOT_OCTOPUS,     /* byte 0 outside the Octopus marker range */
  OCTO_PARSE_BAD_VERSION,     /* marker right, version unknown */
  OCTO_PARSE_BAD_CHECKSUM,    /* CRC-8 over the header does not match */
  OCTO_PARSE_RESERVED_BIT,    /* reserved bit set */
  OCTO_PARSE_N_RESULTS
} OctoParseResult;

const gchar *octo_parse_result_to_string (OctoParseResult result);

OctoParseResult octo_header_parse (const guint8 *data, gsize len,
    OctoHeader *out);

/* The last header one reader parsed.  Consecutive packets of a message
 * differ only in their first and last bits (and so in their CRC): such a
 * packet is parsed from it, with the CRC checked from the one difference
 * (the CRC is linear), without reading its fields again. */
typedef struct {
  guint8 bytes[OCTO_WIRE_HEADER_LEN];
  OctoHeader header;
  gboolean valid;
} OctoHeaderCache;

/* Zeroed is empty too. */
void octo_header_cache_init (OctoHeaderCache *cache);

/* octo_header_parse(), same result and same @out, remembering in @cache the
 * last header that parsed. */
OctoParseResult octo_header_parse_cached (OctoHeaderCache *cache,
    const guint8 *data, gsize len, OctoHeader *out);

/* Writes 12 bytes.  Returns FALSE (writing nothing) if a field is out of
 * range: priority or threshold > 7, slack > 1023 ms.  The bitrate threshold is
 * rounded to the nearest representable value (relative error <= 0.4 %). */
gboolean octo_header_pack (const OctoHeader *header,
    guint8 out[OCTO_WIRE_HEADER_LEN]);

/* Rewrites the bitrate threshold of the packed header @data (rounded as by
 * octo_header_pack()) and its CRC; the other fields stay as they were. */
void octo_header_set_bitrate_threshold (guint8 data[OCTO_WIRE_HEADER_LEN],
    guint64 bps);

/* The 12-bit bitrate code: 0 = off, else a float with 5-bit exponent and
 * 7-bit mantissa covering 129 bit/s .. 548 Gbit/s. */
guint16 octo_bitrate_encode (guint64 bps);
guint64 octo_bitrate_decode (guint16 code);

/* RFC 1982 serial-number order on 32-bit message ids: TRUE if @a is newer
 * than @b.  Ids exactly 2^31 apart are unordered (FALSE both ways). */
static inline gboolean
octo_msg_id_newer (guint32 a, guint32 b)
{
  return a != b && (a - b) < 0x80000000u;
}

G_END_DECLS
