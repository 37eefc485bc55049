#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (Chromium, Firefox ESR and WebKitGTK's
# WebKitWebDriver under Xvfb for the phone pages, poppler-utils and zbar-tools for the printed
# QR codes, DejaVu fonts, zsh for its completion script), only when missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v firefox-esr >/dev/null 2>&1 || need+=(firefox-esr)  # driven over WebDriver BiDi
command -v WebKitWebDriver >/dev/null 2>&1 || need+=(webkit2gtk-driver)  # brings MiniBrowser
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)  # the X server WebKitGTK's MiniBrowser needs
dpkg -s gstreamer1.0-plugins-good >/dev/null 2>&1 || need+=(gstreamer1.0-plugins-good)  # WebM in WebKitGTK
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v zbarimg >/dev/null 2>&1 || need+=(zbar-tools)
command -v tmux >/dev/null 2>&1 || need+=(tmux)  # the load benchmark's console run
command -v zsh >/dev/null 2>&1 || need+=(zsh)  # the zsh completion script is loaded by zsh
[ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || need+=(fonts-droid-fallback)  # CJK names
[ -f /usr/share/fonts/truetype/nanum/NanumGothic.ttf ] || need+=(fonts-nanum)  # Korean names (Droid has none)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing ${need[*]}: install them with your package manager (the tests that need them are skipped)." >&2
  exit 0
fi
echo "Installing ${need[*]} ..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
