#!/usr/bin/env bash
# Install companion the way a game master does and try it from an empty folder:
# build the wheel, install it into a fresh virtual environment outside the checkout, and run
# `companion scenarios`, `new ... --create-only`, `print` (also in German, from the wheel's
# compiled catalogs), `language` (set, then shown), `replay` and `serve` (answering /board
# on 127.0.0.1, then stopped by this script), and the night's server started detached, listed
# by `sessions` and ended by `stop`. Then, in the checkout, `companion balance` must
# leave `git status` as it was. Every step fails loudly; nothing is left running.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PY:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/companion-smoke.XXXXXX")"
SERVER=""

cleanup() {
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
    kill -KILL "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "installed-smoke: FAILED: $*" >&2
  exit 1
}

step() { echo "installed-smoke: $*"; }

# A user of their own: the per-user folders (platformdirs) go under $WORK/home, never the real ones
# (pip keeps its usual cache, so the dependencies are not downloaded again on every run).
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$HOME/.cache/pip}"
export HOME="$WORK/home"
unset COMPANION_DATA_DIR COMPANION_SCENARIOS XDG_DATA_HOME XDG_STATE_HOME XDG_CONFIG_HOME
mkdir -p "$HOME"

step "building the wheel and installing it into a fresh virtual environment in $WORK"
"$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
# From a copy without the checkout's build/ (setuptools would reuse what an earlier build left
# there, hiding a file the wheel no longer gets), its venv or its git folder.
mkdir "$WORK/src"
tar -C "$ROOT" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' \
  --exclude=__pycache__ --exclude=.mypy_cache --exclude=.pytest_cache --exclude=.ruff_cache \
  --exclude=.hypothesis -cf - . | tar -C "$WORK/src" -xf -
(cd "$WORK/src" && "$VPY" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  -w "$WORK/dist" .) || fail "the wheel did not build"
WHEEL="$(ls "$WORK"/dist/companion-*.whl)"
"$VPY" -m pip install --quiet --disable-pip-version-check "$WHEEL" || fail "the wheel did not install"
C="$WORK/venv/bin/companion"
[ -x "$C" ] || fail "the wheel installed no 'companion' command"

mkdir "$WORK/empty"
cd "$WORK/empty"

step "companion scenarios"
"$C" scenarios > scenarios.txt || fail "companion scenarios: $(cat scenarios.txt)"
shipped="$(sed -n '/^Shipped scenarios/,/^$/p' scenarios.txt)"
grep -q "site-packages" <<<"$(head -1 scenarios.txt)" \
  || fail "the shipped scenarios are not read from the installed package: $(head -1 scenarios.txt)"
for name in classic dilemma balanced-4 balanced-5 balanced-6 balanced-7 balanced-8 balanced-9 \
  balanced-10 balanced-11 balanced-12; do
  grep -qE "^  $name " <<<"$shipped" || fail "companion scenarios does not list $name"
done
grep -q "^Your scenarios (in $HOME" scenarios.txt || fail "no folder for the user's scenarios"

step "companion new evening --warden Wendy --prisoners Ada,Ben,Cy,Dee,Eve,Flo --create-only"
"$C" new evening --warden Wendy --prisoners "Ada,Ben,Cy,Dee,Eve,Flo" --create-only > new.txt \
  || fail "companion new: $(cat new.txt)"
grep -q "scenario balanced-6, picked for 6 prisoners" new.txt \
  || fail "companion new did not pick balanced-6: $(cat new.txt)"
grep -q "Saved in $HOME" new.txt || fail "the session is not in the user's data folder: $(cat new.txt)"

step "companion print evening --out evening.pdf"
"$C" print evening --out evening.pdf > print.txt \
  || fail "companion print: $(cat print.txt)"
[ "$(head -c 5 evening.pdf)" = "%PDF-" ] || fail "evening.pdf is not a PDF"

step "the wheel's compiled catalogs: companion print evening --lang de, and --lang tlh refused"
"$VPY" - "$WHEEL" <<'EOF' || fail "the wheel does not ship the compiled catalogs (de, es, fr)"
import sys
import zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
for lang in ("de", "es", "fr"):
    assert f"companion/locale/{lang}/LC_MESSAGES/companion.mo" in names, lang
EOF
"$C" print evening --lang de --out evening-de.pdf > print-de.txt \
  || fail "companion print --lang de: $(cat print-de.txt)"
[ "$(head -c 5 evening-de.pdf)" = "%PDF-" ] || fail "evening-de.pdf is not a PDF"
if "$C" print evening --lang tlh --out never.pdf > tlh.txt 2>&1; then
  fail "companion print --lang tlh was not refused"
fi
grep -q "'tlh' is not a language companion speaks; use one of en, de, es, fr." tlh.txt \
  || fail "companion print --lang tlh did not name the languages: $(cat tlh.txt)"

step "companion language evening es, then companion language evening says so"
"$C" language evening es > lang-set.txt || fail "companion language evening es: $(cat lang-set.txt)"
"$C" language evening > lang-show.txt || fail "companion language evening: $(cat lang-show.txt)"
grep -q "speaks español (es)" lang-show.txt \
  || fail "companion language did not keep Spanish: $(cat lang-show.txt)"

step "companion replay (the prison break's escape example)"
cp "$ROOT/tests/examples/pb-escape.json" "$ROOT/tests/examples/pb-escape.expected.json" .
"$C" replay pb-escape.json > replayed.json || fail "companion replay: $(cat replayed.json)"
"$VPY" - <<'EOF' || fail "companion replay printed another result than pb-escape.expected.json"
import json
got, want = json.load(open("replayed.json")), json.load(open("pb-escape.expected.json"))
for entry in got.get("rejected", []):
    entry.pop("error", None)
for entry in want.get("rejected", []):
    entry.pop("error", None)
assert got == want, (got, want)
EOF

step "companion serve evening (on 127.0.0.1), then GET /board"
PORT="$("$VPY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$C" serve evening --host 127.0.0.1 --port "$PORT" > serve.txt 2>&1 &
SERVER=$!
for _ in $(seq 1 150); do  # at most 15 s
  grep -q "Press Ctrl+C to stop." serve.txt && break
  kill -0 "$SERVER" 2>/dev/null || fail "companion serve stopped: $(cat serve.txt)"
  sleep 0.1
done
grep -q "Press Ctrl+C to stop." serve.txt || fail "companion serve did not start in 15 s: $(cat serve.txt)"
"$VPY" - "$PORT" <<'EOF' || fail "GET /board did not answer 200 with the board page"
import sys
import urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/board", timeout=10) as answer:
    page = answer.read().decode()
    assert answer.status == 200 and "Ada" in page and "Flo" in page, page[:500]
EOF
kill -TERM "$SERVER"
status=0
wait "$SERVER" || status=$?
SERVER=""
[ "$status" = 0 ] || fail "companion serve exited with $status on SIGTERM: $(cat serve.txt)"
[ "$(tail -1 serve.txt)" = "Stopped." ] || fail "companion serve did not say Stopped.: $(cat serve.txt)"

step "the night's server started detached, seen by companion sessions, ended by companion stop"
"$VPY" - "$PORT" "$C" <<'EOF' || fail "the detached night's server did not start, show or stop"
import argparse, os, pathlib, subprocess, sys
from companion.cli import night
from companion.session.night import process_alive
from companion.session.paths import default_data_dir
folder = default_data_dir()
path = folder / "evening.sqlite"
port = int(sys.argv[1])
record = night.ensure_served(path, folder, argparse.Namespace(host="127.0.0.1", port=port))
assert record.port == port and os.getsid(record.pid) != os.getsid(0), record
listed = subprocess.run([sys.argv[2], "sessions"], capture_output=True, text=True, check=True)
assert "served on port" in listed.stdout, listed.stdout
stopped = subprocess.run([sys.argv[2], "stop", "evening"], capture_output=True, text=True,
                         check=True)
assert "Stopped serving evening" in stopped.stdout, stopped.stdout
assert not process_alive(record.pid)
EOF

if [ -x "$ROOT/.venv/bin/companion" ] && git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  step "companion balance --prisoners 4 in the checkout leaves git status as it was"
  before="$(git -C "$ROOT" status --porcelain)"
  (cd "$ROOT" && .venv/bin/companion balance --prisoners 4) \
    > balance.txt || fail "companion balance: $(cat balance.txt)"
  grep -q "Wrote 1 scenario file in $HOME" balance.txt \
    || fail "companion balance did not say it wrote into the user's folder: $(tail -2 balance.txt)"
  [ "$(git -C "$ROOT" status --porcelain)" = "$before" ] \
    || fail "companion balance changed the checkout: $(git -C "$ROOT" status --porcelain)"
fi

step "all passed"
