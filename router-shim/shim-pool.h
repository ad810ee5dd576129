/* octopus-shim: recycled packet buffers.  Datagrams are received straight
 * into pool slots, so the common packet costs no malloc, free or copy. */
#pragma once

#include "shim.h"

/* Total bytes of a slot, header included: holds any datagram up to an
 * Ethernet MTU and then some. */
#define SHIM_SLOT_BYTES 2048
#define SHIM_SLOT_PAYLOAD (SHIM_SLOT_BYTES - sizeof (ShimPacket))
/* Free slots kept for reuse; the rest go back to malloc. */
#define SHIM_POOL_MAX 8192

ShimPacket *shim_packet_new_slot (void);
/* A packet too large for a slot, built from @head (a slot's bytes) and
 * @tail. */
ShimPacket *shim_packet_new_large (const guint8 *head, gsize head_len,
    const guint8 *tail, gsize tail_len);
void shim_packet_free (ShimPacket *p);
void shim_pool_clear (void);
