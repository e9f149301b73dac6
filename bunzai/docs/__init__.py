"""docs_query: bunzai's own documentation, asked and read in bounded pieces.

catalog.py   the generated catalog (bunzai/generated/docs.json): which pages exist, their
             hashes and their approved summaries; `bunzai docs index` writes and checks it
pages.py     where the Markdown lives (shipped in the wheel, or docs/ in a checkout) and the
             one containment function every page read goes through
markdown.py  a page split into H2/H3 sections with slugs, and into search chunks
bm25.py      a small in-memory BM25 index, and its stored form
search_index.py  the pages cut into search chunks and indexed; stored in the catalog, loaded
             by the first query while every page still has the catalog's hash
query.py     browse, outline, search, read and query: plain values in, JSON-able dicts out
summaries.py reviewed summaries: sidecars, stamps, review receipts, the check
"""
