#include "sim-scheme.h"

static const SimScheme scheme_octopus = {
  .name = "octopus",
  .summary = "Octopus: rules in the send buffer and in the network queue",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "octopus",
};

static const SimScheme scheme_octobbr = {
  .name = "octobbr",
  .summary = "OctoBBR: Octopus endpoint, plain FIFO in the network",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "droptail",
};

static const SimScheme scheme_fifo = {
  .name = "fifo",
  .summary = "FIFO+BBR: drop-tail send buffer and network, fixed encoding",
  .sender_rules = FALSE, .tag = FALSE, .adapt = FALSE, .oracle = FALSE,
  .down_queue = "droptail",
};

static const SimScheme scheme_pdrop50 = {
  .name = "pdrop50",
  .summary = "PDrop 50 KB: Octopus endpoint, priority drop when the queue is full",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "pdrop:limit=50KB",
};

static const SimScheme scheme_pdrop100 = {
  .name = "pdrop100",
  .summary = "PDrop 100 KB",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "pdrop:limit=100KB",
};

static const SimScheme scheme_pdrop200 = {
  .name = "pdrop200",
  .summary = "PDrop 200 KB",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "pdrop:limit=200KB",
};

static const SimScheme scheme_pdrop375 = {
  .name = "pdrop375",
  .summary = "PDrop 375 KB",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "pdrop:limit=375KB",
};

static const SimScheme scheme_codel = {
  .name = "codel",
  .summary = "CoDel in the network, Octopus endpoint",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "codel",
};

static const SimScheme scheme_bode = {
  .name = "bode",
  .summary = "BoDe in the network, Octopus endpoint",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = FALSE,
  .down_queue = "bode",
};

static const SimScheme scheme_oracle = {
  .name = "oracle",
  .summary = "Oracle: sends what the link serves in each 5 ms, Octopus endpoint choosing what to drop",
  .sender_rules = TRUE, .tag = TRUE, .adapt = TRUE, .oracle = TRUE,
  .down_queue = "droptail",
};

static const SimScheme scheme_gcc = {
  .name = "gcc",
  .summary = "WebRTC GCC: single-layer encoding at GCC's target, FIFO network (case 2)",
  .sender_rules = FALSE, .tag = FALSE, .adapt = TRUE, .oracle = FALSE,
  .endpoint = SIM_ENDPOINT_GCC, .cases = 1 << 2, .down_queue = "droptail",
};

static const SimScheme scheme_salsify = {
  .name = "salsify",
  .summary = "Salsify: per-frame choice from a Sprout-EWMA estimate, unpaced, FIFO network (case 1: fixed quality, skips frames; case 2: quality per frame)",
  .sender_rules = FALSE, .tag = FALSE, .adapt = TRUE, .oracle = FALSE,
  .endpoint = SIM_ENDPOINT_SALSIFY, .cases = 1 << 1 | 1 << 2,
  .down_queue = "droptail",
};

static const SimScheme scheme_awstream_bbr = {
  .name = "awstream-bbr",
  .summary = "AWStream over BBR: frame rate (case 1) or quality (case 2) by AWStream's runtime, drop-tail send buffer, FIFO network",
  .sender_rules = FALSE, .tag = FALSE, .adapt = TRUE, .oracle = FALSE,
  .endpoint = SIM_ENDPOINT_AWSTREAM, .cases = 1 << 1 | 1 << 2,
  .down_queue = "droptail",
};

static const SimScheme scheme_awstream_cubic = {
  .name = "awstream-cubic",
  .summary = "AWStream over TCP CUBIC (reliable), FIFO network",
  .sender_rules = FALSE, .tag = FALSE, .adapt = TRUE, .oracle = FALSE,
  .endpoint = SIM_ENDPOINT_AWSTREAM, .transport = SIM_TRANSPORT_TCP,
  .cases = 1 << 1 | 1 << 2, .down_queue = "droptail",
};

static const SimScheme scheme_vivo = {
  .name = "vivo",
  .summary = "ViVo: density from the harmonic mean of 20 frames' download rates, TCP CUBIC, FIFO network (case 3)",
  .sender_rules = FALSE, .tag = FALSE, .adapt = TRUE, .oracle = FALSE,
  .endpoint = SIM_ENDPOINT_VIVO, .transport = SIM_TRANSPORT_TCP,
  .cases = 1 << 3, .down_queue = "droptail",
};

static const SimScheme *const schemes[] = {
  &scheme_octopus, &scheme_octobbr, &scheme_fifo, &scheme_pdrop50,
  &scheme_pdrop100, &scheme_pdrop200, &scheme_pdrop375, &scheme_codel,
  &scheme_bode, &scheme_oracle, &scheme_gcc, &scheme_salsify,
  &scheme_awstream_bbr, &scheme_awstream_cubic, &scheme_vivo, NULL,
};


const SimScheme *const *
sim_scheme_list (void)
{
  return schemes;
}

gboolean
sim_scheme_runs_case (const SimScheme *scheme, guint case_id)
{
  return scheme->cases == 0 || (scheme->cases & (1u << case_id)) != 0;
}

const SimScheme *
sim_scheme_find (const gchar *name)
{
  for (guint i = 0; schemes[i]; i++)
    if (g_strcmp0 (schemes[i]->name, name) == 0)
      return schemes[i];
  return NULL;
}
