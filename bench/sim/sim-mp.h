/* Multipath topologies on a virtual clock: constant-rate links with their
 * own one-way delay and drop-tail buffer (the core's OctoLink and qdisc),
 * and flows that each send over one or more of them through the core's
 * multipath send session (octo-mp-session.h: its scheduler, and per path
 * BBR or Delay-BBR and a pacer); every data packet is ACKed on the path it
 * took, after that path's one-way delay.
 *
 * A flow is either backlogged (always has data: a competing transfer) or
 * a video source at 30 frames/s whose frame size follows the session's
 * bandwidth estimate at once, up to a maximum (the Delay-BBR paper's ideal
 * encoder); an app-limited video flow pads a path whose controller probes,
 * and every flow pads a path due a probe (down, or passed over by the
 * scheduler): octo_mp_session_pads(), as the sender does.
 * A single-path flow may run WebRTC's GCC instead (the core's octo-gcc.h).
 * Used by octo-sim-mp and its tests. */
#pragma once

#include "transport/octo-mp-session.h"

G_BEGIN_DECLS

#define SIM_MP_MAX_LINKS 4
#define SIM_MP_MAX_FLOWS 8
#define SIM_MP_PAYLOAD 1200     /* bytes of a full data packet */
#define SIM_MP_FPS 30

typedef struct {
  guint64 rate_bps;
  OctoTime one_way;             /* each direction */
  guint64 buffer_bytes;         /* drop-tail */
  /* an outage: data sent or due to arrive in [down_from, down_until) is
   * lost (ACKs already on their way still arrive); down_until 0: none */
  OctoTime down_from, down_until;
} SimMpLink;

typedef struct {
  guint n_paths;
  guint links[SIM_MP_MAX_LINKS];        /* the link of each path */
  OctoSenderCc cc;
  /* single-path flows: GCC's target (fed transport-wide feedback every 50
   * ms, one one-way delay later, no probe clusters) paces a fixed-rate
   * path instead of @cc */
  gboolean gcc;
  const gchar *scheduler;       /* NULL: min-cost */
  OctoTime start;
  guint64 video_max_bps;        /* 0: backlogged */
  OctoTime commit_ahead;        /* OctoMpSessionConfig's */
} SimMpFlow;

typedef struct {
  guint n_links;
  SimMpLink links[SIM_MP_MAX_LINKS];
  guint n_flows;
  SimMpFlow flows[SIM_MP_MAX_FLOWS];
  OctoTime duration;
  guint32 seed;
} SimMpConfig;

typedef struct {
  guint64 packets_sent, packets_lost;   /* data packets; lost in a buffer */
  guint64 packets_delivered;
  OctoTime owd_sum;                     /* over delivered data packets */
  /* link bytes delivered in the window the report names */
  guint64 window_bytes;
  /* video: frames captured, frames complete, and their delays */
  guint64 frames, frames_complete;
  GArray *frame_delays;                 /* OctoTime */
  guint64 packets_rescheduled;
  guint64 path_packets[SIM_MP_MAX_LINKS];       /* data packets sent */
  guint64 padding_packets;      /* padding sent in the report's window */
} SimMpFlowResult;

typedef struct {
  guint n_flows;
  SimMpFlowResult flows[SIM_MP_MAX_FLOWS];
} SimMpResult;

/* Runs @config; bytes count for window_bytes when they arrive in
 * [@window_start, @window_end).  Free the result with sim_mp_result_clear. */
void sim_mp_run (const SimMpConfig *config, OctoTime window_start,
    OctoTime window_end, SimMpResult *result);
void sim_mp_result_clear (SimMpResult *result);

G_END_DECLS
