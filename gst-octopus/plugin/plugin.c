/* The octopus GStreamer plugin: registers every element. */
#include <gst/gst.h>

#include "gstoctopusframelog.h"
#include "gstoctopusrtpgapclose.h"
#include "gstoctopusrtpsender.h"
#include "gstoctopussink.h"
#include "gstoctopussrc.h"
#include "gstoctopustag.h"
#include "gstoctopustracesrc.h"
#include "gstrtphdrextoctopus.h"
#include "gstrtpvp9svcdepay.h"
#include "gstrtpvp9svcpay.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (octopustag, plugin);
  ret |= GST_ELEMENT_REGISTER (octopussink, plugin);
  ret |= GST_ELEMENT_REGISTER (octopussrc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopustracesrc, plugin);
  ret |= GST_ELEMENT_REGISTER (octopusframelog, plugin);
  ret |= GST_ELEMENT_REGISTER (rtphdrextoctopus, plugin);
  ret |= GST_ELEMENT_REGISTER (rtpvp9svcpay, plugin);
  ret |= GST_ELEMENT_REGISTER (rtpvp9svcdepay, plugin);
  ret |= GST_ELEMENT_REGISTER (octopusrtpsender, plugin);
  ret |= GST_ELEMENT_REGISTER (octopusrtpgapclose, plugin);
  return ret;
}

#define PACKAGE "gst-octopus"
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, octopus,
    "Octopus: in-network content adaptation transport (BBR, dropping rules)",
    plugin_init, PACKAGE_VERSION, "LGPL", GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
