"""``companion completion SHELL``: a script for each shell, written from the parser; bash's,
sourced, completes commands, subcommands, options and an option's choices."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.cli.completion import SHELLS, script, walk
from companion.cli.main import build_parser, main


def complete(source: str, line: str) -> list[str]:
    """What bash offers for ``line`` (the cursor at its end) with ``source`` loaded."""
    program = (
        'source /dev/stdin; line="$1"; read -ra COMP_WORDS <<< "$line"; '
        '[[ $line == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
        'COMP_LINE="$line"; COMP_POINT=${#line}; _companion; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", program, "bash", line], input=source, text=True,
                          capture_output=True, check=True)
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.parametrize("shell", SHELLS)
def test_each_shell_gets_a_script(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# {shell} completion for companion")
    for command in ("replay", "resume", "balance", "check-scenario", "completion"):
        assert command in out, (shell, command)
    assert "--public-url" in out or "public-url" in out


def test_an_unknown_shell_is_refused_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["completion", "tcsh"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'tcsh'" in err and err.count("\n") == 1


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_from_the_parser() -> None:
    source = script("bash", build_parser())
    assert complete(source, "companion re") == ["rehearse", "replay", "resume"]
    assert complete(source, "companion --data-dir /tmp re") == ["rehearse", "replay", "resume"]
    assert complete(source, "companion playtests ") == ["import", "export", "fit"]
    assert complete(source, "companion sucker-rules --paper ") == ["a4", "letter"]
    assert complete(source, "companion completion ") == ["bash", "zsh", "fish"]
    assert "--public-url" in complete(source, "companion resume --")
    assert "--public-url" not in complete(source, "companion replay --")


def test_every_option_of_the_parser_is_in_the_walk() -> None:
    parser = build_parser()
    root = walk(parser)
    resume = next(c for c in root.commands if c.path == ["resume"])
    flags = {f for o in resume.options for f in o.flags}
    assert {"--host", "--port", "--public-url", "--lang", "--no-phones", "-h"} <= flags
    assert [p.metavar for p in resume.positionals] == ["name"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="needs zsh")
def test_zsh_gets_a_native_script_with_a_function_per_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = script("zsh", build_parser())
    assert "bashcompinit" not in source and "COMPREPLY" not in source  # not bash's, emulated
    assert "_arguments" in source and "compdef _companion companion" in source
    file = tmp_path / "companion.zsh"
    file.write_text(source)
    checked = subprocess.run(["zsh", "-n", str(file)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    program = ("autoload -U compinit; compinit -u -d $1/zcompdump; source $1/companion.zsh; "
               "print -r -- $_comps[companion]; print -l ${(ok)functions[(I)_companion*]}")
    done = subprocess.run(["zsh", "-f", "-c", program, "zsh", str(tmp_path)], text=True,
                          capture_output=True, check=True, env={"HOME": str(tmp_path)})
    lines = done.stdout.splitlines()
    assert lines[0] == "_companion"  # what zsh calls to complete 'companion'
    paths = [c.path for c in walk(build_parser()).commands] + [["playtests", "fit"]]
    wanted = {"_companion" + "".join("_" + p.replace("-", "_") for p in path) for path in paths}
    assert wanted <= set(lines[1:]), wanted - set(lines[1:])
    assert "'--paper[" in source and ":(a4 letter)'" in source  # an option's choices
