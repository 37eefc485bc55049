"""The command line answers in the game master's language, as the console does: ``--lang`` on
a command that opens a console (and makes a session: ``new``), else the laptop's locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English; its sentences and its
refusals alike. A printout's ``--lang`` and ``companion language NAME LANG`` name the paper's
or the session's language, not the command line's."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main
from companion.language import LOCALE_VARIABLES

ROSTER = ["--warden", "Wendy", "--prisoners", "Ada,Ben,Cy,Dee", "--create-only"]


@pytest.fixture
def laptop(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def run(capsys: pytest.CaptureFixture[str], data: Path, *argv: str) -> tuple[int, str, str]:
    status = main(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_new_with_lang_answers_in_that_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, tmp_path, "new", "friday", "--lang", "fr", *ROSTER)
    assert status == 0
    assert out.splitlines()[0] == (
        "Session 'friday' créée\u00a0: l’évasion avec le scénario classic, choisi pour 4 "
        "prisonniers\u00a0; gardien\u00a0: Wendy\u00a0; prisonniers\u00a0: Ada, Ben, Cy, Dee."
    )
    assert out.splitlines()[-1].startswith("Imprimez ses cartes avec 'companion print friday'")
    status, _, err = run(capsys, tmp_path, "new", "friday", "--lang", "es", *ROSTER)
    assert status == 2 and err.startswith("companion: Ya existe una sesión llamada 'friday';")


def test_every_command_answers_in_the_laptops_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    laptop.setenv("LANG", "de_DE.UTF-8")
    status, out, _ = run(capsys, tmp_path, "new", "friday", *ROSTER)
    assert status == 0 and out.startswith("Sitzung 'friday' angelegt: der Ausbruch")
    status, out, _ = run(capsys, tmp_path, "language", "friday", "fr")
    assert out.startswith("Die Sitzung 'friday' spricht jetzt français (fr) statt English (en)")
    status, out, _ = run(capsys, tmp_path, "language", "friday")
    assert out.splitlines()[0] == "Die Sitzung 'friday' spricht français (fr)."
    status, out, _ = run(capsys, tmp_path, "stop", "friday")
    assert out == "friday wurde nicht bereitgestellt; nichts zu beenden.\n"
    status, _, err = run(capsys, tmp_path, "links", "fridya")
    assert status == 2 and err.startswith("companion: Es gibt keine Sitzung namens 'fridya' in ")
    assert "meinten Sie 'friday'?" in err
    status, _, err = run(capsys, tmp_path, "new", "con", *ROSTER)
    assert err.startswith("companion: 'con' kann kein Sitzungsname sein, weil Windows CON")
    laptop.setenv("LANGUAGE", "es")
    status, _, err = run(capsys, tmp_path, "language", "friday", "tlh")
    assert status == 2 and err == (
        "companion: companion no habla 'tlh'; use uno de estos idiomas: en, de, es, fr.\n"
    )


def test_a_printouts_lang_is_the_papers_not_the_command_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    run(capsys, tmp_path, "new", "friday", *ROSTER)
    status, out, _ = run(capsys, tmp_path, "print", "friday", "--lang", "fr", "--out",
                         str(tmp_path / "friday.pdf"))
    assert status == 0 and out.startswith(f"Wrote {tmp_path / 'friday.pdf'} (links on ")
    laptop.setenv("LC_ALL", "es_ES.UTF-8")
    status, out, _ = run(capsys, tmp_path, "print", "friday", "--out", str(tmp_path / "f.pdf"))
    assert out.startswith(f"{tmp_path / 'f.pdf'} escrito (enlaces en ")


def test_the_consoles_say_a_refused_session_name_in_their_language() -> None:
    """The set-up screen's check of a new session's name says the refusal in the console's
    language, as the command line does."""
    from companion.language import language
    from companion.tui.prison.picker import name_problem

    said = name_problem("con", set(), language("de"))
    assert said is not None and said.startswith("'con' kann kein Sitzungsname sein, weil Windows")
    assert name_problem("con", set(), language("en")) == (
        "'con' cannot be a session's name, because Windows keeps CON for a device and a session "
        "folder may be copied there; pick another name."
    )


def test_an_argument_that_is_not_utf8_is_refused_in_the_laptops_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    """Bytes a Latin-1 terminal typed (kept by Python as surrogates) get one sentence, in the
    laptop's language, naming the bytes as they are."""
    laptop.setenv("LANG", "de_DE.UTF-8")
    status, out, err = run(capsys, tmp_path, "links", "\udcd1and\udcfa")
    assert status == 2 and out == ""
    assert err == (
        "companion: das Argument '\\xd1and\\xfa' ist kein UTF-8-Text (die Locale der Shell "
        "schreibt eine andere Kodierung); stellen Sie eine UTF-8-Locale ein (export "
        "LANG=C.UTF-8) und geben Sie es erneut ein.\n"
    )


def test_links_sessions_and_the_rosters_refusals_speak_the_laptops_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    """The commands a game master runs before a night (the links, the list of sessions, a
    roster refused) answer in the laptop's language, the seats' roles and the game's name
    too."""
    run(capsys, tmp_path, "new", "friday", *ROSTER)
    laptop.setenv("LANG", "fr_FR.UTF-8")
    status, out, _ = run(capsys, tmp_path, "links", "friday")
    lines = out.splitlines()
    assert status == 0 and lines[0] == (
        "Liens de friday (gardez-les secrets\u00a0; chacun ouvre la page privée d’un "
        "joueur)\u00a0:"
    )
    assert lines[1].startswith("  Wendy  gardien     code ")
    assert lines[2].startswith("  Ada    prisonnier  code ")
    assert lines[-2].startswith("Tableau\u00a0: http://")
    assert lines[-1].startswith("Sans sa carte, un joueur entre son code de place sur http://")
    status, out, _ = run(capsys, tmp_path, "sessions")
    assert out.splitlines() == [f"Sessions dans {tmp_path}\u00a0:", "  friday  évasion"]
    laptop.setenv("LANG", "es_ES.UTF-8")
    status, _, err = run(capsys, tmp_path, "new", "sat", "--prisoners", "Ada,,Cy",
                         "--warden", "Wendy")
    assert status == 2 and err == (
        "companion: --prisoners no tiene ningún nombre en la posición 2; separe los nombres "
        'con una sola coma, como en "Ada,Ben,Cy,Dee".\n'
    )
    status, _, err = run(capsys, tmp_path, "new", "sat", "--warden", "Wendy", "--create-only")
    assert err.startswith("companion: Indique los prisioneros con --prisoners")


def test_the_phone_servers_port_refusal_is_said_in_the_game_masters_language() -> None:
    """A port already in use, as the command line says it to a German game master."""
    import errno

    from companion.cli.options import port_problem
    from companion.language import language

    error = port_problem(8765, OSError(errno.EADDRINUSE, "Address already in use"))
    assert str(error) == (
        "The phone server cannot listen on port 8765: it is already in use; pick another with "
        "--port or stop the program using it."
    )
    assert error.said(language("de")) == (
        "Der Handy-Server kann nicht auf Port 8765 lauschen: Er wird schon benutzt; wählen Sie "
        "mit --port einen anderen oder beenden Sie das Programm, das ihn benutzt."
    )


def test_the_warm_up_and_the_referee_refuse_their_options_in_the_game_masters_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, laptop: pytest.MonkeyPatch
) -> None:
    """The warm-up's and So Long Sucker's refusals, before any console opens: in the laptop's
    language, or in the --lang that opens the console."""
    laptop.setenv("LANG", "de_DE.UTF-8")
    status, _, err = run(capsys, tmp_path, "dilemma", "warm", "--rounds", "0")
    assert status == 2 and err == (
        "companion: --rounds 0 liegt außerhalb des Bereichs; spielen Sie 1 bis 100 Runden.\n"
    )
    status, _, err = run(capsys, tmp_path, "sucker", "table", "--players", "Ann,Bo:blue",
                         "--lang", "fr")
    assert status == 2 and err == (
        "companion: 'Ann' dans --players n’est pas NOM:COULEUR\u00a0; écrivez-les comme "
        '--players "Ann:red,Bo:blue,Cat:green,Dan:yellow".\n'
    )
