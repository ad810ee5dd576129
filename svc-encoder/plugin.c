/* The octopussvc GStreamer plugin: octopussvcenc, octopussvcdec and
 * octopussvclog. */
#include <gst/gst.h>

#include "gstoctopussvcdec.h"
#include "gstoctopussvcenc.h"
#include "gstoctopussvclog.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (octopussvcenc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopussvcdec, plugin);
  ret |= GST_ELEMENT_REGISTER (octopussvclog, plugin);
  return ret;
}

#define PACKAGE "gst-octopus"
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, octopussvc,
    "Octopus: real-time VP8/VP9 SVC with one message per layer",
    plugin_init, PACKAGE_VERSION, "LGPL", GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
