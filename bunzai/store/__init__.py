"""The studio on disk: layout, revisions, locked create-only and compare-and-swap writes,
assets, graveyard and change log (DESIGN §3).

Linux and macOS only (POSIX): writes rely on hard links, `os.replace`, `fsync` of folders
(`syncfs` where Linux has it, see `batch`) and `fcntl.flock`.

One module per thing held:

- `studio`     the folder: finding it, creating it, the path of everything in it
- `canon`      canonical bytes and revisions (bounded JSON parsing is `bunzai.jsondoc.reading`)
- `atomic`     create-only and replacing file writes that never show a partial file
- `locks`      per-path locks
- `changelog`  the append-only change log
- `pieces`     canonical pieces: read, list, resolve, create, update, delete
- `assets`     content-addressed media
- `graveyard`  buried pieces: bury, list, restore

Modules are imported on use (`from bunzai.store.pieces import read_stored`); this package
file imports nothing so that `import bunzai.store.canon` stays cheap.
"""
