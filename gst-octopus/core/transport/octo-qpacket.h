/* gst-octopus core: qualitative packets (paper 004, docs/quco-chunks.md).
 *
 * A message made of n segments (1..15, most significant first) is sent as
 * F fragments, each carrying a piece of every segment as one chunk:
 * fragment j's chunk i holds bytes [S_i*j/F, S_i*(j+1)/F) of segment i
 * (S_i its length), so a queue that trims a fragment's last chunks
 * (octo-qdisc-quco.c) takes bytes of the least significant segments only.
 *
 * Two mappings of a message onto segments:
 * - layered: segment i is layer i of the frame (e.g. gold | silver | bronze
 *   = the same frame's Q0 | Q1 | Q2 bytes, each layer decodable given the
 *   ones below it).  The receiver hands over every leading layer whose
 *   bytes all arrived: a frame trimmed in the network is shown at a lower
 *   layer instead of being lost.
 * - all-bits-equal (OCTO_DATA_FLAG_CHUNKS_EQUAL): the message is cut into n
 *   equal stripes, every chunk equally significant; a trimmed chunk is a
 *   hole that only retransmission or FEC fills, so the message is whole or
 *   nothing.
 *
 * Fragment layout (data packet flags OCTO_DATA_FLAG_CHUNKED, msg_len the
 * sum of the S_i, offset 0):
 *
 *   prefix | S_0 .. S_n-1 (u32 BE each) | chunk 0 .. chunk n-t-1 | trailer
 *
 * The segment lengths come first so that any one fragment, trimmed or not,
 * says where each of its chunks belongs. */
#pragma once

#include "octo-packet.h"
#include "octo-chunks.h"

G_BEGIN_DECLS

typedef struct {
  guint n_segments;             /* 1..OCTO_CHUNKS_MAX */
  guint32 len[OCTO_CHUNKS_MAX]; /* segment lengths, most significant first */
  gboolean equal;               /* all-bits-equal: whole message or nothing */
} OctoQLayout;

/* A layered layout from @n layer lengths. FALSE if @n is out of range. */
gboolean octo_qlayout_layered (OctoQLayout *layout, const guint32 *lens,
    guint n);
/* An all-bits-equal layout cutting @msg_len bytes into @n stripes (the
 * first msg_len % n one byte longer).  FALSE if @n is out of range. */
gboolean octo_qlayout_equal (OctoQLayout *layout, guint32 msg_len, guint n);
guint64 octo_qlayout_total (const OctoQLayout *layout);
/* Bytes of segment @seg that fragment @index of @count carries. */
guint32 octo_qlayout_piece_len (const OctoQLayout *layout, guint seg,
    guint32 index, guint32 count);
/* ... and where they start in the segment. */
guint32 octo_qlayout_piece_offset (const OctoQLayout *layout, guint seg,
    guint32 index, guint32 count);

/* Fragments @layout needs at @mtu bytes of UDP payload; 0 if none fits. */
guint32 octo_qpacket_count (const OctoQLayout *layout, guint32 mtu);
/* Writes fragment @index of @count of @msg (the segments back to back, most
 * significant first) into @out (room for @mtu bytes); returns its length,
 * 0 on a bad argument. */
gsize octo_qpacket_write (const OctoHeader *params, const OctoMsgInfo *info,
    const OctoQLayout *layout, const guint8 *msg, guint32 mtu,
    guint32 index, guint32 count, guint8 *out);

/* One received qualitative fragment. */
typedef struct {
  OctoQLayout layout;
  OctoChunks chunks;            /* the trailer: n_chunks, trimmed, lengths */
  const guint8 *chunk[OCTO_CHUNKS_MAX];         /* present chunks only */
} OctoQFragment;

/* TRUE if @pkt (parsed by octo_data_parse) is a consistent qualitative
 * fragment: its segment lengths sum to msg_len, its trailer's chunk lengths
 * are the pieces the rule above gives, the present chunks fit. */
gboolean octo_qpacket_parse (const OctoDataPacket *pkt, OctoQFragment *out);

/* For a qualitative data packet @data as sent, fills @tail[k-1] with the
 * bytes its last k chunks take (what a queue trimming k of them cuts) and
 * returns its chunk count; 0 for any other packet. */
guint octo_qpacket_tail_bytes (const guint8 *data, gsize len,
    guint32 tail[OCTO_CHUNKS_MAX]);

/* Algorithm 2: TRUE and @nack filled if the network trimmed chunks of
 * @pkt; FALSE (an ordinary ACK suffices) otherwise. */
gboolean octo_qpacket_nack (const OctoDataPacket *pkt,
    const OctoQFragment *frag, OctoNack *nack);

/* The all-bits-equal mode's stripes per message: one per trim level of
 * the queue (light / medium / high), so each level cuts a different share. */
#define OCTO_QPACKET_EQUAL_CHUNKS 3

/* The layer index a message describes: its spatial layer, else its
 * density layer (a point cloud's), else OCTO_LAYER_NONE. */
guint octo_msg_info_layer (const OctoMsgInfo *info);

/* A frame's layers, which an encoder hands over as one message each (layer
 * index rising by one, the frame's last layer marked), gathered into one
 * layered qualitative message.  The message takes its first layer's
 * dropping fields and description (the base layer's: what a queue must
 * keep longest); the receiver gives each delivered layer i the first
 * layer's description with the layer index raised by i
 * (octo_qframe_layer_info). */
typedef struct {
  /* each layer's own fields; the message takes layer_header[0]'s, and a
   * sender judges the others before packing (octo_sender_submit_qframe) */
  OctoHeader layer_header[OCTO_CHUNKS_MAX];
  OctoMsgInfo info;
  OctoQLayout layout;           /* n_segments 0: nothing gathered */
  GByteArray *data;             /* the layers back to back */
} OctoQFrame;

void octo_qframe_init (OctoQFrame *frame);
void octo_qframe_clear (OctoQFrame *frame);
/* Forgets the gathered layers (sent, or given up). */
void octo_qframe_reset (OctoQFrame *frame);
/* Whether a message with @header and @info is @frame's next layer: same
 * stream, frame and cell, layer index one above the last gathered.  An
 * empty frame takes any message. */
gboolean octo_qframe_continues (const OctoQFrame *frame,
    const OctoHeader *header, const OctoMsgInfo *info);
/* Appends a message that continues @frame (octo_qframe_continues). */
void octo_qframe_add (OctoQFrame *frame, const OctoHeader *header,
    const OctoMsgInfo *info, const guint8 *data, gsize len);
/* Whether @frame is to be sent now: its last layer came (@marked: the
 * encoder says so), it is not layered (one message is the frame), or it
 * holds OCTO_CHUNKS_MAX layers. */
gboolean octo_qframe_complete (const OctoQFrame *frame, gboolean marked);
/* The description of layer @i of a message whose first layer @first
 * describes. */
void octo_qframe_layer_info (const OctoMsgInfo *first, guint i,
    OctoMsgInfo *out);

/* Reassembly of one qualitative message from trimmed or whole fragments. */
typedef struct _OctoQMessage OctoQMessage;

/* A message shaped as @frag announces (msg_len bytes, frag_count pieces of
 * each segment); NULL if it is larger than @max_bytes. */
OctoQMessage *octo_qmessage_new (const OctoDataPacket *pkt,
    const OctoQFragment *frag, guint64 max_bytes);
void octo_qmessage_free (OctoQMessage *msg);
/* Adds a fragment's present chunks.  FALSE if it does not belong to this
 * message (another layout or fragment count); a repeated piece is ignored. */
gboolean octo_qmessage_add (OctoQMessage *msg, const OctoDataPacket *pkt,
    const OctoQFragment *frag);
/* Segments that can be handed over now: layered, the leading segments
 * whose bytes all arrived; all-bits-equal, n once every byte arrived, else
 * 0. */
guint octo_qmessage_usable_segments (const OctoQMessage *msg);
/* Whether every fragment has arrived (trimmed or not): nothing more will
 * come, so the usable segments are final. */
gboolean octo_qmessage_all_fragments (const OctoQMessage *msg);
/* The message buffer (segments back to back) and the length of its first
 * @segments segments. */
const guint8 *octo_qmessage_data (const OctoQMessage *msg);
gsize octo_qmessage_prefix_len (const OctoQMessage *msg, guint segments);

G_END_DECLS
