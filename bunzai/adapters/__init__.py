"""The hub's spokes: one package per platform, each registering its formats with the hub.

`registry.py` is the hub; `inspect.py` takes a file to the adapter that claims it;
`common/` holds codecs several spokes use (PNG chunks, safe zip reading, card fields).
A spoke never imports another spoke.
"""
