/* octopus-shim: the shell around the core's link model and queues.
 *
 * Owns sockets, the clock, signals and files; every decision (when a packet
 * leaves, which one is dropped) is made by gst-octopus/core. */
#pragma once

#include "shim-addr.h"
#include "shim-classify.h"
#include "shim-hist.h"
#include "shim-shell.h"
#include "link/octo-link.h"
#include "octo-whole-messages.h"

#include <stdio.h>

typedef enum {
  SHIM_DOWN = 0,        /* listen -> forward */
  SHIM_UP,              /* forward's replies -> last sender */
  SHIM_N_DIRECTIONS
} ShimDirection;

const gchar *shim_direction_name (ShimDirection dir);

/* Per (user, direction, sender, stream) counters; untagged traffic of a
 * sender is one stream.  Beyond SHIM_MAX_STREAMS per user, new streams are
 * counted under one overflow entry so a spoofing flood cannot grow memory. */
#define SHIM_MAX_STREAMS 256

typedef struct {
  ShimDirection dir;
  guint64 source;
  gchar source_str[SHIM_ADDR_STRLEN];
  gint32 stream_id;     /* -1: untagged; -2: the overflow entry */
  guint64 packets_in, bytes_in, packets_out, bytes_out;
  guint64 packets_dropped[OCTO_DROP_N_REASONS];  /* OCTO_DROP_TRIM: 0 */
  guint64 bytes_dropped[OCTO_DROP_N_REASONS];
  guint64 packets_trimmed, bytes_trimmed;       /* still queued: not drops */
  ShimHist delay;       /* queueing delay of departures, us */
  /* tagged streams: departed link bytes of messages no packet of which
   * was dropped, probes left out (utilisation's numerator) */
  OctoWholeMessages whole;
} ShimStream;

/* --shell --extra-link: links side by side, one TUN pair each. */
#define SHIM_MAX_LINKS SHIM_SHELL_MAX_LINKS

/* One emulated link: per direction a trace and the core's link model. */
typedef struct {
  const gchar *trace_path[SHIM_N_DIRECTIONS];   /* NULL: unconstrained */
  OctoTrace *trace[SHIM_N_DIRECTIONS];
  OctoTime delay;
  OctoLink *link[SHIM_N_DIRECTIONS];            /* run time */
} ShimLinkPair;

typedef struct _ShimUser ShimUser;

/* Queueing delay of the departures since the last --meter line. */
typedef struct {
  guint64 count;
  OctoTime last, max;
} ShimMeterDelay;

/* One datagram held by the shim: header, then the bytes. */
typedef struct {
  ShimUser *user;
  ShimStream *stream;
  ShimDirection dir;
  OctoTime arrival;
  gsize len;
  gboolean pooled;      /* a recycled slot of shim-pool.c */
  gboolean counted;     /* towards its stream's whole messages: tagged, of
                         * a stream (not the overflow entry), not a probe */
  guint8 data[];
} ShimPacket;

struct _ShimUser {
  guint index;
  guint link;                   /* its link in Shim.links */
  /* --shell: listen_fd and forward_fd are the outside and inside TUN
   * devices (whole IP packets), the addresses their IPv4 addresses. */
  gboolean tun;
  ShimAddr listen_addr, forward_addr;
  int listen_fd, forward_fd;
  ShimAddr forward_local;       /* the shim's own address towards forward */
  ShimAddr last_sender;
  gboolean have_sender;
  OctoQdisc *qdisc[SHIM_N_DIRECTIONS];
  guint link_queue[SHIM_N_DIRECTIONS];
  ShimClassifier classifier[SHIM_N_DIRECTIONS];
  GHashTable *streams;          /* key -> ShimStream */
  ShimStream overflow_stream[SHIM_N_DIRECTIONS];
  /* Counted, never crash: */
  guint64 parse_results[SHIM_N_DIRECTIONS][OCTO_PARSE_N_RESULTS];
  guint64 no_sender;            /* replies before any sender was seen */
  guint64 oversized;            /* larger than the receive buffer */
  guint64 send_errors;
  guint64 sent[SHIM_N_DIRECTIONS];      /* datagrams the kernel accepted */
  /* --meter: the queue's counters at the last line, and the delays since */
  OctoQdiscStats metered[SHIM_N_DIRECTIONS];
  ShimMeterDelay meter_delay[SHIM_N_DIRECTIONS];
};

typedef struct {
  /* configuration */
  GPtrArray *users;             /* ShimUser */
  /* links[0]: --down-trace, --up-trace, --delay-ms; more: --extra-link */
  ShimLinkPair links[SHIM_MAX_LINKS];
  guint n_links;
  gchar *queue_spec[SHIM_N_DIRECTIONS];
  guint64 buffer_bytes;
  guint64 flight_limit_bytes;   /* propagation line of an untraced link */
  gchar *log_path, *stats_path;
  gdouble duration_s;           /* 0: run until a signal */
  gboolean bare;                /* forward without link or queue (benchmark) */
  gint rt_priority;             /* SCHED_FIFO priority; 0 = normal */
  guint8 rtp_ext_id;            /* Octopus RTP extension id; 0 = learn */
  ShimShell *shell;             /* --shell; NULL otherwise */
  gint shell_status;            /* the command's, once it exited */
  OctoTime meter_interval;      /* --meter; 0: off */

  /* run time */
  OctoTime start;
  ShimHist timing_error[SHIM_N_DIRECTIONS];     /* actual - scheduled, us */
  FILE *log;
  OctoTime metered_at;          /* the last --meter line (or the start) */
} Shim;

OctoTime shim_clock_now (void);

/* shim-main.c: "octopus-shim: MESSAGE" on stderr, GLib's typographic quotes
 * made ASCII. */
void shim_print_error (const gchar *message);

/* shim-meter.c */
/* Appends one --meter line per user and direction for the time since the
 * last call (or the start) up to @now, and starts the next interval. */
void shim_meter_sample (Shim *shim, OctoTime now, GString *out);

/* shim-stats.c */
/* A @source_key with SHIM_SOURCE_SSRC names an RTP source (shown as
 * "ssrc:X"); otherwise @source, the sender's address, names it. */
ShimStream *shim_stream_lookup (ShimUser *user, ShimDirection dir,
    const ShimAddr *source, guint64 source_key, gint32 stream_id);
void shim_user_init_streams (ShimUser *user);
gboolean shim_stats_write (Shim *shim, GError **error);

/* shim-log.c */
gboolean shim_log_open (Shim *shim, GError **error);
void shim_log_close (Shim *shim);
void shim_log_opportunity (Shim *shim, ShimDirection dir, OctoTime t,
    guint32 bytes);
void shim_log_arrival (Shim *shim, const ShimPacket *p, guint32 size);
void shim_log_departure (Shim *shim, const ShimPacket *p, guint32 size,
    OctoTime departure);
void shim_log_drop (Shim *shim, const ShimPacket *p, guint32 size,
    OctoDropReason reason);

/* shim-loop.c */
gboolean shim_setup (Shim *shim, GError **error);
/* Runs until SIGINT/SIGTERM or the duration; returns the exit status. */
int shim_run (Shim *shim);
void shim_teardown (Shim *shim);
