#!/usr/bin/env bash
# The message catalogs (companion/locale/): extract the messages from the code and templates
# into companion.pot, update every language's companion.po from it (new messages come in
# untranslated, changed ones fuzzy: translate them and remove the fuzzy flag), and, with
# "compile", check that each catalog compiles. Adding a language:
#   scripts/catalogs.sh init LANG      (then translate companion/locale/LANG/LC_MESSAGES/companion.po)
# The wheel compiles the .po files itself (setup.py); nothing compiled is committed.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
POT=companion/locale/companion.pot

# Drop the creation date from a catalog, so that the same sources give the same file: through a
# temporary file, as sed's in-place option is spelt differently by GNU sed and by macOS's (BSD).
drop_date() {
  sed '/^"POT-Creation-Date:/d' "$1" > "$1.tmp"
  mv "$1.tmp" "$1"
}

extract() {
  "$PYBABEL" extract -F babel.cfg -k N_ -k pN_:1c,2 -k n_:1,2 -k Binding:3 -k Refusal -k phrase -k phrases:1,2 --no-location --sort-output \
    --project companion --copyright-holder "companion" --msgid-bugs-address "" \
    -o "$POT" .
  drop_date "$POT"
}

case "${1:-update}" in
  update)
    extract
    "$PYBABEL" update -D companion -i "$POT" -d companion/locale --no-wrap --ignore-obsolete --no-fuzzy-matching
    for po in companion/locale/*/LC_MESSAGES/companion.po; do
      drop_date "$po"
    done
    ;;
  init)
    [ -n "${2:-}" ] || { echo "catalogs.sh init LANG: name the language (de, fr, ...)" >&2; exit 2; }
    extract
    "$PYBABEL" init -D companion -i "$POT" -d companion/locale -l "$2" --no-wrap
    ;;
  compile)
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
    for po in companion/locale/*/LC_MESSAGES/companion.po; do
      "$PYBABEL" compile --statistics -i "$po" -o "$out/$(basename "$(dirname "$(dirname "$po")")").mo"
    done
    ;;
  *)
    echo "catalogs.sh [update|init LANG|compile]" >&2
    exit 2
    ;;
esac
