#!/usr/bin/python3
"""Writes or checks the plugin documentation cache, docs/plugins/gst_plugins_cache.json.

The cache has the layout of GStreamer's hotdoc cache (gst_plugins_cache.json,
written by gst-hotdoc-plugins-scanner, which Debian does not ship): per plugin
its description, license, package, source and origin; per element its class
hierarchy, interfaces, klass, long name, author, rank, pad templates, its own
properties (base-class properties are GStreamer's documentation) with type,
flags, default and range, and its signals; the enum and flags types the
properties use under "other-types".  It is built by introspection of the
built plugins, loaded by file name in a registry of their own.

  gst-plugins-doc-cache.py --update CACHE PLUGIN.so...
      replaces these plugins' entries in CACHE (others are kept)
  gst-plugins-doc-cache.py --check CACHE PLUGIN.so...
      fails (status 1, with a diff) when CACHE does not describe these plugins
      as built: rebuild the cache with `make docs`.
"""

import argparse
import difflib
import json
import os
import sys
import tempfile

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GObject, Gst  # noqa: E402
from gi._gi import enum_add, flags_add  # noqa: E402

PRESENCE = {
    Gst.PadPresence.ALWAYS: 'always',
    Gst.PadPresence.SOMETIMES: 'sometimes',
    Gst.PadPresence.REQUEST: 'request',
}
DIRECTION = {Gst.PadDirection.SRC: 'src', Gst.PadDirection.SINK: 'sink',
             Gst.PadDirection.UNKNOWN: 'unknown'}
RANKS = {int(Gst.Rank.NONE): 'none', int(Gst.Rank.MARGINAL): 'marginal',
         int(Gst.Rank.SECONDARY): 'secondary', int(Gst.Rank.PRIMARY): 'primary'}
NUMERIC = ('gint', 'guint', 'glong', 'gulong', 'gint64', 'guint64', 'gfloat',
           'gdouble', 'gchar', 'guchar')


def caps_text(caps):
    """One structure per line, as the hotdoc cache shows caps."""
    if caps.is_any():
        return 'ANY'
    if caps.is_empty():
        return 'EMPTY'
    return '\n'.join(caps.get_structure(i).to_string()
                     for i in range(caps.get_size()))


def hierarchy(gtype):
    names = []
    while gtype != GObject.TYPE_INVALID:
        names.append(gtype.name)
        gtype = gtype.parent
    return names


def enum_or_flags_type(gtype, other_types):
    """Records an enum or flags type's values under "other-types"."""
    if gtype.name in other_types:
        return
    kind = 'enum' if gtype.is_a(GObject.TYPE_ENUM) else 'flags'
    values = []
    for nick, value, desc in enum_values(gtype):
        values.append({'desc': desc, 'name': nick, 'value': str(value)})
    other_types[gtype.name] = {'kind': kind, 'values': values}


def enum_values(gtype):
    """(nick, value, description) of every value of an enum or flags type."""
    is_enum = gtype.is_a(GObject.TYPE_ENUM)
    # PyGObject's wrapper class of the type lists its values.
    pytype = gtype.pytype or (enum_add if is_enum else flags_add)(gtype)
    table = pytype.__enum_values__ if is_enum else pytype.__flags_values__
    out = []
    for value in sorted(table):
        member = table[value]
        out.append((member.value_nick, int(value), member.value_name))
    return out


def default_text(spec):
    value = spec.default_value
    vtype = spec.value_type
    if vtype.is_a(GObject.TYPE_ENUM):
        for nick, number, _ in enum_values(vtype):
            if number == int(value):
                return '%s (%d)' % (nick, number)
        return str(int(value))
    if vtype.is_a(GObject.TYPE_FLAGS):
        nicks = [nick for nick, number, _ in enum_values(vtype)
                 if number and (int(value) & number) == number]
        return '+'.join(nicks) if nicks else '(none)'
    if vtype.name == 'gboolean':
        return 'true' if value else 'false'
    if vtype.name in NUMERIC:
        return str(value)
    if vtype.name == 'gchararray':
        return 'NULL' if value is None else value
    if value is None:
        return 'NULL'
    if isinstance(value, Gst.Caps):
        return caps_text(value)
    return str(value)


def property_entry(spec, other_types):
    flags = spec.flags
    entry = {
        'blurb': spec.blurb or '',
        'conditionally-available':
            bool(flags & Gst.PARAM_CONDITIONALLY_AVAILABLE),
        'construct': bool(flags & GObject.ParamFlags.CONSTRUCT),
        'construct-only': bool(flags & GObject.ParamFlags.CONSTRUCT_ONLY),
        'controllable': bool(flags & Gst.PARAM_CONTROLLABLE),
        'default': default_text(spec),
        'mutable': ('playing' if flags & Gst.PARAM_MUTABLE_PLAYING else
                    'paused' if flags & Gst.PARAM_MUTABLE_PAUSED else
                    'ready' if flags & Gst.PARAM_MUTABLE_READY else 'null'),
        'readable': bool(flags & GObject.ParamFlags.READABLE),
        'type': spec.value_type.name,
        'writable': bool(flags & GObject.ParamFlags.WRITABLE),
    }
    if spec.value_type.name in NUMERIC:
        entry['min'] = str(spec.minimum)
        entry['max'] = str(spec.maximum)
    if spec.value_type.is_a(GObject.TYPE_ENUM) or \
            spec.value_type.is_a(GObject.TYPE_FLAGS):
        enum_or_flags_type(spec.value_type, other_types)
    return entry


def signal_entries(gtype):
    signals = {}
    for signal_id in GObject.signal_list_ids(gtype):
        query = GObject.signal_query(signal_id)
        flags = query.signal_flags
        entry = {
            'args': [{'name': 'arg%d' % i, 'type': t.name}
                     for i, t in enumerate(query.param_types)],
            'return-type': query.return_type.name,
            'when': ('first' if flags & GObject.SignalFlags.RUN_FIRST else
                     'last' if flags & GObject.SignalFlags.RUN_LAST else
                     'cleanup'),
        }
        if flags & GObject.SignalFlags.ACTION:
            entry['action'] = True
        signals[query.signal_name] = entry
    return signals


def element_entry(factory, other_types):
    gtype = factory.get_element_type()
    templates = {}
    for template in factory.get_static_pad_templates():
        templates[template.name_template] = {
            'caps': caps_text(template.get_caps()),
            'direction': DIRECTION[template.direction],
            'presence': PRESENCE[template.presence],
        }
    properties = {}
    for spec in GObject.list_properties(gtype):
        if spec.owner_type == gtype:
            properties[spec.name] = property_entry(spec, other_types)
    return {
        'author': factory.get_metadata(Gst.ELEMENT_METADATA_AUTHOR),
        'description': factory.get_metadata(Gst.ELEMENT_METADATA_DESCRIPTION),
        'hierarchy': hierarchy(gtype),
        'interfaces': sorted(t.name for t in gtype.interfaces),
        'klass': factory.get_metadata(Gst.ELEMENT_METADATA_KLASS),
        'long-name': factory.get_metadata(Gst.ELEMENT_METADATA_LONGNAME),
        'pad-templates': templates,
        'properties': properties,
        'rank': RANKS.get(factory.get_rank(), str(factory.get_rank())),
        'signals': signal_entries(gtype),
    }


def plugin_entry(path):
    plugin = Gst.Plugin.load_file(path)
    other_types = {}
    elements = {}
    tracers = {}
    for feature in Gst.Registry.get().get_feature_list_by_plugin(
            plugin.get_name()):
        feature = feature.load()
        if isinstance(feature, Gst.ElementFactory):
            elements[feature.get_name()] = element_entry(feature, other_types)
        elif isinstance(feature, Gst.TracerFactory):
            tracers[feature.get_name()] = {}
    return plugin.get_name(), {
        'description': plugin.get_description(),
        'elements': elements,
        'filename': os.path.splitext(os.path.basename(path))[0].removeprefix(
            'lib'),
        'license': plugin.get_license(),
        'other-types': other_types,
        'package': plugin.get_package(),
        'source': plugin.get_source(),
        'tracers': tracers,
        'url': plugin.get_origin(),
    }


def dump(cache):
    return json.dumps(cache, indent=4, sort_keys=True, ensure_ascii=False) + '\n'


def main():
    parser = argparse.ArgumentParser(
        description='Write (--update) or check (--check) the plugin '
                    'documentation cache from built plugins.')
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument('--update', metavar='CACHE',
                      help='replace the plugins\' entries in CACHE')
    mode.add_argument('--check', metavar='CACHE',
                      help='fail when CACHE differs from the plugins as built')
    parser.add_argument('plugins', nargs='+', metavar='PLUGIN.so')
    args = parser.parse_args()

    # Only the given plugins, in a registry of their own.
    registry = tempfile.NamedTemporaryFile(suffix='.bin')
    os.environ['GST_REGISTRY'] = registry.name
    os.environ['GST_REGISTRY_FORK'] = 'no'
    os.environ['GST_PLUGIN_SYSTEM_PATH_1_0'] = ''
    os.environ['GST_PLUGIN_PATH_1_0'] = ''
    Gst.init(None)
    built = dict(plugin_entry(path) for path in args.plugins)

    cache_path = args.update or args.check
    try:
        with open(cache_path, encoding='utf-8') as f:
            cache = json.load(f)
    except FileNotFoundError:
        cache = {}

    if args.update:
        cache.update(built)
        with open(cache_path, 'w', encoding='utf-8') as f:
            f.write(dump(cache))
        print('%s: %s' % (cache_path, ', '.join(sorted(built))))
        return 0

    stale = False
    for name, entry in sorted(built.items()):
        committed = dump(cache.get(name, {})).splitlines(keepends=True)
        current = dump(entry).splitlines(keepends=True)
        if committed != current:
            stale = True
            sys.stdout.writelines(difflib.unified_diff(
                committed, current, '%s (%s)' % (cache_path, name),
                '%s as built' % name))
    if stale:
        print('%s is out of date: run `make docs` (or ninja -C BUILD '
              'plugins-doc-cache) and commit it' % cache_path)
        return 1
    print('%s describes %s as built' % (cache_path, ', '.join(sorted(built))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
