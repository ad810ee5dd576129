/* gst-octopus core: closing the sequence gaps Octopus queues leave on
 * purpose (octo-rtp-gaps.h). */
#include "octo-rtp-gaps.h"

#include <string.h>

void
octo_rtp_gap_closer_init (OctoRtpGapCloser *closer)
{
  memset (closer, 0, sizeof (*closer));
}

/* Whole dropped messages only: the gap opens after a message's last packet
 * and closes with a newer message's first packet of the same stream. */
static gboolean
gap_is_whole_messages (const OctoRtpGapCloser *c, const OctoHeader *h)
{
  return c->prev_tagged && c->prev_last && h && h->first
      && h->stream_id == c->prev_stream
      && (gint32) (h->msg_id - c->prev_msg_id) > 0;
}

guint16
octo_rtp_gap_closer_map (OctoRtpGapCloser *c, guint16 seq,
    const OctoHeader *h)
{
  gint16 ahead;

  if (!c->started) {
    c->started = TRUE;
    c->expected = seq;
  }
  ahead = (gint16) (guint16) (seq - c->expected);
  if (ahead < 0)
    return (guint16) (seq - c->removed);
  if (ahead > 0) {
    if (gap_is_whole_messages (c, h)) {
      c->removed = (guint16) (c->removed + (guint16) ahead);
      c->gaps_closed++;
    } else {
      c->gaps_kept++;
    }
  }
  c->expected = (guint16) (seq + 1);
  c->prev_tagged = h != NULL;
  if (h) {
    c->prev_last = h->last;
    c->prev_stream = h->stream_id;
    c->prev_msg_id = h->msg_id;
  }
  return (guint16) (seq - c->removed);
}
