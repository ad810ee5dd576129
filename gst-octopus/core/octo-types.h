/* gst-octopus core: shared basic types.
 *
 * The core never reads a clock: every function that needs time takes an
 * OctoTime (nanoseconds on the caller's timeline, GstClockTime-compatible). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef guint64 OctoTime;

/* "No time": never happened / not known. */
#define OCTO_TIME_NONE G_MAXUINT64

#define OCTO_NSECOND  ((OctoTime) 1)
#define OCTO_USECOND  ((OctoTime) 1000)
#define OCTO_MSECOND  ((OctoTime) 1000000)
#define OCTO_SECOND   ((OctoTime) 1000000000)

/* Bandwidths are in bits per second; this value means "not known". */
#define OCTO_BW_UNKNOWN ((guint64) 0)
/* A queue that drained every packet at once has no measurable limit. */
#define OCTO_BW_UNLIMITED G_MAXUINT64

#define OCTO_N_PRIORITIES 8

/* Why a packet (and its message) was discarded.  The shim's AQM queues add
 * their own reasons after the engine's. */
typedef enum {
  OCTO_DROP_OVERFLOW = 0,  /* did not fit the buffer: whole message discarded */
  OCTO_DROP_DROPPER,       /* an older message than a matching dropper */
  OCTO_DROP_BITRATE,       /* bitrate threshold above the stream's share */
  OCTO_DROP_AQM,           /* an active queue manager (CoDel, PIE, BoDe, PDrop) */
  OCTO_DROP_TRIM,          /* QUCO trimmed chunks off the packet */
  OCTO_DROP_N_REASONS
} OctoDropReason;

const gchar *octo_drop_reason_to_string (OctoDropReason reason);

G_END_DECLS
