"""GStreamer stats structures as JSON-able values, for the demo scripts
(run with Debian's /usr/bin/python3: PyGObject)."""
import warnings

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def structure_to_dict(s):
    """A stats GstStructure as JSON-able values; its arrays (of numbers, or
    of structures as "paths") through Gst's only Python accessor for them,
    GObject.ValueArray (deprecated, hence the silenced warning)."""
    out = {}
    for i in range(s.n_fields()):
        name = s.nth_field_name(i)
        if s.get_field_type(name) != Gst.ValueArray.__gtype__:
            out[name] = s.get_value(name)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            arr = s.get_array(name)[1]
            items = [arr.get_nth(k) for k in range(arr.n_values)]
        out[name] = [structure_to_dict(v) if isinstance(v, Gst.Structure) else v
                     for v in items]
    return out
