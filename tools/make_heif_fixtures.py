#!/usr/bin/env python3
"""Writes the HEIF test fixtures in Tests/Fixtures/heif/ with pillow-heif (libheif + x265).

From Sample/reference.jpg (a public-domain portrait, see Sample/PROVENANCE.md), cropped around the face:

- upright.png: the picture as it should be seen, 176x216 (what the HEIC files must decode to).
- grid_irot.heic: like an iPhone photo. The picture is stored sideways (216x176, turned 90 degrees
  anticlockwise) as a `grid` of 64x64 HEVC tiles (4x3, the last column and row cropped), with
  `irot` 3 (turn 270 degrees anticlockwise = 90 clockwise to show it) and an Exif item that says
  the same thing again (Orientation 6), DateTimeOriginal 2024:05:03 19:20:00 and
  OffsetTimeOriginal +02:00; nclx full-range BT.601 (matrix 6); a 64-pixel thumbnail item (thmb).
- plain_clap_irot_imir.heic: one HEVC item of an odd size (175x215 upright, stored 215x175 and
  coded 216x176), so libheif adds `clap`; then `irot` 3 and `imir` 0 in that order (Exif
  Orientation 7, transverse), and an Exif item without dates.
- <name>.pillow.png: pillow-heif's own decode of each HEIC (the pixel reference for the tests).
- upright.avif: the upright picture as AVIF (one AV1 item, lossless (crf 0) over 4:2:0 full-range
  BT.601 YUV, with that nclx), written by the
  `ffmpeg` CLI (5.1: libaom-av1 and its avif muxer), as this pillow-heif has no AV1 encoder.

Run from the repository root: python3 tools/make_heif_fixtures.py
The tests only read the files; neither they nor the product run Python.
"""
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pillow_heif
from PIL import Image

pillow_heif.register_heif_opener()

OUT = Path("Tests/Fixtures/heif")


def boxes(data, start, end):
    """(type, payload start, box end) of the boxes in data[start:end]."""
    off = start
    while off + 8 <= end:
        size, kind = struct.unpack(">I4s", data[off:off + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[off + 8:off + 16])[0]
            header = 16
        yield kind.decode("latin1"), off + header, off + size
        off += size


def summary(path):
    """Property types per item, in ipma order, and the item types: a check that libheif wrote what we meant."""
    data = path.read_bytes()
    meta = next((s, e) for k, s, e in boxes(data, 0, len(data)) if k == "meta")
    children = {k: (s, e) for k, s, e in boxes(data, meta[0] + 4, meta[1])}
    ipco = next((s, e) for k, s, e in boxes(data, *children["iprp"]) if k == "ipco")
    props = [k for k, s, e in boxes(data, *ipco)]
    ipma = next((s, e) for k, s, e in boxes(data, *children["iprp"]) if k == "ipma")
    s = ipma[0]
    version, flags = data[s], int.from_bytes(data[s + 1:s + 4], "big")
    count = struct.unpack(">I", data[s + 4:s + 8])[0]
    s += 8
    result = {}
    for _ in range(count):
        if version < 1:
            item = struct.unpack(">H", data[s:s + 2])[0]; s += 2
        else:
            item = struct.unpack(">I", data[s:s + 4])[0]; s += 4
        n = data[s]; s += 1
        assoc = []
        for _ in range(n):
            if flags & 1:
                v = struct.unpack(">H", data[s:s + 2])[0]; s += 2; index = v & 0x7FFF
            else:
                v = data[s]; s += 1; index = v & 0x7F
            assoc.append(props[index - 1])
        result[item] = assoc
    return result


def exif_bytes(orientation, date=None, offset=None):
    exif = Image.Exif()
    exif[0x0112] = orientation
    if date:
        exif[0x8769] = {0x9003: date, 0x9011: offset}
    return exif.tobytes()


def encode(stored, path, exif, quality, **options):
    heif = pillow_heif.from_bytes("RGB", stored.size, stored.tobytes())
    # pillow-heif hands the Exif orientation to libheif, which writes it as irot/imir.
    heif[0].info["exif"] = exif
    heif.save(path, quality=quality, **options)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    source = Image.open("Sample/reference.jpg").convert("RGB")
    upright = source.crop((150, 0, 362, 260)).resize((176, 216), Image.LANCZOS)
    upright.save(OUT / "upright.png", optimize=True)

    grid = OUT / "grid_irot.heic"
    stored = upright.transpose(Image.ROTATE_90)  # anticlockwise: a phone held upright stores it sideways
    encode(stored, grid, exif_bytes(6, "2024:05:03 19:20:00", "+02:00"), 96, tile_size=64, thumbnails=[64])

    plain = OUT / "plain_clap_irot_imir.heic"
    odd = upright.crop((0, 0, 175, 215))
    encode(odd.transpose(Image.TRANSVERSE), plain, exif_bytes(7), 90)

    for path, expected in ((grid, upright), (plain, odd)):
        decoded = Image.open(path).convert("RGB")  # pillow-heif applies irot/imir/clap, not Exif orientation
        decoded.save(path.with_suffix(".pillow.png"), optimize=True)
        a = np.asarray(decoded).astype(int)
        b = np.asarray(expected).astype(int)
        assert a.shape == b.shape, (path, a.shape, b.shape)
        diff = np.abs(a - b)
        print(f"{path.name}: {path.stat().st_size} bytes, {decoded.size[0]}x{decoded.size[1]}; "
              f"pillow-heif decode vs the picture encoded: mean |diff| {diff.mean():.3f}, max {diff.max()}")
        print(f"  properties per item (ipma order): {summary(path)}")
    avif = OUT / "upright.avif"
    command = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(OUT / "upright.png"), "-frames:v", "1",
               "-vf", "scale=out_color_matrix=bt601:out_range=pc,format=yuv420p", "-color_range", "pc",
               "-colorspace", "smpte170m", "-color_primaries", "bt709", "-color_trc", "iec61966-2-1",
               "-c:v", "libaom-av1", "-still-picture", "1", "-crf", "0", "-cpu-used", "6", "-threads", "1", str(avif)]
    subprocess.run(command, check=True)
    print(" ".join(command))
    print(f"{avif.name}: {avif.stat().st_size} bytes; properties per item (ipma order): {summary(avif)}")
    print("upright.png:", (OUT / "upright.png").stat().st_size, "bytes")
    print("pillow-heif", pillow_heif.__version__, "libheif", pillow_heif.libheif_info()["libheif"],
          "encoder", pillow_heif.libheif_info()["HEIF"])


if __name__ == "__main__":
    sys.exit(main())
