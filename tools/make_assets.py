"""Make the app's binary assets from code, so they can be remade and checked:
the home-screen icons (drawn with Pillow) and the tiny looping video that keeps a screen on
where the Wake Lock API is missing (made with ffmpeg, when it is installed).

    .venv/bin/python tools/make_assets.py
"""

import math
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "static"
BG, ACCENT, FELT = "#15171c", "#f2b134", "#2a6b4f"


def icon(size, maskable=False):
    """A round table seen from above with six seats around it, in the app's colours."""
    scale = 4  # drawn large, then shrunk: smooth edges without an antialiasing library
    big = size * scale
    image = Image.new("RGBA", (big, big), BG if maskable else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if not maskable:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, fill=BG)
    # A maskable icon may be cut to a circle of 80 %: keep the drawing inside it.
    reach = big * (0.36 if maskable else 0.44)
    centre = big / 2
    table = reach * 0.58
    draw.ellipse(
        (centre - table, centre - table, centre + table, centre + table),
        fill=FELT,
        outline=ACCENT,
        width=int(big * 0.025),
    )
    seat = reach * 0.16
    orbit = reach * 0.82
    for n in range(6):
        angle = math.pi / 2 + n * math.pi / 3
        x, y = centre + orbit * math.cos(angle), centre + orbit * math.sin(angle)
        draw.ellipse((x - seat, y - seat, x + seat, y + seat), fill=ACCENT)
    return image.resize((size, size), Image.LANCZOS)


def icons():
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        icon(size).save(out / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(out / "icon-maskable-512.png", optimize=True)
    # iOS draws its own rounded corners on a full square.
    icon(180, maskable=True).convert("RGB").save(out / "apple-touch-icon.png", optimize=True)
    icon(32).save(out / "favicon-32.png", optimize=True)


def videos():
    """Four seconds of a black 64 px square with a silent audio track, as MP4 (H.264, for
    Safari) and WebM (VP8, for browsers without H.264): a muted inline video that plays
    on a loop keeps a phone's screen on, as NoSleep.js does."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        print("ffmpeg not found (apt-get install ffmpeg): keeping the videos already in static/", file=sys.stderr)
        return
    source = [
        "-f",
        "lavfi",
        "-i",
        "color=c=black:s=64x64:r=2",
        "-f",
        "lavfi",
        "-i",
        "anullsrc=r=8000:cl=mono",
        "-t",
        "4",
    ]
    common = [ffmpeg, "-hide_banner", "-loglevel", "error", "-y", *source]
    subprocess.run(
        [
            *common,
            "-c:v",
            "libx264",
            "-profile:v",
            "baseline",
            "-pix_fmt",
            "yuv420p",
            "-crf",
            "51",
            "-c:a",
            "aac",
            "-b:a",
            "8k",
            "-movflags",
            "+faststart",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            str(STATIC / "keep-awake.mp4"),
        ],
        check=True,
    )
    subprocess.run(
        [
            *common,
            "-c:v",
            "libvpx",
            "-b:v",
            "10k",
            "-c:a",
            "libopus",
            "-b:a",
            "6k",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            str(STATIC / "keep-awake.webm"),
        ],
        check=True,
    )


if __name__ == "__main__":
    icons()
    videos()
