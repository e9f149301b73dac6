"""Reviewed summaries: one sidecar per page, stamped by its author, approved by someone else.

    docs/summaries/<page id>.json         {"page", "summary", "topics", "sections", "stamp"}
    docs/summary-reviews/<page id>.json   the latest review receipt of that page

`stamp` records who wrote the summary and binds it to the page's source hash and the
summary's own hash (of page, summary, topics and sections). `review` writes a receipt bound
to the same two hashes; a reviewer may not approve what they stamped. A summary is
navigation metadata (it enters the catalog) only while the page, the summary, the stamp
and an APPROVE receipt all agree; editing the page or the summary drops it back to
headings only until it is stamped and reviewed again. `check` fails, naming the next
command for each page, until every page is approved and current.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, UTC
from pathlib import Path

from bunzai.docs import markdown
from bunzai.docs.pages import CHECKOUT_ROOT, check_page_id, scan_pages, text_hash
from bunzai.errors import BunzaiError
from bunzai.files import read_text_nofollow
from bunzai.limits import (
    DOCS_PAGE_MAX_BYTES,
    DOCS_REVIEW_NOTES_MAX_CHARS,
    DOCS_SUMMARY_MAX_CHARS,
    DOCS_TOPIC_MAX_CHARS,
    DOCS_TOPICS_MAX,
    JSON_MAX_BYTES,
)

SIDECARS = "summaries"
RECEIPTS = "summary-reviews"
RECEIPT_TYPE = "bunzai.docs.summary-review"
VERDICTS = ("approve", "block")
# What each status asks for next; {page} is filled in.
NEXT_STEP = {
    "missing": "bunzai docs summaries scaffold {page} --summary '...' --topics 'a,b'",
    "unstamped": (
        "write the summary in docs/summaries/{page}.json, then: bunzai docs summaries stamp {page} --reviewer YOU"
    ),
    "stamp_stale": (
        "the page or its summary changed since the stamp: bring docs/summaries/{page}.json up to date, "
        "then: bunzai docs summaries stamp {page} --reviewer YOU"
    ),
    "unreviewed": (
        "someone other than the stamper runs: bunzai docs summaries review {page} APPROVE --notes '...' --reviewer THEM"
    ),
    "review_stale": (
        "restamped since the last review: bunzai docs summaries review {page} APPROVE --notes '...' --reviewer THEM"
    ),
    "blocked": "address the review notes in docs/summary-reviews/{page}.json, restamp, and ask for a new review",
    "orphan": "docs/summaries/{page}.json has no page: delete it and docs/summary-reviews/{page}.json",
}


def sidecar_path(page_id: str, docs: Path = CHECKOUT_ROOT) -> Path:
    return docs / SIDECARS / f"{check_page_id(page_id)}.json"


def receipt_path(page_id: str, docs: Path = CHECKOUT_ROOT) -> Path:
    return docs / RECEIPTS / f"{check_page_id(page_id)}.json"


def reviewed_content(sidecar: dict) -> dict:
    """The fields a review approves: the page id, the summary, its topics, section summaries."""
    return {
        "page": sidecar.get("page"),
        "summary": sidecar.get("summary", ""),
        "topics": list(sidecar.get("topics", [])),
        "sections": dict(sidecar.get("sections", {})),
    }


def content_hash(content: dict) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def summary_status(page_id: str, text: str, docs: Path = CHECKOUT_ROOT) -> dict:
    """{"page", "status", ...}: approved (with "content") or what is missing, with the next step."""
    sidecar = _read_json(sidecar_path(page_id, docs))
    if sidecar is None:
        return _status(page_id, "missing")
    stamp = sidecar.get("stamp")
    if not isinstance(stamp, dict):
        return _status(page_id, "unstamped")
    content = reviewed_content(sidecar)
    source, summary = text_hash(text), content_hash(content)
    if stamp.get("source_sha256") != source or stamp.get("summary_sha256") != summary:
        return _status(page_id, "stamp_stale")
    receipt = _read_json(receipt_path(page_id, docs))
    if receipt is None:
        return _status(page_id, "unreviewed")
    if receipt.get("source_sha256") != source or receipt.get("summary_sha256") != summary:
        return _status(page_id, "review_stale")
    if receipt.get("verdict") != "approve" or receipt.get("reviewer") == stamp.get("by"):
        return _status(page_id, "blocked")
    return dict(_status(page_id, "approved"), content=content)


def _status(page_id: str, status: str) -> dict:
    row = {"page": page_id, "status": status}
    if status in NEXT_STEP:
        row["next"] = NEXT_STEP[status].format(page=page_id)
    return row


def scaffold(page_id: str, *, summary: str = "", topics: list[str] | None = None, docs: Path = CHECKOUT_ROOT) -> dict:
    """Create the page's sidecar: the summary and topics given, and one empty entry per section."""
    text = _page_text(page_id, docs)
    path = sidecar_path(page_id, docs)
    if path.exists():
        raise BunzaiError(
            "occupied", f"{_shown(path, docs)} already exists", "edit it, then `bunzai docs summaries stamp`"
        )
    sidecar = {
        "page": page_id,
        "summary": summary.strip(),
        "topics": _clean_topics(topics or []),
        "sections": {part.slug: "" for part in markdown.sections(text)},
    }
    _write_json(path, sidecar)
    return {
        "page": page_id,
        "status": "scaffolded",
        "path": _shown(path, docs),
        "next": "fill in the summary (and any section summaries), then: "
        f"bunzai docs summaries stamp {page_id} --reviewer YOU",
    }


def stamp(page_id: str, reviewer: str, docs: Path = CHECKOUT_ROOT) -> dict:
    """Check the sidecar against the page, drop empty section entries, and bind it to both hashes."""
    reviewer = _check_reviewer(reviewer)
    text = _page_text(page_id, docs)
    path = sidecar_path(page_id, docs)
    sidecar = _read_json(path)
    if sidecar is None:
        raise BunzaiError(
            "not_found", f"no summary for {page_id}", f"run `bunzai docs summaries scaffold {page_id}` first"
        )
    content = _checked_content(page_id, sidecar, text)
    sidecar = dict(content)
    sidecar["stamp"] = {"by": reviewer, "source_sha256": text_hash(text), "summary_sha256": content_hash(content)}
    _write_json(path, sidecar)
    return {
        "page": page_id,
        "status": "stamped",
        "by": reviewer,
        "summary_sha256": sidecar["stamp"]["summary_sha256"],
        "next": f"someone else runs: bunzai docs summaries review {page_id} APPROVE --notes '...' --reviewer THEM",
    }


def review(page_id: str, verdict: str, notes: str, reviewer: str, docs: Path = CHECKOUT_ROOT) -> dict:
    """Write the page's review receipt: APPROVE or BLOCK the stamped, current summary."""
    reviewer = _check_reviewer(reviewer)
    verdict = str(verdict).lower()
    if verdict not in VERDICTS:
        raise BunzaiError(
            "usage",
            f"verdict {verdict!r} is neither APPROVE nor BLOCK",
            "bunzai docs summaries review PAGE APPROVE|BLOCK --notes ... --reviewer ID",
        )
    notes = (notes or "").strip()
    if not notes or len(notes) > DOCS_REVIEW_NOTES_MAX_CHARS:
        raise BunzaiError(
            "invalid_input",
            f"review notes must say what was checked, in 1 to {DOCS_REVIEW_NOTES_MAX_CHARS} characters",
            "e.g. --notes 'read the page; the summary names its three sections correctly'",
        )
    text = _page_text(page_id, docs)
    sidecar = _read_json(sidecar_path(page_id, docs))
    if sidecar is None or not isinstance(sidecar.get("stamp"), dict):
        raise BunzaiError(
            "stale",
            f"the summary of {page_id} is not stamped",
            f"its author runs `bunzai docs summaries stamp {page_id} --reviewer THEM` first",
        )
    stamped = sidecar["stamp"]
    content = reviewed_content(sidecar)
    source, summary = text_hash(text), content_hash(content)
    if stamped.get("source_sha256") != source or stamped.get("summary_sha256") != summary:
        raise BunzaiError(
            "stale",
            f"{page_id} or its summary changed after the stamp",
            f"restamp: `bunzai docs summaries stamp {page_id} --reviewer AUTHOR`",
        )
    if verdict == "approve" and stamped.get("by") == reviewer:
        raise BunzaiError(
            "self_review", f"{reviewer} stamped this summary and may not approve it", "ask another reviewer id"
        )
    receipt = {
        "type": RECEIPT_TYPE,
        "page": page_id,
        "verdict": verdict,
        "reviewer": reviewer,
        "stamped_by": stamped.get("by"),
        "notes": notes,
        "source_sha256": source,
        "summary_sha256": summary,
        "reviewed_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    path = receipt_path(page_id, docs)
    _write_json(path, receipt)
    return {
        "page": page_id,
        "status": "approved" if verdict == "approve" else "blocked",
        "receipt": _shown(path, docs),
        "next": "regenerate the catalog: bunzai docs index",
    }


def check(docs: Path = CHECKOUT_ROOT) -> dict:
    """Every page's summary status; out_of_date (listing the pages and next steps) unless all are approved."""
    if not docs.is_dir():
        raise BunzaiError(
            "unsupported", f"no docs folder at {docs}", "summaries are checked in a source checkout of bunzai"
        )
    pages = scan_pages(docs)
    rows = [
        summary_status(page_id, read_text_nofollow(docs / relative, DOCS_PAGE_MAX_BYTES), docs)
        for page_id, relative in pages
    ]
    known = {page_id for page_id, _relative in pages}
    for folder in (SIDECARS, RECEIPTS):
        root = docs / folder
        if root.is_dir():
            for path in sorted(root.rglob("*.json")):
                page_id = path.relative_to(root).as_posix()[: -len(".json")]
                if page_id not in known:
                    rows.append(_status(page_id, "orphan"))
    failing = [
        {key: value for key, value in row.items() if key != "content"} for row in rows if row["status"] != "approved"
    ]
    approved = sum(1 for row in rows if row["status"] == "approved")
    if failing:
        names = ", ".join(f"{row['page']} ({row['status']})" for row in failing[:20])
        more = f" and {len(failing) - 20} more" if len(failing) > 20 else ""
        raise BunzaiError(
            "out_of_date",
            f"{len(failing)} docs page(s) lack an approved, current summary: {names}{more}",
            "each row under details.pages names the next command; see docs/how-to/add-a-docs-page.md",
            pages=failing,
            approved=approved,
        )
    return {"status": "ok", "pages": len(pages), "approved": approved}


def _checked_content(page_id: str, sidecar: dict, text: str) -> dict:
    if not isinstance(sidecar, dict) or sidecar.get("page") != page_id:
        raise BunzaiError(
            "invalid_input",
            f'docs/summaries/{page_id}.json must be an object whose "page" is {page_id!r}',
            f'fix the file by hand: {{"page": "{page_id}", "summary": ...}}',
        )
    summary = sidecar.get("summary")
    if not isinstance(summary, str) or not summary.strip() or len(summary) > DOCS_SUMMARY_MAX_CHARS:
        raise BunzaiError(
            "invalid_input",
            f"the summary of {page_id} must be 1 to {DOCS_SUMMARY_MAX_CHARS} characters",
            "one to three lines saying what the page answers",
        )
    topics = sidecar.get("topics", [])
    if not isinstance(topics, list) or not all(isinstance(topic, str) for topic in topics):
        raise BunzaiError(
            "invalid_input", f"the topics of {page_id} must be a list of words", 'e.g. "topics": ["export", "layouts"]'
        )
    sections = sidecar.get("sections", {})
    if not isinstance(sections, dict):
        raise BunzaiError(
            "invalid_input",
            f"the sections of {page_id} must map section slugs to summaries",
            f"see `bunzai docs outline {page_id}` for the slugs",
        )
    slugs = {part.slug for part in markdown.sections(text)}
    kept = {}
    for slug, line in sections.items():
        if not isinstance(line, str) or len(line) > DOCS_SUMMARY_MAX_CHARS:
            raise BunzaiError(
                "invalid_input",
                f"section {slug!r} of {page_id}: a summary is text of at most {DOCS_SUMMARY_MAX_CHARS} characters",
                "one line saying what the section answers",
            )
        if not line.strip():
            continue
        if slug not in slugs:
            raise BunzaiError(
                "invalid_input", f"{page_id} has no section {slug!r}", "sections: " + ", ".join(sorted(slugs))
            )
        kept[slug] = line.strip()
    return {
        "page": page_id,
        "summary": summary.strip(),
        "topics": _clean_topics(topics),
        "sections": dict(sorted(kept.items())),
    }


def _clean_topics(topics: list[str]) -> list[str]:
    cleaned = []
    for topic in topics:
        topic = topic.strip().lower()
        if topic and topic not in cleaned:
            cleaned.append(topic)
    if len(cleaned) > DOCS_TOPICS_MAX or any(len(topic) > DOCS_TOPIC_MAX_CHARS for topic in cleaned):
        raise BunzaiError(
            "invalid_input",
            f"at most {DOCS_TOPICS_MAX} topics of at most {DOCS_TOPIC_MAX_CHARS} characters",
            "keep the few words a reader would search for",
        )
    return cleaned


def _check_reviewer(reviewer: str) -> str:
    reviewer = (reviewer or "").strip()
    if not reviewer or len(reviewer) > DOCS_TOPIC_MAX_CHARS or any(ch.isspace() for ch in reviewer):
        raise BunzaiError(
            "usage",
            "--reviewer takes an id without spaces, e.g. docs-author",
            "the same id always names the same person",
        )
    return reviewer


def _page_text(page_id: str, docs: Path) -> str:
    check_page_id(page_id)
    known = dict(scan_pages(docs))
    if page_id not in known:
        raise BunzaiError("not_found", f"no docs page {page_id!r} under {docs}", "see `bunzai docs browse`")
    return read_text_nofollow(docs / known[page_id], DOCS_PAGE_MAX_BYTES)


def _read_json(path: Path) -> dict | None:
    if not path.is_file():
        return None
    text = read_text_nofollow(path, JSON_MAX_BYTES)
    try:
        doc = json.loads(text)
    except ValueError as error:
        raise BunzaiError("invalid_json", f"{path.name} is not JSON: {error}", "fix the file by hand") from None
    return doc if isinstance(doc, dict) else {}


def _write_json(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _shown(path: Path, docs: Path) -> str:
    return f"docs/{path.relative_to(docs).as_posix()}"
