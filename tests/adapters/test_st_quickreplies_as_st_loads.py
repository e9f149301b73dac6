"""Quick-reply sets read as SillyTavern reads them: its "no colour", its v1 loader's `??`
defaults, and its id counter `idIndex` (public/scripts/extensions/quick-reply/)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from st_side_formats_support import read_json, round_trip, undeclared

from bunzai.adapters.sillytavern.quickreplies import highest_issued_id
from bunzai.model.base import Escrow
from bunzai.model.quickreply import QuickReply, QuickReplySet, QuickReplySetBody, QuickReplySettings

FORMAT = "sillytavern.quickreply"


def _set(color: str) -> QuickReplySet:
    items = [QuickReply(id=1, label="Go", message="/go")]
    return QuickReplySet(
        id="tools", name="Tools", body=QuickReplySetBody(settings=QuickReplySettings(color=color), items=items)
    )


# 1. "transparent" is SillyTavern's "no colour" (QuickReplySet.updateColor)


def test_a_transparent_colour_is_no_colour_and_crosses_without_a_loss():
    piece = _set("transparent")
    assert piece.body.settings.color == ""
    crossing = round_trip(piece, FORMAT)
    assert undeclared(crossing) == [] and crossing.losses == []
    assert json.loads(crossing.data)["color"] == "transparent"


def test_a_real_colour_is_kept():
    crossing = round_trip(_set("#336699"), FORMAT)
    assert json.loads(crossing.data)["color"] == "#336699" and crossing.losses == []


# 2. v1 sets: SillyTavern's migration (index.js loadSets) reads `slot.x ?? default`

# v1 slot key -> (v2 key, ST's default)
_V1_SLOT = {
    "label": ("label", ""),
    "title": ("title", ""),
    "mes": ("message", ""),
    "hidden": ("isHidden", False),
    "automationId": ("automationId", ""),
    "autoExecute_appStartup": ("executeOnStartup", False),
    "autoExecute_userMessage": ("executeOnUser", False),
    "autoExecute_botMessage": ("executeOnAi", False),
    "autoExecute_chatLoad": ("executeOnChatChange", False),
    "autoExecute_groupMemberDraft": ("executeOnGroupMemberDraft", False),
    "autoExecute_newChat": ("executeOnNewChat", False),
    "autoExecute_beforeGeneration": ("executeBeforeGeneration", False),
}
_V1_ROOT = {
    "quickActionEnabled": "disableSend",
    "placeBeforeInputEnabled": "placeBeforeInput",
    "AutoInputInject": "injectInput",
}


def _given(default):
    """A v1 value: null, or one of the default's type."""
    return st.none() | (st.text(max_size=6) if isinstance(default, str) else st.booleans())


@given(
    slot=st.fixed_dictionaries({}, optional={key: _given(default) for key, (_, default) in _V1_SLOT.items()}),
    root=st.fixed_dictionaries({}, optional={key: _given(False) for key in _V1_ROOT}),
)
def test_a_v1_set_is_written_with_what_sillytavern_reads_for_null(slot, root):
    document = {"name": "Old", **root, "quickReplySlots": [slot]}
    piece = read_json(document, "Old.json").pieces[0]
    written = json.loads(round_trip(piece, FORMAT).data)
    item = written["qrList"][0]
    for key, (v2, default) in _V1_SLOT.items():
        assert item[v2] == (default if slot.get(key) is None else slot[key]), key
    for key, v2 in _V1_ROOT.items():
        assert written[v2] == (False if root.get(key) is None else root[key]), key
    assert piece.original.document == document  # the escrow is the file as read, nulls and all
    assert read_json(written, "Old.json").pieces[0].body == piece.body


def test_a_v1_context_link_keeps_only_the_keys_it_had():
    document = {
        "name": "Old",
        "quickReplySlots": [{"mes": "hi", "contextMenu": [{"preset": "Other"}, {"chain": True}]}],
    }
    piece = read_json(document, "Old.json").pieces[0]
    written = json.loads(round_trip(piece, FORMAT).data)
    assert written["qrList"][0]["contextList"] == [{"set": "Other"}, {"isChained": True}]


def test_a_v1_file_with_nulls_keeps_its_escrow_byte_exact():
    data = json.dumps({"name": "Old", "quickReplySlots": [{"label": None, "mes": None, "hidden": None}]}).encode()
    piece = read_json(json.loads(data), "Old.json").pieces[0]
    round_trip(piece, FORMAT)
    assert json.dumps(piece.original.document).encode() == data


# 3. idIndex: ST's addQuickReply numbers a new reply past max(idIndex, every item id)


def test_the_highest_issued_id_counts_the_counter_and_the_items():
    def escrow(document):
        return Escrow(format=FORMAT, document=document)

    assert highest_issued_id(escrow({"version": 2, "qrList": [{"id": 1}, {"id": 3}], "idIndex": 7})) == 7
    assert highest_issued_id(escrow({"version": 2, "qrList": [{"id": 1}, {"id": 9}], "idIndex": 7})) == 9
    assert highest_issued_id(escrow({"quickReplySlots": [{}, {}, {}]})) == 3
    assert highest_issued_id(Escrow(format="risu.module", document={"idIndex": 7})) == 0
    assert highest_issued_id(None) == 0
