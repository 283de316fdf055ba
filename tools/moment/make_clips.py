#!/usr/bin/env python3
"""Evaluation clips for judge.py (issue 43): real face video, spoken words with pauses, scene cuts.

    make_clips.py OUTDIR [--count 36] [--seed 43]

Sources: the real talking-head and stage video in ../shared/videos (the Weekly Address excerpts and the
2009 Poetry Jam; provenance in shared/photos/PROVENANCE.md) and, as an occasional still shot, a slow zoom over
one of ../shared/photos. Every clip is one of three kinds, in turn:
- speech: one shot, its sound replaced by espeak-ng phrases with pauses of 0.3-1.4 s over a low noise floor
  (sometimes with a steady hum under it);
- shots:  two or three shots of different sources joined with hard cuts, their own sound;
- both:   two or three shots and espeak-ng phrases with pauses.
Each clip is 5-20 s, H.264 CRF 23, 25 or 30 fps, 640x360, 480x480 or 360x640; shots are scaled to cover the frame,
cropped with a random offset and sometimes mirrored. The same seed gives the same clips. Writes OUTDIR/clips.json
(what each clip is made of: shots with their source times, cut times, phrases with their times).
Needs the ffmpeg and espeak-ng commands (Debian: apt-get install -y ffmpeg espeak-ng).
"""
import argparse
import json
import os
import random
import subprocess
import tempfile
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))

# (file, first usable second, last usable second) in the file's own pts; one entry per real shot.
VIDEO_SHOTS = [
    ("videos/weekly_address_aoc.mp4", 0.0, 8.0),
    ("videos/weekly_address_hill.mp4", 0.0, 8.0),
    ("videos/poetry_jam_2009.mp4", 3.65, 7.85),   # Miranda close up, one shot
    ("videos/poetry_jam_2009.mp4", 1.58, 3.55),   # Miranda in profile, audience behind
]
STILLS = ["photos/obama2.jpg", "photos/two_people.jpg", "photos/biden2.jpg", "photos/obama_and_biden.jpg"]
SIZES = [(640, 360), (480, 480), (360, 640)]
VOICES = ["en-us", "en-gb", "en-us+f3", "en-gb+m3", "en-us+f2", "en-sc"]
PHRASES = [
    "Look at you, you did it all by yourself!", "Happy birthday, my little one.", "Can you say hello to grandma?",
    "We are going to the beach tomorrow.", "Careful, the water is cold.", "Who wants some more cake?",
    "That was the best day ever.", "Show me the picture you painted.", "Come here, sweetheart.",
    "One, two, three, jump!", "I love you to the moon and back.", "Where did the puppy go?",
    "Say cheese!", "Time for bed, little bear.", "Wow, look at that big fish.", "Are you ready? Here we go.",
    "Thank you for the lovely flowers.", "Let's build a sandcastle together.", "Don't forget your hat.",
    "Merry Christmas, everyone!", "Blow out the candles.", "Good morning, sunshine.",
]


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def tts(text, voice, speed, pitch, tmp):
    path = os.path.join(tmp, f"tts_{abs(hash((text, voice, speed, pitch)))}.wav")
    run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", path, text])
    with wave.open(path) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    # espeak-ng pads each phrase with silence; trim it so the pause lengths below are the real ones.
    loud = np.nonzero(np.abs(x) > 300)[0]
    if len(loud):
        x = x[loud[0]:loud[-1] + 1]
    return x, rate


def speech_track(rng, seconds, tmp, hum):
    """espeak-ng phrases with pauses over a low noise floor; returns (path, phrases with their times)."""
    rate = 22050
    voice, speed, pitch = rng.choice(VOICES), rng.randint(135, 185), rng.randint(30, 70)
    out = [np.zeros(int(rng.uniform(0.2, 1.2) * rate))]
    t = len(out[0]) / rate
    phrases = []
    while t < seconds:
        text = rng.choice(PHRASES)
        x, r = tts(text, voice, speed, pitch, tmp)
        assert r == rate, r
        phrases.append({"text": text, "start": round(t, 3), "end": round(t + len(x) / rate, 3)})
        pause = np.zeros(int(rng.uniform(0.3, 1.4) * rate))
        out += [x * rng.uniform(0.5, 1.0), pause]
        t += (len(x) + len(pause)) / rate
    sig = np.concatenate(out)[: int(seconds * rate)]
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    sig += nrng.normal(0, 30, len(sig))  # about -60 dBFS of room noise
    if hum:
        tt = np.arange(len(sig)) / rate
        sig += 500 * np.sin(2 * np.pi * hum * tt) + 250 * np.sin(2 * np.pi * 2 * hum * tt)
    path = os.path.join(tmp, f"speech_{rng.randint(0, 10**9)}.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.clip(sig, -32768, 32767).astype(np.int16).tobytes())
    return path, {"voice": voice, "speed": speed, "pitch": pitch, "hum_hz": hum, "phrases": phrases}


def pick_shots(rng, n, total):
    lengths = np.array([rng.uniform(0.6, 1.4) for _ in range(n)])
    lengths = lengths / lengths.sum() * total
    shots, last = [], None
    for ln in lengths:
        while True:
            use_still = rng.random() < 0.2
            src = ("still", rng.choice(STILLS)) if use_still else ("video", rng.choice(VIDEO_SHOTS))
            key = src[1] if use_still else src[1][0] + str(src[1][1])
            if key != last and (use_still or src[1][2] - src[1][1] >= min(ln, 4.2) - 1e-6):
                break
        last = key
        if use_still:
            shots.append({"kind": "still", "file": src[1], "length": round(float(ln), 3)})
        else:
            f, a, b = src[1]
            ln = min(float(ln), b - a)
            start = rng.uniform(a, b - ln)
            shots.append({"kind": "video", "file": f, "start": round(start, 3), "length": round(ln, 3)})
    return shots


def make_clip(rng, idx, kind, outdir, tmp):
    w, h = rng.choice(SIZES)
    fps = rng.choice([25, 30])
    if kind == "speech":
        # The two speakers in turn: only the Weekly Address excerpts are 5 s or more of one shot.
        f, a, b = VIDEO_SHOTS[(idx // 3) % 2]
        ln = rng.uniform(5.0, 7.5)
        shots = [{"kind": "video", "file": f, "start": round(rng.uniform(a, b - ln), 3), "length": round(ln, 3)}]
    else:
        n = rng.choice([2, 3, 3])
        shots = pick_shots(rng, n, rng.uniform(5.5, 12.0))
    total = sum(s["length"] for s in shots)
    inputs, filters, vlabels, alabels = [], [], [], []
    for i, s in enumerate(shots):
        mirror = rng.random() < 0.4
        jx, jy = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.6)
        s.update({"mirror": mirror})
        if s["kind"] == "video":
            inputs += ["-ss", f"{s['start']:.3f}", "-t", f"{s['length']:.3f}", "-i", os.path.join(SHARED, s["file"])]
            pre = ""
        else:
            inputs += ["-loop", "1", "-framerate", str(fps), "-t", f"{s['length']:.3f}", "-i", os.path.join(SHARED, s["file"])]
            z = rng.uniform(1.05, 1.2)
            frames = int(round(s["length"] * fps))
            pre = (f"scale=2*{w}:2*{h}:force_original_aspect_ratio=increase,"
                   f"zoompan=z='1+({z:.3f}-1)*on/{max(frames, 1)}':d=1:s={2 * w}x{2 * h}:fps={fps},")
        filters.append(
            f"[{i}:v]{pre}scale={w}:{h}:force_original_aspect_ratio=increase,"
            f"crop={w}:{h}:(iw-{w})*{jx:.2f}:(ih-{h})*{jy:.2f},{'hflip,' if mirror else ''}"
            f"fps={fps},setsar=1,format=yuv420p,trim=duration={s['length']:.3f},setpts=PTS-STARTPTS[v{i}]")
        vlabels.append(f"[v{i}]")
        if kind == "shots":
            if s["kind"] == "video":
                filters.append(f"[{i}:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,"
                               f"atrim=duration={s['length']:.3f},asetpts=PTS-STARTPTS[a{i}]")
            else:
                filters.append(f"anullsrc=r=48000:cl=stereo,atrim=duration={s['length']:.3f}[a{i}]")
            alabels.append(f"[a{i}]")
    filters.append("".join(vlabels) + f"concat=n={len(shots)}:v=1:a=0[vout]")
    maps = ["-map", "[vout]"]
    meta = {}
    if kind == "shots":
        filters.append("".join(alabels) + f"concat=n={len(shots)}:v=0:a=1[aout]")
        maps += ["-map", "[aout]"]
    else:
        hum = rng.choice([None, None, None, 100, 120])
        wav, meta = speech_track(rng, total, tmp, hum)
        inputs += ["-i", wav]
        maps += ["-map", f"{len(shots)}:a"]
    name = f"moment_{idx:02d}_{kind}.mp4"
    out = os.path.join(outdir, name)
    run(["ffmpeg", "-v", "error", "-y", *inputs, "-filter_complex", ";".join(filters), *maps,
         "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-r", str(fps), "-c:a", "aac", "-b:a", "96k",
         "-ar", "48000", "-t", f"{total:.3f}", out])
    cuts, t = [], 0.0
    for s in shots[:-1]:
        t += s["length"]
        cuts.append(round(t, 3))
    return {"file": name, "kind": kind, "size": [w, h], "fps": fps, "seconds": round(total, 3), "shots": shots,
            "cuts_planned": cuts, "speech": meta}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=36)
    ap.add_argument("--seed", type=int, default=43)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(args.seed)
    kinds = ["speech", "shots", "both"]
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            info = make_clip(rng, i + 1, kinds[i % 3], args.outdir, tmp)
            made.append(info)
            print(f"{info['file']}: {info['seconds']} s, {info['size'][0]}x{info['size'][1]}, cuts {info['cuts_planned']}",
                  flush=True)
    with open(os.path.join(args.outdir, "clips.json"), "w") as fh:
        json.dump({"seed": args.seed, "clips": made}, fh, indent=1)


if __name__ == "__main__":
    main()
