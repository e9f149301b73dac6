"""JSON as bunzai reads and compares it, below the store and the adapters.

- `reading`  bounded parsing: size and depth checked before the parser, one decoder (last
             key wins, NaN/Infinity refused), lone surrogates mended, read notes
- `values`   JSON equality (1 is 1.0, true is not 1), the walk to where two values differ,
             RFC 6901 token escaping

Imports only `errors` and `limits` of bunzai.
"""
