#!/usr/bin/env python3
"""An independent judge of the second glimt-pure picks (issue 43): eyes, words and shots.

For each clip it runs `glimt-pure analyze --no-refs --json CLIP`, reads the chosen second, and judges it and every
other 1-second window of the clip (starts on a 1/8 s grid) with tools that share no code with the product:

- eyes:  MediaPipe FaceMesh (mediapipe==0.10.14, refine_landmarks=True, up to MAX_FACES faces, tracking mode) on
         every decoded frame, upright (display matrix applied). Eye aspect ratio (EAR) per eye from the six usual
         landmarks, in pixels, averaged over both eyes. A face counts when its landmark box is at least --min-face
         (8 %) of the frame height. Faces are followed from frame to frame; a frame has a blink when a counted face
         has EAR under --ear (0.20) and under --relative (0.70) times that face's own open-eye EAR (90th percentile
         of its EAR along its track).
         A window has a blink when any of its frames has one; it is blink-free when none has one and at least half
         of its frames show a counted face (a second without faces is not an "open eyes" second).
- sound: 16 kHz mono s16 (PyAV's resampler), steady sound (hum, tones) removed by subtracting each frequency's
         median magnitude over the clip, then webrtcvad (mode 2) on 30 ms frames, the frame grid laid from the
         video's first frame (audio aligned by pts). Clips without sound or with under 0.5 s of speech in all are
         left out of the sound rows. An edge at time e is cut inside speech when every
         30 ms frame that overlaps (e - 30 ms, e + 30 ms) is speech; time outside the sound counts as silence.
- shots: PySceneDetect ContentDetector (threshold 40 instead of the default 27; min_scene_len 15 frames), fed
         the same upright frames. A window crosses a shot when the frames it shows (pts in [start, start + length)) belong
         to more than one shot.

Measurements do not depend on the binary: they are cached (--cache), so re-judging with a new binary only re-runs
analyze. Times are seconds in the video's own time, from its first frame (as glimt-pure reports them).
"""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time

import av
import numpy as np

EAR_THRESHOLD = 0.20
MIN_FACE = 0.08
RELATIVE = 0.70
VAD_MODE = 2
MAX_FACES = 8
GRID = 1.0 / 8.0
VAD_FRAME = 0.030
VAD_RATE = 16000
# A clip enters the sound rows with at least this much speech in all (a hum's fades leave a few 30 ms blips).
MIN_SPEECH = 0.5
MEASURE_VERSION = 6
# PySceneDetect's default is 27; a fast zoom in a tight crop scored 28-33 here, every real cut 47 or more.
CUT_THRESHOLD = 40.0

# FaceMesh landmark indices: p1 (outer/inner corner), p2, p3 (upper lid), p4 (other corner), p5, p6 (lower lid).
RIGHT_EYE = (33, 160, 158, 133, 153, 144)
LEFT_EYE = (362, 385, 387, 263, 373, 380)


def eye_aspect_ratio(pts, idx):
    p1, p2, p3, p4, p5, p6 = (pts[i] for i in idx)
    width = np.linalg.norm(p1 - p4)
    if width <= 1e-6:
        return 0.0
    return float((np.linalg.norm(p2 - p6) + np.linalg.norm(p3 - p5)) / (2.0 * width))


def upright(frame):
    img = frame.to_ndarray(format="rgb24")
    rot = getattr(frame, "rotation", 0) or 0
    k = int(round(rot / 90.0)) % 4
    if k:
        img = np.ascontiguousarray(np.rot90(img, k=k))
    return img


def measure_video(path):
    import mediapipe as mp
    from scenedetect import ContentDetector, FrameTimecode

    mesh = mp.solutions.face_mesh.FaceMesh(
        static_image_mode=False, max_num_faces=MAX_FACES, refine_landmarks=True,
        min_detection_confidence=0.5, min_tracking_confidence=0.5)
    detector = ContentDetector(threshold=CUT_THRESHOLD)
    container = av.open(path)
    stream = container.streams.video[0]
    stream.thread_type = "AUTO"
    fps = float(stream.average_rate or stream.guessed_rate or 30)
    frames = []
    cut_indices = []
    first_pts = None
    width = height = 0
    for i, frame in enumerate(container.decode(stream)):
        t = float(frame.time) if frame.time is not None else i / fps
        if first_pts is None:
            first_pts = t
        rgb = upright(frame)
        height, width = rgb.shape[:2]
        res = mesh.process(rgb)
        faces = []
        for lm in res.multi_face_landmarks or []:
            pts = np.array([(p.x * width, p.y * height) for p in lm.landmark], dtype=np.float64)
            face_h = (pts[:, 1].max() - pts[:, 1].min()) / height
            ear_r = eye_aspect_ratio(pts, RIGHT_EYE)
            ear_l = eye_aspect_ratio(pts, LEFT_EYE)
            faces.append({"h": round(face_h, 4), "ear": round((ear_r + ear_l) / 2.0, 4),
                          "x": round(float(pts[:, 0].mean() / width), 4), "y": round(float(pts[:, 1].mean() / height), 4)})
        frames.append({"t": round(t - first_pts, 6), "faces": faces})
        bgr = np.ascontiguousarray(rgb[:, :, ::-1])
        for cut in detector.process_frame(FrameTimecode(i, fps), bgr):
            cut_indices.append(int(cut.frame_num))
    container.close()
    mesh.close()
    cuts = sorted({frames[c]["t"] for c in cut_indices if 0 < c < len(frames)})
    frame_dur = 1.0 / fps
    duration = frames[-1]["t"] + frame_dur if frames else 0.0
    audio = measure_audio(path, first_pts or 0.0, duration)
    return {"version": MEASURE_VERSION,
            "width": width, "height": height, "fps": fps, "duration": round(duration, 6),
            "frames": frames, "cuts": cuts, "audio": audio}


def measure_audio(path, video_first, duration):
    import webrtcvad

    container = av.open(path)
    if not container.streams.audio:
        container.close()
        return None
    stream = container.streams.audio[0]
    resampler = av.AudioResampler(format="s16", layout="mono", rate=VAD_RATE)
    chunks = []
    audio_first = None
    for frame in container.decode(stream):
        if audio_first is None and frame.time is not None:
            audio_first = float(frame.time)
        for out in resampler.resample(frame):
            chunks.append(out.to_ndarray().reshape(-1))
    for out in resampler.resample(None):
        chunks.append(out.to_ndarray().reshape(-1))
    container.close()
    if not chunks:
        return None
    pcm = denoise(np.concatenate(chunks).astype(np.float64))
    offset = (audio_first or 0.0) - video_first  # video time of the first audio sample
    shift = int(round(offset * VAD_RATE))
    if shift > 0:
        pcm = np.concatenate([np.zeros(shift, np.int16), pcm])
    elif shift < 0:
        pcm = pcm[-shift:]
    n = VAD_RATE * 30 // 1000
    vad = webrtcvad.Vad(VAD_MODE)
    labels = []
    for k in range(len(pcm) // n):
        labels.append(1 if vad.is_speech(pcm[k * n:(k + 1) * n].tobytes(), VAD_RATE) else 0)
    rms = float(np.sqrt(np.mean(pcm.astype(np.float64) ** 2))) if len(pcm) else 0.0
    return {"vad_mode": VAD_MODE, "offset": round(offset, 6), "rms": round(rms, 1), "speech": labels}


def denoise(x):
    """Spectral subtraction of each frequency's median magnitude over the clip (512-sample Hann, hop 256).

    webrtcvad calls a steady hum or tone speech; a stationary sound has its median at its own level and goes,
    while speech, which changes from frame to frame, stays well above its per-frequency median."""
    n, hop = 512, 256
    if len(x) < n:
        return x.astype(np.int16)
    w = np.hanning(n + 1)[:-1]
    pad = np.concatenate([np.zeros(n), x, np.zeros(n)])
    starts = range(0, len(pad) - n, hop)
    spec = np.fft.rfft(np.array([pad[i:i + n] * w for i in starts]), axis=1)
    mag = np.abs(spec)
    clean = np.maximum(mag - np.median(mag, axis=0), 0.02 * mag)
    frames = np.fft.irfft(clean * np.exp(1j * np.angle(spec)), n=n, axis=1)
    out = np.zeros(len(pad))
    norm = np.zeros(len(pad))
    for k, i in enumerate(starts):
        out[i:i + n] += frames[k] * w
        norm[i:i + n] += w * w
    out = out / np.maximum(norm, 1e-6)
    return np.clip(out[n:n + len(x)], -32768, 32767).astype(np.int16)


def edge_in_speech(speech, e):
    """Every 30 ms frame overlapping (e - 30 ms, e + 30 ms) is speech (outside the sound: silence)."""
    if not speech:
        return False
    a, b = e - VAD_FRAME, e + VAD_FRAME
    i_min = math.floor(round(a / VAD_FRAME - 1, 6)) + 1
    i_max = math.ceil(round(b / VAD_FRAME, 6)) - 1
    for i in range(i_min, i_max + 1):
        if i < 0 or i >= len(speech) or not speech[i]:
            return False
    return True


def mark_blinks(m, ear_threshold, min_face, relative):
    """Per frame: counted faces and whether one of them blinks.

    Faces are followed from frame to frame (nearest centre within half a face height; a shot cut or 8 frames
    unseen ends a track). A counted face blinks when its EAR is under ear_threshold and under `relative` times
    its own open-eye EAR (the 90th percentile of its EAR over its track): a face whose eyes are always narrow
    (a smile, a squint, a face turned away) does not blink all the time."""
    w, h = m["width"], m["height"]
    cut_frames = set()
    for c in m["cuts"]:
        for i, f in enumerate(m["frames"]):
            if f["t"] >= c - 1e-6:
                cut_frames.add(i)
                break
    tracks = []  # each: {"last": i, "x", "y", "h", "ears": [], "members": [(frame, face)]}
    live = []
    for i, f in enumerate(m["frames"]):
        if i in cut_frames:
            live = []
        live = [tr for tr in live if i - tr["last"] <= 8]
        used = set()
        for face in sorted(f["faces"], key=lambda fc: -fc["h"]):
            best, bd = None, None
            for tr in live:
                if id(tr) in used:
                    continue
                d = math.hypot((face["x"] - tr["x"]) * w, (face["y"] - tr["y"]) * h)
                if d <= 0.5 * max(face["h"], tr["h"]) * h and (bd is None or d < bd):
                    best, bd = tr, d
            if best is None:
                best = {"ears": [], "members": []}
                tracks.append(best)
                live.append(best)
            used.add(id(best))
            best.update({"last": i, "x": face["x"], "y": face["y"], "h": face["h"]})
            best["ears"].append(face["ear"])
            best["members"].append((i, face))
    counted = [0] * len(m["frames"])
    blink = [False] * len(m["frames"])
    for tr in tracks:
        open_ear = float(np.percentile(tr["ears"], 90))
        for i, face in tr["members"]:
            if face["h"] < min_face:
                continue
            counted[i] += 1
            if face["ear"] < ear_threshold and face["ear"] < relative * open_ear:
                blink[i] = True
    for i, f in enumerate(m["frames"]):
        f["counted"] = counted[i]
        f["blink"] = blink[i]
    return len(tracks)


def judge_window(m, start, length):
    frames = [f for f in m["frames"] if start - 1e-4 <= f["t"] < start + length - 1e-4]
    blink = any(f["blink"] for f in frames)
    with_face = sum(1 for f in frames if f["counted"] > 0)
    blink_free = (not blink) and frames and with_face * 2 >= len(frames)
    shots = set()
    for f in frames:
        shots.add(sum(1 for c in m["cuts"] if c <= f["t"] + 1e-6))
    crosses = len(shots) > 1
    speech = m["audio"]["speech"] if m["audio"] else []
    edges = [edge_in_speech(speech, start), edge_in_speech(speech, start + length)]
    return {"start": round(start, 4), "end": round(start + length, 4), "frames": len(frames),
            "blink": blink, "blink_free": bool(blink_free),
            "blink_times": [f["t"] for f in frames if f["blink"]][:12],
            "edges_in_speech": edges, "crosses_shot": crosses,
            "cuts_inside": [c for c in m["cuts"] if start < c < start + length]}


def windows(m, length):
    """Every window of `length` with a start on the 1/8 s grid that ends within the clip, judged."""
    k = 0
    while k * GRID + length <= m["duration"] + 1e-6:
        yield judge_window(m, k * GRID, length)
        k += 1


def run_analyze(glimt, clip):
    t0 = time.time()
    proc = subprocess.run([glimt, "analyze", "--no-refs", "--json", "-q", clip], capture_output=True, text=True)
    elapsed = time.time() - t0
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, f"exit {proc.returncode}: {proc.stderr.strip()[:300]}", elapsed
    picks = data.get("picks") or []
    if not picks:
        return None, "no pick: " + json.dumps({k: data.get(k) for k in ("skipped", "skippedDays", "failures")})[:300], elapsed
    p = picks[0]
    return {"start": float(p["start"]), "length": float(p.get("length", 1)), "score": p.get("score"),
            "flaws": p.get("flaws")}, None, elapsed


CACHE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache")


def cached_measurements(clip, cache_dir=CACHE_DIR):
    """The clip's measurements as a judged run cached them, its blinks marked with the judge's default rule."""
    with open(os.path.join(cache_dir, cache_key(clip) + ".json")) as fh:
        m = json.load(fh)
    mark_blinks(m, EAR_THRESHOLD, MIN_FACE, RELATIVE)
    return m


def cache_key(clip):
    st = os.stat(clip)
    h = hashlib.sha1(f"{os.path.abspath(clip)}|{st.st_size}|{st.st_mtime_ns}|{MEASURE_VERSION}".encode()
                     ).hexdigest()[:16]
    return h


def judge_clip(clip, glimt, cache_dir, ear, min_face, relative):
    t0 = time.time()
    m = None
    cpath = None
    if cache_dir:
        os.makedirs(cache_dir, exist_ok=True)
        cpath = os.path.join(cache_dir, cache_key(clip) + ".json")
        if os.path.exists(cpath):
            with open(cpath) as fh:
                m = json.load(fh)
    measured_now = m is None
    if m is None:
        m = measure_video(clip)
        if cpath:
            with open(cpath, "w") as fh:
                json.dump(m, fh)
    t_measure = time.time() - t0
    n_tracks = mark_blinks(m, ear, min_face, relative)
    pick, err, t_analyze = run_analyze(glimt, clip)
    D = m["duration"]
    length = pick["length"] if pick else 1.0
    judged = list(windows(m, length))
    n = len(judged)
    audio = m["audio"]
    has_speech = bool(audio and sum(audio["speech"]) * VAD_FRAME >= MIN_SPEECH)
    faces_any = sum(1 for f in m["frames"] if f["counted"] > 0)
    ears = [fc["ear"] for f in m["frames"] for fc in f["faces"] if fc["h"] >= min_face]
    summary = {
        "windows": n,
        "blink": sum(w["blink"] for w in judged),
        "blink_free": sum(w["blink_free"] for w in judged),
        "edges_in_speech": sum(sum(w["edges_in_speech"]) for w in judged),
        "clean_edged": sum(1 for w in judged if not any(w["edges_in_speech"])),
        "open_and_clean": sum(1 for w in judged if w["blink_free"] and not any(w["edges_in_speech"])),
        "crossing": sum(w["crosses_shot"] for w in judged),
    }
    out = {
        "clip": clip, "duration": D, "fps": m["fps"], "size": [m["width"], m["height"]],
        "frames": len(m["frames"]), "frames_with_counted_face": faces_any,
        "blink_frames": sum(1 for f in m["frames"] if f["blink"]), "face_tracks": n_tracks,
        "ear_counted": {"min": min(ears), "median": float(np.median(ears)), "p10": float(np.percentile(ears, 10))}
        if ears else None,
        "has_audio": audio is not None, "speech_frames": sum(audio["speech"]) if audio else 0,
        "vad_frames": len(audio["speech"]) if audio else 0,
        "cuts": m["cuts"], "pick": pick, "pick_error": err,
        "chosen": judge_window(m, pick["start"], pick["length"]) if pick else None,
        "summary": summary,
        "rows": {
            "eyes": bool(pick and faces_any and summary["blink_free"] > 0),
            "sound": bool(pick and has_speech and summary["clean_edged"] > 0),
            "both": bool(pick and faces_any and has_speech and summary["open_and_clean"] > 0),
            "shots": bool(pick and m["cuts"] and summary["crossing"] < n),
        },
        "seconds": {"measure": round(t_measure, 2), "measured_now": measured_now, "analyze": round(t_analyze, 2)},
    }
    return out


def short(path):
    """The clip with its two folders: Sample/videos and shared/videos both hold a weekly_address_hill.mp4."""
    return os.path.join(*os.path.abspath(path).split(os.sep)[-3:])


def pct(x):
    return f"{100.0 * x:.0f} %"


def table(results, label):
    eyes = [r for r in results if r["rows"]["eyes"]]
    sound = [r for r in results if r["rows"]["sound"]]
    both = [r for r in results if r["rows"]["both"]]
    shots = [r for r in results if r["rows"]["shots"]]
    lines = [f"| | {label} | a random window |", "|---|---|---|"]
    if eyes:
        c = sum(1 for r in eyes if r["chosen"]["blink"])
        rnd = np.mean([r["summary"]["blink"] / r["summary"]["windows"] for r in eyes])
        withb = sum(1 for r in eyes if r["summary"]["blink"] > 0)
        lines.append(f"| (a) chosen second has a blink, though a blink-free second existed ({withb} of {len(eyes)} clips "
                     f"have a blink somewhere) | {c} of {len(eyes)} ({pct(c / len(eyes))}) | {pct(rnd)} |")
    if sound:
        c = sum(sum(r["chosen"]["edges_in_speech"]) for r in sound)
        rnd = np.mean([r["summary"]["edges_in_speech"] / (2 * r["summary"]["windows"]) for r in sound])
        lines.append(f"| (b) cut inside speech, though a clean-edged second existed | {c} of {2 * len(sound)} cuts "
                     f"({pct(c / (2 * len(sound)))}) | {pct(rnd)} |")
    if both:
        c = sum(1 for r in both if r["chosen"]["blink_free"] and not any(r["chosen"]["edges_in_speech"]))
        exp = sum(r["summary"]["open_and_clean"] / r["summary"]["windows"] for r in both)
        lines.append(f"| (c) open eyes and clean edges chosen, where such a second existed | {c} of {len(both)} "
                     f"({pct(c / len(both))}) | {exp:.1f} ({pct(exp / len(both))}) |")
    if shots:
        c = sum(1 for r in shots if r["chosen"]["crosses_shot"])
        rnd = np.mean([r["summary"]["crossing"] / r["summary"]["windows"] for r in shots])
        lines.append(f"| (d) chosen second crosses a shot (clips with a cut and a one-shot second) | {c} of {len(shots)} "
                     f"({pct(c / len(shots))}) | {pct(rnd)} |")
    return "\n".join(lines)


def oddities(results):
    lines = []
    for r in results:
        name = short(r["clip"])
        notes = []
        if r["pick"] is None:
            notes.append(f"no pick ({r['pick_error']})")
        if r["frames_with_counted_face"] == 0:
            notes.append("no counted face")
        elif not r["rows"]["eyes"]:
            notes.append("no blink-free second")
        if not r["has_audio"]:
            notes.append("no audio stream")
        elif r["speech_frames"] * VAD_FRAME < MIN_SPEECH:
            notes.append(f"no speech ({r['speech_frames'] * VAD_FRAME:.2f} s)")
        elif not r["rows"]["sound"]:
            notes.append("no clean-edged second")
        if notes:
            lines.append(f"- {name}: " + "; ".join(notes))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--glimt", required=True, help="path to the glimt-pure binary to judge")
    ap.add_argument("--out", help="write per-clip results (JSON) here")
    ap.add_argument("--md", help="write the markdown table here (also printed)")
    ap.add_argument("--label", default="glimt-pure", help="column title for the chosen second")
    ap.add_argument("--cache", default=CACHE_DIR,
                    help="folder for cached measurements ('' for none)")
    ap.add_argument("--ear", type=float, default=EAR_THRESHOLD)
    ap.add_argument("--min-face", type=float, default=MIN_FACE)
    ap.add_argument("--relative", type=float, default=RELATIVE)
    ap.add_argument("clips", nargs="+")
    args = ap.parse_args()
    clips = []
    for c in args.clips:
        if os.path.isdir(c):
            clips += sorted(os.path.join(c, f) for f in os.listdir(c) if f.lower().endswith((".mp4", ".mov", ".mkv")))
        else:
            clips.append(c)
    results = []
    t0 = time.time()
    for i, clip in enumerate(clips, 1):
        r = judge_clip(clip, args.glimt, args.cache, args.ear, args.min_face, args.relative)
        ch = r["chosen"]
        print(f"[{i}/{len(clips)}] {short(clip)}: pick {ch['start'] if ch else None} "
              f"blink={ch['blink'] if ch else '-'} edges={ch['edges_in_speech'] if ch else '-'} "
              f"cross={ch['crosses_shot'] if ch else '-'} cuts={r['cuts']} "
              f"({r['seconds']['measure']:.1f}+{r['seconds']['analyze']:.1f} s)", file=sys.stderr)
        results.append(r)
    total = time.time() - t0
    md = table(results, args.label)
    odd = oddities(results)
    counts = {k: sum(1 for r in results if r["rows"][k]) for k in ("eyes", "sound", "both", "shots")}
    left_out = sum(1 for r in results if not r["has_audio"] or r["speech_frames"] * VAD_FRAME < MIN_SPEECH)
    text = (f"{md}\n\nClips: {len(results)}; rows use eyes {counts['eyes']}, sound {counts['sound']}, "
            f"both {counts['both']}, shots {counts['shots']}; left out of the sound rows for no audio or no speech: "
            f"{left_out}. Judge time {total:.0f} s.\n\n{odd}\n")
    print(text)
    if args.md:
        with open(args.md, "w") as fh:
            fh.write(text)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"glimt": args.glimt, "ear_threshold": args.ear, "min_face": args.min_face, "relative": args.relative, "vad_mode": VAD_MODE,
                       "cut_threshold": CUT_THRESHOLD,
                       "seconds": round(total, 1), "clips": results}, fh, indent=1)


if __name__ == "__main__":
    main()
