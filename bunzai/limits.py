"""Every number bunzai enforces, in one place, each with the reason it is that number."""

# --- ids -------------------------------------------------------------------------------
# An id is a file stem on every platform a studio may be synced to; 128 keeps
# "<kind>/<id>@<utc>.json" in the graveyard well under the 255-byte file-name limit.
ID_MAX_LENGTH = 128

# --- JSON input ------------------------------------------------------------------------
# The largest JSON document bunzai parses from a user (drafts, --input, piece files).
# Real cards with embedded books stay under 2 MB; 32 MB leaves room for escrowed
# native documents with inlined base64 assets while refusing a runaway file.
JSON_MAX_BYTES = 32 * 1024 * 1024
# Deepest nesting accepted. Real platform documents nest under 20 levels; 200 keeps
# json.loads and pydantic far from Python's recursion limit on hostile input.
JSON_MAX_DEPTH = 200

# --- store -----------------------------------------------------------------------------
# How long a writer waits for a per-path lock before giving up with `lock_timeout`.
# Writes hold a lock for milliseconds; 10 s only trips on a stuck process.
LOCK_TIMEOUT_SECONDS = 10.0
# Poll interval while waiting for a lock: short enough to be fair under contention.
LOCK_POLL_SECONDS = 0.005
# Largest single asset the studio stores (media: portraits, sprites, backgrounds).
ASSET_MAX_BYTES = 64 * 1024 * 1024
# How many change-log bytes are read backwards to find the last `seq`; one record is a
# few hundred bytes, so this always covers the last line.
CHANGELOG_TAIL_BYTES = 64 * 1024
# Names tried when two burials of one id fall on the same microsecond stamp: each try
# moves the stamp one microsecond on, so a clash can only come from other writers burying
# the same id at once; 1000 tries is a millisecond of stamps, far beyond any real race.
GRAVEYARD_NAME_ATTEMPTS = 1000

# --- reading ---------------------------------------------------------------------------
# Default and largest page for `read --pointer`: characters of a string, items of an
# array or keys of an object. 4000 characters is about a screen and a page of a prompt.
READ_PAGE_DEFAULT = 4000
READ_PAGE_MAX = 200_000
# Longest value shown inline in an outline row before it is summarized by size.
OUTLINE_PREVIEW_CHARS = 80

# --- search ----------------------------------------------------------------------------
SEARCH_DEFAULT_LIMIT = 10
SEARCH_MAX_LIMIT = 200
# Query words considered; more only slows ranking without changing the top hits.
SEARCH_MAX_TERMS = 16
# Characters of context on each side of a hit in a snippet.
SNIPPET_CONTEXT_CHARS = 60

# --- review ----------------------------------------------------------------------------
# The apply review card shows at most this many before/after rows, each value cut to
# this many characters, so a huge draft still fits on one terminal screen.
REVIEW_MAX_ROWS = 12
REVIEW_VALUE_CHARS = 100

# --- change lists ----------------------------------------------------------------------
# A draft lists at most this many changes; past it the list ends with a summary row.
# A whole new lorebook is one change (its creation), so this only bounds pathological diffs.
DRAFT_MAX_CHANGES = 2000

# --- folders ---------------------------------------------------------------------------
# Most pieces a single `import` or `list` walks; more is a runaway folder, not a studio.
WALK_MAX_ENTRIES = 100_000
