/* The octopuspc GStreamer plugin (case study 3): registers every element. */
#include <gst/gst.h>

#include "gstoctopuspcdec.h"
#include "gstoctopuspcenc.h"
#include "gstoctopusplyenc.h"
#include "gstoctopusplysrc.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (octopusplysrc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopusplyenc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopuspcenc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopuspcdec, plugin);
  return ret;
}

#define PACKAGE "gst-octopus"
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, octopuspc,
    "Octopus point clouds: PLY I/O, Draco-coded cells x density layers",
    plugin_init, PACKAGE_VERSION, "LGPL", GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
