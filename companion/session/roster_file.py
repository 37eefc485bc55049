"""A roster from a file: the CSV a sign-up form or a spreadsheet exports (``--roster FILE``).

A header row names the columns: a ``name`` column (or the one column whose title holds "name",
such as "Your name") and, if there is one, a ``role`` column (``warden`` or ``prisoner``; empty
means prisoner); other columns (a timestamp, an e-mail) are ignored. The file is UTF-8, with or
without the byte order mark spreadsheets write; commas, semicolons or tabs separate the cells.
Blank lines are skipped. Anything wrong is refused in one sentence naming the file and the line.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import UserError
from companion.rules.core.roster import RosterError, check_name, name_keys

WARDEN_ROLES = {"warden", "gm", "game master"}
PRISONER_ROLES = {"", "prisoner", "player"}


@dataclass
class RosterFile:
    """The names a roster file gives, in its order."""

    path: Path
    warden: str | None = None
    warden_line: int = 0
    prisoners: list[str] = field(default_factory=list)


def read_roster(path: Path) -> RosterFile:
    text = _text(path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    roster = RosterFile(path)
    columns: tuple[int, int | None] | None = None
    seen: dict[str, int] = {}
    try:
        for row in reader:
            line = reader.line_num
            cells = [unicodedata.normalize("NFC", cell).strip() for cell in row]
            if not any(cells):
                continue
            if columns is None:
                columns = _columns(path, line, cells)
                continue
            _add(roster, seen, line, cells, *columns)
    except csv.Error as error:
        raise UserError(f"{path} line {reader.line_num} is not valid CSV: {error}.") from None
    if columns is None:
        raise UserError(f"{path} is empty; put a header row with a name column, then one "
                        "player a line.")
    if not roster.prisoners:
        raise UserError(f"{path} names no prisoners; add one player a line under the header.")
    return roster


def _text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"There is no roster file at {path}; check the path.") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a roster file; give a .csv file.") from None
    except OSError as error:
        raise UserError(f"{path} cannot be read: {error.strerror}.") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise UserError(
            f"{path} line {line} is not UTF-8 text; export the roster as \"CSV UTF-8\"."
        ) from None


def _delimiter(text: str) -> str:
    """The separator the header line uses most: a comma, a semicolon (spreadsheets in many
    languages) or a tab."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    return max((",", ";", "\t"), key=header.count)


def _columns(path: Path, line: int, titles: list[str]) -> tuple[int, int | None]:
    """Where the names and the roles are, from the header row."""
    folded = [t.casefold() for t in titles]

    def find(word: str) -> list[int]:
        exact = [i for i, t in enumerate(folded) if t == word]
        return exact or [i for i, t in enumerate(folded) if word in t]

    names, roles = find("name"), find("role")
    if not names:
        raise UserError(
            f"{path} line {line} has no name column; put a header row first, with a column "
            "called name (and, if you like, one called role)."
        )
    if len(names) > 1:
        which = ", ".join(repr(titles[i]) for i in names)
        raise UserError(
            f"{path} line {line} has several name columns ({which}); call the one to use name."
        )
    return names[0], roles[0] if len(roles) == 1 else None


def _add(
    roster: RosterFile, seen: dict[str, int], line: int, cells: list[str], name_at: int,
    role_at: int | None,
) -> None:
    name = cells[name_at] if name_at < len(cells) else ""
    role = cells[role_at].casefold() if role_at is not None and role_at < len(cells) else ""
    where = f"{roster.path} line {line}"
    if not name:
        raise UserError(f"{where} has no name; fill it in or delete the line.")
    if role not in WARDEN_ROLES | PRISONER_ROLES:
        raise UserError(
            f"{where} gives {name} the role {role!r}; write warden or prisoner (or nothing)."
        )
    is_warden = role in WARDEN_ROLES
    try:
        check_name(name, "warden" if is_warden else "prisoner")
    except RosterError as error:
        raise UserError(f"{where}: {str(error)[0].lower()}{str(error)[1:]}") from None
    keys = name_keys(name)  # the names that look the same are one name (WiII, Will)
    earlier = min((seen[key] for key in keys if key in seen), default=None)
    if earlier is not None:
        raise UserError(
            f"{where} names {name} again (already on line {earlier}); every player needs their "
            "own name, so remove the duplicate or tell the two apart."
        )
    seen.update(dict.fromkeys(keys, line))
    if is_warden:
        if roster.warden is not None:
            raise UserError(
                f"{where} names a second warden, {name} (the first is {roster.warden} on line "
                f"{roster.warden_line}); a game has one warden."
            )
        roster.warden, roster.warden_line = name, line
    else:
        roster.prisoners.append(name)
