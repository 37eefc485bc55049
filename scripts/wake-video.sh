#!/usr/bin/env bash
# Makes the phones' keep-awake videos (companion/web/common/static/wake.webm and wake.mp4): two
# seconds of a black 16x16 picture, no sound, a few hundred bytes each. A muted, inline, looping
# video keeps a phone's screen on where the Wake Lock API is missing (any page on plain http);
# WebM (VP8) for Chromium, Firefox and WebKitGTK, MP4 (H.264 baseline) for Safari. Needs ffmpeg;
# run it again only to change them.
set -euo pipefail
cd "$(dirname "$0")/../companion/web/common/static"
source=(-f lavfi -i "color=c=black:s=16x16:r=4:d=2")
ffmpeg -hide_banner -loglevel error -y "${source[@]}" -an -c:v libvpx -b:v 8k -auto-alt-ref 0 \
  -fflags +bitexact -flags +bitexact wake.webm
ffmpeg -hide_banner -loglevel error -y "${source[@]}" -an -c:v libx264 -profile:v baseline \
  -pix_fmt yuv420p -preset veryslow -crf 40 -movflags +faststart -fflags +bitexact -flags +bitexact\
  wake.mp4
ls -l wake.webm wake.mp4
