/* octopus-shim: recycled packet buffers.  Datagrams are received straight
 * into pool slots, so the common packet costs no malloc, free or copy. */
#pragma once

#include "shim.h"

/* Total bytes of a slot, header included: holds any datagram up to an
 * Ethernet MTU and then some. */
#define SHIM_SLOT_BYTES 2048
#define SHIM_SLOT_PAYLOAD (SHIM_SLOT_BYTES - sizeof (ShimPacket))
/* Datagrams up to this size are copied out of their slot into a buffer of
 * their own size, so no packet holds more than about twice its bytes. */
#define SHIM_SMALL_PAYLOAD (SHIM_SLOT_BYTES / 2 - sizeof (ShimPacket))
/* Free slots kept for reuse; the rest go back to malloc. */
#define SHIM_POOL_MAX 8192

ShimPacket *shim_packet_new_slot (void);
/* A packet of exactly its size (not pooled) holding @head then @tail: one
 * too large for a slot, or a small one. */
ShimPacket *shim_packet_new_copy (const guint8 *head, gsize head_len,
    const guint8 *tail, gsize tail_len);
void shim_packet_free (ShimPacket *p);
void shim_pool_clear (void);
