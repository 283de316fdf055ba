#!/usr/bin/env python3
"""Makes the camera-roll fixtures (Tests/Fixtures/camera_roll): a Live Photo's
movie, two screen recordings, slow motion stored slowed down and at 120 fps.

Needs the ffmpeg CLI (5.1) and Pillow; run from the repository root. The clips are tiny and
their metadata is what the tests are about; see PROVENANCE.md there."""
import os
import subprocess
import tempfile

from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/Fixtures/camera_roll")
ANALYSIS = os.path.join(ROOT, "Tests/Fixtures/analysis")
X264 = ["-c:v", "libx264", "-threads", "1", "-preset", "medium", "-crf", "30", "-pix_fmt", "yuv420p",
        "-fflags", "+bitexact", "-flags:v", "+bitexact"]


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def screen_frames(folder, lines, count=20):
    """A chat app's screen: white, a grey top bar, lines of black text, scrolling one row a frame."""
    for i in range(count):
        im = Image.new("RGB", (270, 480), (255, 255, 255))
        d = ImageDraw.Draw(im)
        d.rectangle([0, 0, 270, 40], fill=(230, 230, 230))
        d.text((10, 14), "Messages", fill=(0, 0, 0))
        for row in range(18):
            y = 50 + row * 24 - i
            d.rectangle([8, y, 200, y + 18], fill=(238, 238, 238))
            d.text((14, y + 4), lines[(row + i) % len(lines)], fill=(0, 0, 0))
        im.save(os.path.join(folder, "f%03d.png" % i))


def main():
    os.makedirs(OUT, exist_ok=True)
    # A Live Photo's movie: 2 s of two_people.mp4 with the pairing identifier iPhones write.
    ffmpeg("-i", os.path.join(ANALYSIS, "two_people.mp4"), "-t", "2", "-c", "copy",
           "-metadata", "com.apple.quicktime.content.identifier=5C9F3E2A-7B1D-4A8E-9C3F-1D2E3F4A5B6C",
           "-metadata", "creation_time=2024-05-01T09:00:00Z", "-movflags", "use_metadata_tags", "-f", "mov",
           os.path.join(OUT, "IMG_0042.MOV"))
    # Screen recordings: no camera metadata; one with iOS's name, one with a neutral name.
    for name, day, words in [("RPReplay_Final1714640400.MP4", "2024-05-02T09:00:00Z", ["see you at 5", "ok!", "bring the cake", "where?"]),
                             ("clip_0007.mp4", "2024-05-04T09:00:00Z", ["invoice 2231", "paid", "total 31.50", "thanks"])]:
        with tempfile.TemporaryDirectory() as tmp:
            screen_frames(tmp, words)
            ffmpeg("-framerate", "10", "-i", os.path.join(tmp, "f%03d.png"), *X264, "-metadata", "creation_time=" + day,
                   os.path.join(OUT, name))
    # Slow motion stored slowed down, as Android writes it: 6 s playing at 30 fps, captured at 120.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30:duration=6", *X264, "-g", "30",
           "-metadata", "com.android.capture.fps=120.000000", "-metadata", "creation_time=2024-05-05T09:00:00Z",
           "-movflags", "use_metadata_tags", os.path.join(OUT, "slowmo_capture120.mp4"))
    # A time-lapse, as Android writes it: 3 s playing at 30 fps, captured at one frame a second.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30:duration=3", *X264, "-g", "30",
           "-metadata", "com.android.capture.fps=1.000000", "-metadata", "creation_time=2024-05-07T09:00:00Z",
           "-movflags", "use_metadata_tags", os.path.join(OUT, "timelapse_capture1.mp4"))
    # Slow motion stored in real time, as iPhones write it: 2 s at 120 fps.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=192x108:rate=120:duration=2", *X264, "-g", "120",
           "-metadata", "creation_time=2024-05-06T09:00:00Z", os.path.join(OUT, "hfr_120fps.mp4"))


if __name__ == "__main__":
    main()
