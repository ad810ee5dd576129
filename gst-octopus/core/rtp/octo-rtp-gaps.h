/* gst-octopus core: closes the RTP sequence-number gaps that an Octopus queue
 * left on purpose, so a receiver's jitterbuffer does not wait for packets
 * that will never come (docs/design.md §5, "Receiver settings").
 *
 * A queue drops whole messages only, so a gap between the last packet of
 * one message and the first packet of a newer message of the same stream
 * (both carrying the Octopus header) is made of whole dropped messages:
 * later packets are renumbered to follow on.  Any other gap (a packet lost
 * inside a message, an untagged packet on either side) is kept, so the
 * receiver still sees real losses.  One closer per SSRC; sequence numbers
 * out are the numbers in minus the packets removed so far. */
#pragma once

#include "octo-wire.h"

G_BEGIN_DECLS

typedef struct {
  gboolean started;
  guint16 expected;             /* next sequence number in */
  guint16 removed;              /* gap packets closed so far (mod 2^16) */
  gboolean prev_tagged, prev_last;
  guint16 prev_stream;
  guint32 prev_msg_id;
  guint64 gaps_closed, gaps_kept;
} OctoRtpGapCloser;

void octo_rtp_gap_closer_init (OctoRtpGapCloser *closer);

/* The sequence number to give the packet that arrived with @seq and the
 * Octopus header @header (NULL: the packet carries none).  A packet older
 * than the newest (reordered or duplicate) keeps the current offset. */
guint16 octo_rtp_gap_closer_map (OctoRtpGapCloser *closer, guint16 seq,
    const OctoHeader *header);

G_END_DECLS
