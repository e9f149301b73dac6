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
# Depth allowed in bunzai's own pieces and drafts: they hold a document read from outside
# a few levels down (draft > proposed > original > document, or an extension inside a body),
# so a document import accepted is never refused by apply or the store as too deep.
WRAPPED_JSON_MAX_DEPTH = JSON_MAX_DEPTH + 8
# Values a YAML document may expand to. An alias (`*a`) repeats a subtree without its
# bytes, so nine nested lists of nine aliases expand to 387 million values from 400 bytes
# (a "billion laughs"); real YAML characters hold a few dozen values.
YAML_MAX_VALUES = 1_000_000

# --- store -----------------------------------------------------------------------------
# How long a writer waits for a per-path lock before giving up with `lock_timeout`.
# Writes hold a lock for milliseconds; 10 s only trips on a stuck process.
LOCK_TIMEOUT_SECONDS = 10.0
# Poll interval while waiting for a lock: short enough to be fair under contention.
LOCK_POLL_SECONDS = 0.005
# Largest single asset the studio stores (media: portraits, sprites, backgrounds).
ASSET_MAX_BYTES = 64 * 1024 * 1024
# A whole file stored beside a part of it (a card PNG beside its portrait: the file minus its
# text chunks) can be kept as a splice (naming the part and where it sits, then the file's
# other bytes) once the part holds this many bytes: a 552 KB card is then 552 KB on disk, not
# 1.06 MB. Below it a splice saves less than a disk block and costs a second read, so the file
# is stored plain. bunzai.native takes only an asset this large as a splice's base, too.
ASSET_SPLICE_MIN_BYTES = 4096
# Longest header of a splice file (its base, the spans, the size): a few dozen spans of a PNG
# take a few hundred bytes. apply stores a file plain rather than write a longer header, so a
# splice with a longer header is read as damaged (`corrupt_asset`).
ASSET_SPLICE_HEADER_MAX_BYTES = 64 * 1024
# How many change-log bytes are read backwards to find the last `seq`; one record is a
# few hundred bytes, so this always covers the last line.
CHANGELOG_TAIL_BYTES = 64 * 1024
# Names tried when two burials of one id fall on the same microsecond stamp: each try
# moves the stamp one microsecond on, so a clash can only come from other writers burying
# the same id at once; 1000 tries is a millisecond of stamps, far beyond any real race.
GRAVEYARD_NAME_ATTEMPTS = 1000
# Pieces a delete or bury receipt names as still pointing at what it removed (sorted); past
# it they are counted, not named: 50 refs read at a glance, and a world shared by hundreds
# of cards is told by its count without making the receipt a page of ids.
REFERRERS_MAX = 50

# --- apply ---------------------------------------------------------------------------
# Writes committed together (group commit): their folders and the change log are fsynced
# once per window, and their receipts printed after it. 256 pieces make the per-window
# fsyncs a rounding error next to the pieces' own, while a window's receipts stay a few
# hundred lines.
APPLY_WINDOW_WRITES = 256
# Bytes a window may hold staged (pieces and media read from their sources) before it is
# committed: bounds apply's memory whatever the cards weigh (30 Seraphina-sized cards).
APPLY_WINDOW_BYTES = 32 * 1024 * 1024
# How long apply waits for more input before committing the open window anyway.
APPLY_IDLE_SECONDS = 0.05
# A window is committed after this long even when not full, so receipts keep flowing
# while a slow producer (an import parsing big cards) feeds the pipe.
APPLY_WINDOW_SECONDS = 0.5
# Groups (a card and its book) waiting for their other drafts at once. Import sends each
# group's drafts together, so one is open at a time; 1,000 bounds memory on a hostile stream.
APPLY_OPEN_GROUPS_MAX = 1_000
# Drafts one group may declare: a card with its book and a few linked pieces is 2-5;
# a file that carries a whole library (a RisuAI module) a few hundred.
DRAFT_GROUP_MAX = 10_000

# --- doctor --------------------------------------------------------------------------
# A temp file whose writer is still running is left alone unless it is older than this:
# no write keeps a temp file for an hour, so an older one is left over whatever its pid says
# (a pid may be reused, and a studio on a shared disk sees other machines' pids).
DOCTOR_TEMP_GRACE_SECONDS = 3600
# A live process whose pid names a temp file wrote it only if it started before the file was
# last written; /proc gives boot time in whole seconds, so a start this much later still counts.
TEMP_START_SLACK_SECONDS = 2
# Characters of a foreign change-log line quoted in its `log_line` problem: enough to tell
# which tool wrote it, while a line of any length keeps the report one short row.
DOCTOR_LINE_EXCERPT_CHARS = 80

# --- reading ---------------------------------------------------------------------------
# Default and largest page for `read --pointer`: characters of a string, items of an
# array or keys of an object. 4000 characters is about a screen and a page of a prompt.
READ_PAGE_DEFAULT = 4000
READ_PAGE_MAX = 200_000
# Longest value shown inline in an outline row before it is summarized by size.
OUTLINE_PREVIEW_CHARS = 80

# --- search ----------------------------------------------------------------------------
# Hits `search` prints when no --limit is given: a screenful, the first page a person reads.
SEARCH_DEFAULT_LIMIT = 10
# Most hits one search may ask for: every hit carries a snippet, so 200 keeps one answer small.
SEARCH_MAX_LIMIT = 200
# Query words considered; more only slows ranking without changing the top hits.
SEARCH_MAX_TERMS = 16
# Characters of context on each side of a hit in a snippet.
SNIPPET_CONTEXT_CHARS = 60
# The studio index (`.bunzai/index.sqlite`) trusts a piece file's (inode, size, mtime, ctime)
# only when its mtime and ctime are before the moment the index read it, on the file system's
# clock (the index file's own mtime): a hand edit in the same tick, keeping the size, would
# otherwise go unseen. Where the index has no file of its own (kept in memory in a read-only
# studio) it uses the process's wall clock, and trusts a file only when it is this much older:
# two seconds covers the coarsest file-system clocks (FAT keeps 2 s) and a little skew. The
# graveyard's revision cache (`.bunzai/graveyard.json`) records an entry only when it is this old.
INDEX_RACY_SECONDS = 2.0
# Memory the index's FTS5 table may hold words in before it writes them out as a segment
# (FTS5's `hashsize`, 1 MiB by default): a first build of 10,000 pieces writes its text about
# 30% faster with this than with the default, into the same index.
INDEX_FTS_PENDING_BYTES = 16 * 1024 * 1024

# --- review ----------------------------------------------------------------------------
# The apply review card shows at most this many before/after rows, each value cut to
# this many characters, so a huge draft still fits on one terminal screen.
REVIEW_MAX_ROWS = 12
REVIEW_VALUE_CHARS = 100
# A long string's change is shown word by word: this many unchanged words either side of a
# change, and the whole row cut at this many characters (several changes still fit).
REVIEW_CONTEXT_WORDS = 4
REVIEW_DIFF_CHARS = 400
# Most words of each side's changed middle (after the unchanged start and end are set
# aside) that the word diff pairs up. Pairing is quadratic in the worst case (difflib's
# matcher over repeated words); 2,000 words pair in well under a second, and a larger
# rewrite is shown as one deletion and one insertion, cut to REVIEW_DIFF_CHARS like any row.
REVIEW_WORD_DIFF_MAX_WORDS = 2000

# --- change lists ----------------------------------------------------------------------
# Longest value a create draft's change row repeats (the piece itself is in `proposed`):
# enough to review any field at a glance; a 5 MB preset is not copied into its changes.
DRAFT_CHANGE_VALUE_CHARS = 2000
# A draft lists at most this many changes; past it the list ends with a summary row.
# A whole new lorebook is one change (its creation), so this only bounds pathological diffs.
DRAFT_MAX_CHANGES = 2000

# --- folders ---------------------------------------------------------------------------
# Most entries one walk looks at: the studio's own folders (`list`, the search index, `doctor`), a grant
# `folder search` walks, one folder `folder read` pages (a page is in name order, so every
# entry is listed whatever the page's size); more is a runaway folder, not a studio.
# `import` walks any number of files, one at a time.
WALK_MAX_ENTRIES = 100_000

# --- archives (ZIP: CHARX, sprite packs) -------------------------------------------------
# Largest archive file bunzai opens. A CHARX with a few dozen full-size images, or a
# 28-sprite pack of large PNGs, stays well under 100 MB; 256 MB refuses a runaway file
# before it is scanned. bunzai's archive writer refuses (too_large) an archive past this or
# the three limits below, so it never writes one it would not open (a sprite folder may
# hold FOLDER_PIECE_MAX_BYTES, more than one archive does).
ARCHIVE_MAX_BYTES = 256 * 1024 * 1024
# Most members an archive may list. A sprite pack has ~30 images, a rich CHARX a few
# hundred assets; RisuAI's own CHARX holds two members per asset (the file and its x_meta
# note) and sets no cap, so 16,384 reads one of 8,000 assets. The bytes are bounded apart
# (ARCHIVE_*_BYTES); walking 16,384 central-directory entries costs milliseconds.
ARCHIVE_MAX_MEMBERS = 16_384
# Largest single member, counted while decompressing: the largest asset the studio stores,
# so whatever a piece holds goes into an archive and back (a CHARX may carry a video or an
# audio asset). card.json is held to JSON_MAX_BYTES as it is parsed.
ARCHIVE_MEMBER_MAX_BYTES = ASSET_MAX_BYTES
# Most bytes all members may decompress to, together, counted while reading.
# 256 MB holds every real pack and CHARX while keeping memory bounded.
ARCHIVE_TOTAL_MAX_BYTES = 256 * 1024 * 1024
# Highest compression ratio (uncompressed / compressed) a member may reach once it has
# produced ARCHIVE_RATIO_FLOOR_BYTES. Images barely compress and JSON compresses 5-20x;
# deflate tops out near 1030x, which only padding or a bomb reaches (or a book of one entry
# repeated: bunzai's archive writer stores such a member, so this never refuses its own).
ARCHIVE_MAX_RATIO = 200
# The ratio is judged only past this many uncompressed bytes: a small run of zeros or
# whitespace compresses far beyond any ratio and is harmless at that size.
ARCHIVE_RATIO_FLOOR_BYTES = 1024 * 1024
# Bytes decompressed per step while reading a member, so every check runs before
# memory grows by more than this.
ARCHIVE_READ_CHUNK_BYTES = 64 * 1024

# --- import and folders ----------------------------------------------------------------
# Largest single file `import`/`convert` reads into memory. Real cards, CHARX archives and
# sprite packs stay well under 100 MB; this refuses a stray disk image before reading it.
IMPORT_FILE_MAX_BYTES = 256 * 1024 * 1024
# How deep folder walks (import of a folder, folder search) descend. Studios and export
# folders nest 2-4 levels; 16 leaves room without following a runaway tree.
FOLDER_WALK_MAX_DEPTH = 16
# Files a folder-shaped piece (a sprite folder) may hold, and their total size (regular
# files only: a FIFO, device or socket in it is no part of it). A folder
# named like one but over either is walked file by file, and the import says why when its
# files held no piece (in a SillyTavern user folder's characters/<name>/, a too_large error
# for that folder instead).
FOLDER_PIECE_MAX_FILES = 2_000
FOLDER_PIECE_MAX_BYTES = 512 * 1024 * 1024
# Show a progress bar on stderr when an import goes through at least this many files.
PROGRESS_MIN_FILES = 5

# --- PNG cards -------------------------------------------------------------------------
# A card PNG is stored whole as a studio asset, so it cannot be larger than one.
PNG_MAX_BYTES = ASSET_MAX_BYTES
# Largest single chunk: an image's IDAT or a card's text chunk (a book with inlined
# base64 assets). Anything bigger than a whole card is a forged length field.
PNG_CHUNK_MAX_BYTES = PNG_MAX_BYTES
# Chunks walked in one file. Real cards have under 50; a file of millions of empty
# chunks would make the scan itself the attack.
PNG_MAX_CHUNKS = 100_000
# Most bytes a zTXt/iTXt chunk may inflate to: the base64 of the largest JSON we parse
# (4/3 of JSON_MAX_BYTES) plus slack, so a zip bomb stops at a known size.
PNG_TEXT_INFLATE_MAX_BYTES = JSON_MAX_BYTES * 4 // 3 + 1024
# Characters of a card chunk's text quoted when it is no card (a site's "Removed" in place of
# the base64): enough for a word or two, while a long damaged chunk is described, not quoted.
PNG_CARD_TEXT_QUOTED_CHARS = 40

# --- card media ------------------------------------------------------------------------
# Largest data: URI decoded from a CCv3 `assets` entry: one studio asset.
CARD_DATA_URI_MAX_BYTES = ASSET_MAX_BYTES

# --- capabilities ----------------------------------------------------------------------
# `cap find` answers with at most this many matches: enough to pick from at a glance, few
# enough that an agent reads them all instead of paging.
CAP_FIND_MAX_RESULTS = 5
# Most operations one composed draft may hold; a longer chain is a script, not an edit,
# and every operation is replayed into the review.
DRAFT_MAX_OPERATIONS = 200
# Largest media a capability input may carry inline as a data: URI (a pack item): one
# studio asset. Bigger files come in with `bunzai import`.
MEDIA_DATA_URI_MAX_BYTES = ASSET_MAX_BYTES

# --- macros ----------------------------------------------------------------------------
# Most same-family alternatives named for an absent or colliding macro: enough to choose
# from, few enough to read in a receipt row.
MACRO_CANDIDATES_MAX = 6
# Largest text `macro translate` reads. A big chat-completion preset is 200-500 KB of
# prompts; 8 MB holds a preset with every prompt inlined many times over, and translating
# it stays well under a second.
MACRO_TEXT_MAX_BYTES = 8 * 1024 * 1024
# Deepest nesting of macros inside macro arguments that is translated; real presets nest 2-3
# levels, and a bound keeps hostile input from recursing without end.
MACRO_NESTING_MAX = 16
# Blocks an engine reads as text, nested one inside another, that are read through: each level
# takes a reading of the whole text (Agnai's failed `{{#insert}}` inside a failed one), so a bound
# keeps hostile nesting linear; real presets nest one or two. Past it, the blocks they hold are
# not read as blocks (left as written, their verdicts say so); other macros there still cross.
MACRO_TEXT_BLOCKS_NESTED_MAX = 16
# Levels of openers left unclosed, one inside another, that are read exactly where an opener left
# unclosed is text (Agnai): each pairing of the text's openers and closers runs again without the
# outermost openers an earlier one left unclosed, as those held others open or shut (the same
# token right inside one, `{{#if a}}{{#if a}}`, goes with it), so each level of such openers (an
# `{{#if}}` in an else block, which Agnai reads as text, in an `{{#if}}` ...) takes one more
# pairing; a bound keeps hostile nesting linear; real presets need one or two. Past it, the openers
# still unclosed are text: the outermost of them as they would be after any further pairing, but
# one inside another might open on a later pairing, and the openers they hold stay paired as if
# they were open; Agnai may read those otherwise. The verdicts of the openers still unclosed, and
# of the openers they hold that open no block there, an else among them, name the bound.
MACRO_UNCLOSED_NESTED_MAX = 16
# Distinct token spellings whose parse is remembered per process. A preset repeats a few
# hundred spellings thousands of times; 4096 holds them all in well under a megabyte.
MACRO_TOKEN_CACHE = 4096

# --- library import and export ------------------------------------------------------------
# Hex digits of a name's SHA-256 that follow a transliterated id (`xuenai-d00ba6`): 16.7
# million values keep the names of one library apart, and six digits stay readable.
# Mirrored in bunzai.model.ids (the model may not import bunzai).
NAME_HASH_LENGTH = 6
# Longest file stem, in UTF-8 bytes, a library export writes: file systems allow 255 bytes
# per name, and 200 leaves room for the extension and a platform's own suffixes.
EXPORT_STEM_MAX_BYTES = 200
# Longest export file name, in UTF-8 bytes: the 255 bytes per name file systems allow.
EXPORT_NAME_MAX_BYTES = 255
# Longest file name, in UTF-8 bytes, the file systems bunzai writes on take (ext4, btrfs, APFS):
# a temp file written beside a name near it cuts its copy of the name to fit (store.atomic).
FILE_NAME_MAX_BYTES = 255
# --- regex lab (bunzai/regexlab: users' patterns run in an embedded ECMAScript engine) ---
# Longest any one run of a pattern may take, in the engine's CPU time (QuickJS counts
# CPU, so on a loaded machine the wall time is longer). A real roleplay rule over a long
# message finishes in milliseconds; a pattern still running after 1 s is backtracking
# catastrophically, and QuickJS interrupts it (the run is refused as `regex_timeout`).
REGEX_RUN_SECONDS = 1.0
# The probe run when regex content enters (capability drafts, imports): a warning, not a
# refusal, so it may be short; 0.1 s still lets a sound pattern scan a long probe text.
REGEX_PROBE_SECONDS = 0.1
# Rules probed in one import or one draft; past it the rest are named as not probed, so a
# file of thousands of rules cannot make an import take minutes.
REGEX_PROBE_MAX_RULES = 200
# Each bounded run `lint` makes on a crafted input to confirm a backtracking risk, and the
# time all of one lint's confirming runs may take together.
REGEX_LINT_PROBE_SECONDS = 0.25
REGEX_LINT_BUDGET_SECONDS = 10.0
# Length of the crafted input: 30 repetitions give a nested quantifier 2^30 ways to fail,
# far past any time limit, while a sound pattern reads them in microseconds.
REGEX_PUMP_REPEATS = 30
# Most candidate inputs tried per suspect pattern (characters and literals of the pattern).
REGEX_PUMP_TRIES = 12
# Largest text a pattern runs over (characters). A long chat message is 10-50 k characters;
# 1 M covers a whole exported chat and keeps the engine's memory small.
REGEX_TEXT_MAX_CHARS = 1_000_000
# Longest pattern accepted. Hand-written rules are under 1 k; generated word lists reach
# a few thousand characters.
REGEX_PATTERN_MAX_CHARS = 50_000
# Memory the embedded engine may allocate: the text, its copies and a backtracking stack.
REGEX_ENGINE_MEMORY_BYTES = 256 * 1024 * 1024
# Matches listed by `try`; more are counted, not shown, so the answer stays readable.
REGEX_MATCHES_SHOWN = 200
# Candidates `race` compares side by side, and rules `lint` reads in one set.
REGEX_RACE_MAX_CANDIDATES = 16
REGEX_LINT_MAX_RULES = 1000
# Example strings `from-examples` reads (match and no-match together).
REGEX_EXAMPLES_MAX = 200
# Samples built per rule to test whether an earlier rule leaves it anything to match.
REGEX_WITNESSES_PER_RULE = 6
# Deepest nesting of groups bunzai's own pattern reader follows (explain, lint's flag, group
# and shadow checks): hand-written rules nest a handful deep; each level costs several frames
# of Python's stack in the reader and the walks over its tree. A deeper pattern is described
# as unreadable (the engine still judges whether it compiles and how it runs).
REGEX_READ_MAX_DEPTH = 64
# Largest drawing (HTML) `regex-from-drawing` and `html-will-draw` read: a status panel
# is a few kilobytes; 2 MB holds inline SVG and CSS with room to spare.
DRAWING_MAX_BYTES = 2 * 1024 * 1024
# --- docs query ------------------------------------------------------------------------
# `docs browse` rows: 12 fit on a screen and in an agent's glance; 25 at most keeps one
# answer small enough that paging with --offset is the way to walk a long collection.
DOCS_BROWSE_DEFAULT = 12
DOCS_BROWSE_MAX = 25
# `docs search` hits: the same reasoning as browse; past 25 hits a better query beats paging.
DOCS_SEARCH_DEFAULT = 12
DOCS_SEARCH_MAX = 25
# `docs read` window in characters. 1,000 is the least worth a call (a few paragraphs);
# 12,000 (about 3,000 tokens) is the most one answer should put in an agent's context;
# 4,000 by default is a screenful of prose, like READ_PAGE_DEFAULT.
DOCS_READ_MIN = 1000
DOCS_READ_DEFAULT = 4000
DOCS_READ_MAX = 12_000
# Largest docs page read. The generated capability reference is the biggest page (about
# 300 KB); 2 MB leaves it room to grow while refusing a runaway file.
DOCS_PAGE_MAX_BYTES = 2 * 1024 * 1024
# Longest page id or section slug accepted: ids are a folder or two and a file stem.
DOCS_ID_MAX_CHARS = 200
# Longest search query read; past a few sentences more words only dilute the ranking
# (only the first SEARCH_MAX_TERMS distinct words are scored anyway).
DOCS_QUERY_MAX_CHARS = 500
# Words whose stem the docs search remembers: the docs hold about 4,000 distinct words, and a
# long MCP session adds its queries' words; past this, new words are stemmed each time.
DOCS_STEM_MEMO_WORDS = 50_000
# Characters of a chunk shown as a search snippet: a line or two, enough to judge a hit.
DOCS_SNIPPET_CHARS = 200
# A reviewed summary is one to three lines: 400 characters for a page or a section,
# at most 12 topics of at most 40 characters, review notes up to 2,000 characters.
DOCS_SUMMARY_MAX_CHARS = 400
DOCS_TOPICS_MAX = 12
DOCS_TOPIC_MAX_CHARS = 40
DOCS_REVIEW_NOTES_MAX_CHARS = 2000

# --- render (bunzai render, preset-verify) ------------------------------------------------
# {{space::n}} / {{newline::n}} repeat at most 1,000 times: more is a typo, not a layout.
RENDER_REPEAT_MAX = 1000
# {{roll}} (and a promptbook's dice in a rehearsal) throw at most 1,000 dice: enough for any
# table-top formula, bounded in time.
RENDER_DICE_MAX = 1000
# Digits of a {{roll}} count, die or bonus: JavaScript's numbers (SillyTavern's dice) are whole
# only below 2**53, and every 15-digit number is; a longer one rolls as nothing, never reaching
# int() (which refuses 4,300 digits).
RENDER_ROLL_MAX_DIGITS = 15
# Most sides a promptbook die has, and the largest whole number its notation adds, in a
# rehearsal: d1000 is about the largest die in table-top use. Read before converting, so a
# term of thousands of digits is refused, not fed to int(); and 1,000 dice of this many sides
# stay far below 2**53, a total every JSON reader holds exactly.
RENDER_DICE_MAX_SIDES = 1_000_000
# Messages read from a --chat file: a long roleplay is a few thousand messages; past 10,000
# the render would not fit any context anyway.
RENDER_CHAT_MAX_MESSAGES = 10_000
# Largest --chat file read (bytes): 10,000 long messages of a few KB each.
RENDER_CHAT_MAX_BYTES = 64 * 1024 * 1024
# Lorebook recursion steps when the book says 0 (unlimited): SillyTavern stops when nothing
# new activates; 50 bounds a book whose entries keep activating each other.
RENDER_RECURSION_MAX = 50
# SillyTavern's default world-info budget is 25% of the prompt's room: the context size less
# the response length; with no context size in the preset, SillyTavern's default context
# (4,095 tokens) is taken as the room.
RENDER_DEFAULT_CONTEXT = 4095
RENDER_WI_BUDGET_PERCENT = 25
# Messages SillyTavern scans for lorebook keys when neither entry nor book says (its default).
RENDER_DEFAULT_SCAN_DEPTH = 2
# Deepest in-chat injection SillyTavern sends (MAX_INJECTION_DEPTH, script.js): its injection
# loops stop there, so a block, note or entry placed deeper is never sent.
RENDER_MAX_INJECTION_DEPTH = 10_000
# UTF-8 bytes per token of the estimate: SillyTavern's own fallback when no tokenizer runs
# (tokenizers.js guesstimate, bytes since 1.17; a character of CJK text is three of them).
RENDER_BYTES_PER_TOKEN = 3.35
# A SillyTavern checkout's macro engine run headless under node: loading the modules and
# evaluating a few hundred texts takes well under a second; 20 s bounds a checkout that hangs.
RENDER_ST_ENGINE_SECONDS = 20
# Texts sent to the checkout's engine in one render: every block of a large preset fits.
RENDER_ST_ENGINE_MAX_TEXTS = 2000
# --- media from files ------------------------------------------------------------------
# Largest local file a media reference (@path, file:path, an archive member) may name: one
# studio asset, the same bound as an asset stored by import.
MEDIA_FILE_MAX_BYTES = ASSET_MAX_BYTES
# Most media one input may name (a pack's folder of sprites, a character's extra media).
# SillyTavern's default expression set is 28 labels; a big multi-sprite pack has a few
# hundred files. Each file is read once to hash and sniff, so the bound keeps a draft's
# making to seconds.
MEDIA_REFS_MAX = 400
# A file's list of images (a Marinara export's sprites) names at most this many it skips, one
# warning each; a count says how many more, so a hostile list of a million cannot flood a read.
SKIPPED_MEDIA_WARNINGS_MAX = 20
# Bytes read to decide whether an unrecognised file is text (UTF-8 without NUL bytes):
# enough to see past a short header, cheap on a 64 MB file.
MEDIA_TEXT_SNIFF_BYTES = 64 * 1024
# Platform impact (capabilities/runner.py, convert.platform_impact): a draft of a new piece
# names at most this many pointers per format it would not fully carry, and a draft of a change
# at most this many rows of one note per format; beyond that a count says how many more, so a
# draft stays readable whatever the piece holds.
IMPACT_POINTERS_SHOWN = 8
# A draft on a lorebook (or a card's book) crosses only the entries its change touches
# (changes/entry_slice.py), unless the piece nests deeper than this: a format's file may nest
# a few levels deeper than the piece (an entry's extensions under the format's own keys), and
# the readers refuse a file past JSON_MAX_DEPTH, so a piece near it is crossed whole, where
# its deepest entry may be the one a slice leaves out. Twice the levels a piece may wrap a
# document in. (Size needs no limit of its own: a format whose file of the whole piece could
# pass its reader's size limit is crossed whole; see entry_slice.fits.)
IMPACT_SLICE_MAX_DEPTH = JSON_MAX_DEPTH - 2 * (WRAPPED_JSON_MAX_DEPTH - JSON_MAX_DEPTH)
# --- watching a studio (changes, wait, revert) ------------------------------------------
# A session label names a cursor file (.bunzai/cursors/<session>.json): a short slug, like
# the random 16-hex-digit id a process makes for itself.
SESSION_MAX_LENGTH = 64
# Changes one `bunzai changes` reports; the cursor moves only past what was reported, so
# the next call continues. 500 rows keep one answer a readable page for a person or a model.
CHANGES_MAX_REPORTED = 500
# `bunzai wait`: the default and the longest wait. 55 s stays under the 60 s a typical MCP
# client or HTTP proxy allows one call; 15 s answers an idle agent reasonably soon.
WAIT_DEFAULT_SECONDS = 15.0
WAIT_MAX_SECONDS = 55.0
# How often a waiting process stats the change log (and a watched piece): one stat of one
# file each 50 ms is invisible on a machine, and a change is seen within a blink.
WAIT_POLL_SECONDS = 0.05
# Earlier revisions of one piece kept for `bunzai revert` (.bunzai/history/<kind>/<id>/):
# an edit session rarely touches one piece more than a few dozen times; older ones are
# pruned as new ones are written, so history is bounded by pieces x 32.
HISTORY_PER_PIECE = 32
# This session's own changes one `bunzai revert` undoes (newest first); a longer session is
# reverted by running it again.
REVERT_MAX_CHANGES = 500
# --- MCP server (bunzai mcp) -------------------------------------------------------------
# A tool result whose JSON text is longer than this goes into a result handle instead of
# the reply: 64,000 characters is a whole Seraphina-sized card (about 20,000) three times
# over, and about 16,000 tokens, a fair share of an agent's context for one answer.
MCP_RESULT_INLINE_MAX_CHARS = 64_000
# The start of a handled result sent with its handle, so the agent sees what it holds.
MCP_RESULT_PEEK_CHARS = 4_096
# One result_query read: three pages of the inline size's order would flood the context.
MCP_RESULT_READ_MAX_CHARS = 12_000
# Rows one literal result_query search returns; each row names its offset to read from.
MCP_RESULT_SEARCH_MAX_ROWS = 50
# Characters shown around each literal search hit.
MCP_RESULT_SEARCH_CONTEXT_CHARS = 80
# Result handles a session keeps; the oldest is evicted first beyond any of these bounds.
MCP_HANDLES_MAX = 24
# The largest result (UTF-8 bytes of its JSON text) one handle holds: a 200,000-character
# lorebook fits; beyond it the envelope cuts values (to `…`) until the result fits.
MCP_HANDLE_MAX_BYTES = 1_000_000
# All handles of a session together: the server's memory stays bounded whatever it reads.
MCP_HANDLES_TOTAL_MAX_BYTES = 4_000_000
# Capabilities one capability_find reveals as callable tools (the same five `cap find` shows).
MCP_REVEALED_TOOLS_MAX = CAP_FIND_MAX_RESULTS
# Drafts a session holds (made by capability tools, kept until applied or discarded):
# an agent works on a few pieces at once; 64 bounds memory when one forgets to discard.
MCP_SESSION_DRAFTS_MAX = 64
# studio_wait over MCP waits in slices this long: a cancelled wait frees the server's one tool
# thread within a slice, instead of holding every later call for up to WAIT_MAX_SECONDS.
MCP_WAIT_SLICE_SECONDS = 1.0
# The longest JSON-RPC line the server reads: the largest JSON input bunzai accepts, with
# room for its framing. A longer line is refused as a parse error, not read into memory.
MCP_FRAME_MAX_BYTES = JSON_MAX_BYTES + 64 * 1024
# The deepest JSON-RPC line the server parses: a piece's document wrapped in a tool's arguments
# (params, arguments, input ...). A deeper line is a parse error, refused before it is parsed.
MCP_FRAME_MAX_DEPTH = WRAPPED_JSON_MAX_DEPTH + 8
# How long a tool waits for the client's answer to an elicitation (ask_choice) before
# taking it as cancelled: a person reads and answers in well under ten minutes.
MCP_ELICIT_TIMEOUT_SECONDS = 600.0
# Bytes kept free in a handle for the trusted part of a result (ids, revisions, counts) around
# the enveloped data: those are a few hundred bytes in every tool's result.
MCP_RESULT_FRAME_BYTES = 4_096
# ask_choice: the longest question, and most answers, one elicitation may show a person
# (a question is a sentence or two; a longer list of answers is a search, not a choice).
MCP_ASK_QUESTION_MAX_CHARS = 2_000
MCP_ASK_CHOICES_MAX = 20
# ask_choice: fewest answers; one is no choice (the agent can go on without asking).
MCP_ASK_CHOICES_MIN = 2
# folder_import: paths one call may name (each may be a folder of any size, walked as a stream).
MCP_IMPORT_PATHS_MAX = 64
# Longest tool name: the clients (Claude, Cursor) accept names of up to 64 characters.
MCP_TOOL_NAME_MAX_CHARS = 64
# studio_list: pieces one page holds, by default and at most. A row (kind, id, name, revision)
# is about 150 characters, so a page stays well inside the inline size; a studio of thousands
# is read page by page, each answer naming the piece the next page starts after (an offset-paged
# answer also its next offset).
MCP_LIST_PAGE_MAX = 200
# --- did-you-mean -----------------------------------------------------------------------
# Most spellings one error suggests (a hint is one line), and how alike a spelling must be
# (difflib's ratio; 0.6 is difflib's own default: `sera` -> `seraphina` is 0.62).
SUGGEST_MAX = 3
SUGGEST_CUTOFF = 0.6
# --- --table output ---------------------------------------------------------------------
# Hex digits of a revision or hash shown in a table (12 tells revisions apart in any studio
# a person reads as a table), and the widest cell, in terminal columns, before it is cut with
# "…" ("..." on a stream that is not UTF-8).
TABLE_HASH_CHARS = 12
TABLE_CELL_MAX_CHARS = 60
# --- generated files --------------------------------------------------------------------
# Diff lines an out_of_date error shows for a generated file (catalogs, generated pages)
# that differs from its sources: enough to see what changed, short enough that one stale
# file does not flood a CI log (the rest is counted, not printed).
GENERATED_DIFF_MAX_LINES = 200
# --- the garbage collector --------------------------------------------------------------
# gc.set_threshold for a bunzai process (CPython's default is 700, 10, 10). bunzai's data
# are trees, not cycles; with the default, reading a big book or a library runs a full pass
# over every live object again and again and frees nothing (a draft on a 4,000-entry book
# spent more than half its CPU there). The passes still run, about 70 times less often,
# so the few cycles there are (tracebacks) are still freed in a long `bunzai mcp` session.
GC_THRESHOLDS = (50_000, 10, 10)
