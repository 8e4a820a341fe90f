#!/usr/bin/env bash
# Regenerates the landing page's background loop and poster (needs Debian's ffmpeg).
# Five seconds of soft moving gradients played forward then backward, so the loop has no seam.
set -euo pipefail
cd "$(dirname "$0")/../public"
ffmpeg -hide_banner -y -f lavfi \
  -i "gradients=s=960x540:c0=0x2e1065:c1=0x6d28d9:c2=0x0f172a:c3=0xdb2777:c4=0x1e3a8a:n=5:type=radial:speed=0.03:d=5:r=24,format=yuv420p,gblur=sigma=24" \
  -filter_complex "[0]split[a][b];[b]reverse[r];[a][r]concat=n=2:v=1:a=0" \
  -c:v libx264 -crf 26 -preset slow -an -movflags +faststart landing.mp4
ffmpeg -hide_banner -y -i landing.mp4 -frames:v 1 -q:v 4 landing-poster.jpg
