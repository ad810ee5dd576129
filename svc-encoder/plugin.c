/* The octopussvc GStreamer plugin: svcenc, svcdec and svclog. */
#include <gst/gst.h>

#include "gstsvcdec.h"
#include "gstsvcenc.h"
#include "gstsvclog.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (svcenc, plugin);
  ret |= GST_ELEMENT_REGISTER (svcdec, plugin);
  ret |= GST_ELEMENT_REGISTER (svclog, plugin);
  return ret;
}

#define PACKAGE "gst-octopus"
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, octopussvc,
    "Octopus: real-time VP8/VP9 SVC with one message per layer",
    plugin_init, "0.1.0", "LGPL", "gst-octopus", "Unknown package origin")
