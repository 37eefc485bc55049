"""The one fan-out's patch (``fanout.show``), for any game: whatever pages a stream is shown,
push after push, and whether or not its phone took each message before the next, the page
the phone holds once it has read everything is the last one shown, with the latest version,
sent as little as that needs: a whole view only when the key changed, never texts that did not
change, nothing when nothing changed."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.language import language
from companion.web.common.fanout import Page, Push, show
from companion.web.common.outbox import Outbox, dumps

IDS = ("progress", "joined", "left")


class Phone:
    """What phones.js holds: the whole view, its texts as patched, and the version."""

    def __init__(self) -> None:
        self.key: Any = None
        self.texts: dict[str, str] = {}
        self.version: int | None = None
        self.views = 0

    def read(self, raw: bytes) -> None:
        for block in raw.decode().split("\n\n"):
            if not block:
                continue
            fields = dict(line.split(": ", 1) for line in block.split("\n"))
            data = json.loads(fields["data"])
            self.version = int(fields["id"])
            if fields["event"] == "view":
                self.key, self.texts = data["key"], dict(data["texts"])
                self.views += 1
            else:
                assert fields["event"] == "patch"
                # only what differs from what the phone holds
                assert all(self.texts.get(k) != v for k, v in data.items())
                self.texts.update(data)


def page(key: int | None, texts: dict[str, str]) -> Page:
    return Page(key, lambda: dumps({"key": key, "texts": texts}), texts)


steps = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(0, 2)),  # the page's key (None: never the same)
        st.fixed_dictionaries({i: st.sampled_from(["a", "b", "c"]) for i in IDS}),
        st.booleans(),  # the log moved on
        st.booleans(),  # the phone read what waited before the next push
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_the_phone_ends_with_the_last_page_shown(steps: list[Any]) -> None:
    box: Outbox[None] = Outbox("seat", language(), None, None)
    phone = Phone()
    version = 1
    wholes = 0
    for key, texts, moved, reads in steps:
        version += moved
        wholes += key is None or key != box.key
        show(Push(version, moved), box, page(key, texts))
        if reads:
            phone.read(box.take())
    phone.read(box.take())
    assert phone.views <= wholes  # a whole view only when the key changed
    last_key, last_texts, _, _ = steps[-1]
    if phone.version is not None:  # (a stream shown only what it already shows gets nothing)
        assert (phone.key, phone.texts, phone.version) == (last_key, last_texts, version)


def test_nothing_is_sent_when_nothing_changed() -> None:
    box: Outbox[None] = Outbox("seat", language(), None, None)
    texts = {"progress": "1 of 4"}
    show(Push(3, True), box, page(1, texts))
    assert box.take().startswith(b"event: view\nid: 3\n")
    show(Push(3, False), box, page(1, dict(texts)))  # a phone came or went: nothing new here
    assert box.take() == b""
    show(Push(4, True), box, page(1, dict(texts)))  # the log moved on: the version only
    assert box.take() == b'event: patch\nid: 4\ndata: {}\n\n'
    show(Push(5, True), box, page(1, {"progress": "2 of 4"}))
    assert box.take() == b'event: patch\nid: 5\ndata: {"progress":"2 of 4"}\n\n'
    show(Push(5, False), box, page(None, {"progress": "2 of 4"}))  # a countdown runs
    assert box.take().startswith(b"event: view\nid: 5\n")


def test_a_patch_in_place_of_an_unsent_one_says_all_they_changed() -> None:
    box: Outbox[None] = Outbox("seat", language(), None, None)
    show(Push(1, True), box, page(1, {"progress": "a", "joined": "a"}))
    box.take()
    show(Push(2, True), box, page(1, {"progress": "b", "joined": "a"}))
    show(Push(3, True), box, page(1, {"progress": "b", "joined": "b"}))  # the first unsent
    assert box.take() == b'event: patch\nid: 3\ndata: {"progress":"b","joined":"b"}\n\n'


def test_a_seat_gone_ends_its_stream() -> None:
    box: Outbox[None] = Outbox("seat", language(), None, None)
    show(Push(1, True), box, None)
    assert box.ended and box.take() == b'event: gone\ndata: {}\n\n'


def test_streams_that_get_the_same_share_one_encoding() -> None:
    push = Push(2, True)
    made: list[int] = []

    def whole() -> str:
        made.append(1)
        return "{}"

    boxes: list[Outbox[None]] = [Outbox("board", language(), None, None) for _ in range(5)]
    for box in boxes:
        show(push, box, Page(None, whole, share="board"))
    assert len(made) == 1 and len({id(box.take()) for box in boxes}) == 1
