"""Capabilities: typed, pure operations on canonical pieces (see contract.py).

Framework modules sit here (contract, discovery, catalog, search, browse, runner, compose,
creation, docs_page); every sub-package except `common` is a kind's folder of operations,
one module per capability, each defining a module-level `CAPABILITY`.
"""
