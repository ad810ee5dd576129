/* gst-octopus core: which link bytes belong to messages delivered whole,
 * for utilisation (octo_utilisation, octo-metrics.h) where a link is
 * observed packet by packet (octopus-shim).  One tally per stream: message
 * ids are the stream's.
 *
 * A message counts when its first and its last packet crossed the link and
 * none of its packets was lost; its bytes are then every link byte of its
 * packets.  The caller leaves bandwidth probes out. */
#pragma once

#include "octo-wire.h"

G_BEGIN_DECLS

/* Messages still open beyond this are dropped from the tally (their last
 * packet never came): it keeps memory bounded. */
#define OCTO_WHOLE_MESSAGES_MAX_OPEN 4096

typedef struct {
  GHashTable *open;             /* msg_id -> OpenMessage; NULL until used */
  guint64 whole_bytes;          /* link bytes of messages delivered whole */
  guint64 whole_messages;
} OctoWholeMessages;

#define OCTO_WHOLE_MESSAGES_INIT { NULL, 0, 0 }

void octo_whole_messages_clear (OctoWholeMessages *tally);

/* A packet of the message @header names crossed the link: @link_bytes. */
void octo_whole_messages_delivered (OctoWholeMessages *tally,
    const OctoHeader *header, guint32 link_bytes);

/* A packet of the message @header names was lost (dropped by a queue). */
void octo_whole_messages_lost (OctoWholeMessages *tally,
    const OctoHeader *header);

G_END_DECLS
