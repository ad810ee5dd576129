/* octopus-shim: sending batches of datagrams to one destination.
 *
 * One sendmmsg per batch; runs of equal-size datagrams go as one UDP GSO
 * message (UDP_SEGMENT), so the stack builds one packet per run and splits
 * it late (on the wire, or at a loopback receiver).  Receivers see the same
 * datagrams either way.  If the kernel refuses GSO once, it is not tried
 * again. */
#pragma once

#include "shim-addr.h"

#include <sys/uio.h>

#define SHIM_SEND_MAX 64

/* Sends @n (<= SHIM_SEND_MAX) datagrams; returns how many the kernel
 * accepted and adds the refused ones to *@errors. */
guint shim_send (int fd, const ShimAddr *to, const struct iovec *datagrams,
    guint n, guint64 *errors);
