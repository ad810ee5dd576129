#include "sim-scheme.h"

static const SimScheme octopus = {
  "octopus", "Octopus: rules in the send buffer and in the network queue",
  TRUE, TRUE, TRUE, FALSE, "octopus",
};
static const SimScheme octobbr = {
  "octobbr", "OctoBBR: Octopus endpoint, plain FIFO in the network",
  TRUE, TRUE, TRUE, FALSE, "droptail",
};
static const SimScheme fifo = {
  "fifo", "FIFO+BBR: drop-tail send buffer and network, fixed encoding",
  FALSE, FALSE, FALSE, FALSE, "droptail",
};
static const SimScheme pdrop50 = {
  "pdrop50", "PDrop 50 KB: Octopus endpoint, priority drop when full",
  TRUE, TRUE, TRUE, FALSE, "pdrop:limit=50KB",
};
static const SimScheme pdrop100 = {
  "pdrop100", "PDrop 100 KB", TRUE, TRUE, TRUE, FALSE, "pdrop:limit=100KB",
};
static const SimScheme pdrop200 = {
  "pdrop200", "PDrop 200 KB", TRUE, TRUE, TRUE, FALSE, "pdrop:limit=200KB",
};
static const SimScheme pdrop375 = {
  "pdrop375", "PDrop 375 KB", TRUE, TRUE, TRUE, FALSE, "pdrop:limit=375KB",
};
static const SimScheme codel = {
  "codel", "CoDel in the network, Octopus endpoint",
  TRUE, TRUE, TRUE, FALSE, "codel",
};
static const SimScheme bode = {
  "bode", "BoDe in the network, Octopus endpoint",
  TRUE, TRUE, TRUE, FALSE, "bode",
};
static const SimScheme oracle = {
  "oracle", "Oracle: sends what the link serves in each 5 ms, Octopus "
      "endpoint choosing what to drop",
  TRUE, TRUE, TRUE, TRUE, "droptail",
};

static const SimScheme *const schemes[] = {
  &octopus, &octobbr, &fifo, &pdrop50, &pdrop100, &pdrop200, &pdrop375,
  &codel, &bode, &oracle, NULL,
};

const SimScheme *const *
sim_scheme_list (void)
{
  return schemes;
}

const SimScheme *
sim_scheme_find (const gchar *name)
{
  for (guint i = 0; schemes[i]; i++)
    if (g_strcmp0 (schemes[i]->name, name) == 0)
      return schemes[i];
  return NULL;
}
