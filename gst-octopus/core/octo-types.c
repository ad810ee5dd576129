#include "octo-types.h"

const gchar *
octo_drop_reason_to_string (OctoDropReason reason)
{
  switch (reason) {
    case OCTO_DROP_OVERFLOW:
      return "overflow";
    case OCTO_DROP_DROPPER:
      return "dropper";
    case OCTO_DROP_BITRATE:
      return "bitrate";
    case OCTO_DROP_AQM:
      return "aqm";
    case OCTO_DROP_TRIM:
      return "trim";
    case OCTO_DROP_N_REASONS:
      break;
  }
  return "unknown";
}
