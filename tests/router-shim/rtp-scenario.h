/* The same Octopus messages as transport datagrams and as RTP packets with
 * the extension, for tests that compare how queues treat the two. */
#pragma once

#include "octo-rtpext.h"

/* Eight messages of two packets each, all of one stream:
 *   msg       0  1  2  3  4  5  6  7
 *   priority  0  3  2  3  1  3  3  0
 *   dropper   -  -  -  -  2  -  3  -      (threshold)
 * Queued together, the rules deliver 0, 4, 6 and 7: 1, 2, 3 fall to
 * message 4's dropper or 6's, 5 to 6's. */
#define SCENARIO_MESSAGES 8
#define SCENARIO_PACKETS_PER_MESSAGE 2
#define SCENARIO_PAYLOAD 300
#define SCENARIO_DELIVERED_MASK 0xd1u   /* bits 0, 4, 6, 7 */

/* GBytes datagrams in sending order. */
GPtrArray *scenario_transport_datagrams (void);
GPtrArray *scenario_rtp_datagrams (guint8 ext_id, guint32 ssrc);

/* STUN, DTLS and RTCP datagrams a WebRTC 5-tuple also carries. */
GPtrArray *scenario_other_datagrams (void);

/* Which scenario message a received datagram belongs to: the transport
 * header or the extension @ext_id; -1 for anything else. */
gint scenario_message_of (const guint8 *data, gsize len, guint8 ext_id);
