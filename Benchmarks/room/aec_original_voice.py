#!/usr/bin/env python3
"""Issue 38, item 1: a waveform echo canceller (speexdsp's MDF) in front of our spectral bleed suppressor,
when the played track carries the original singer.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/aec_original_voice.py --karaoke PATH/TO/karaoke \
        [--aec 100:10,250:10,250:20,500:20] [--out Benchmarks/results/aec-original-voice.json]

(`Benchmarks/room/run --self-test` once first makes the venv.) On the demo song:

- the singer: the harness's clean singer (espeak-ng en+f2 re-pitched by WORLD onto the notes, seed 12);
- the played track: the demo backing plus an "original singer" on the same notes — flite's slt (another
  engine's female voice) in the singer's octave, or flite's rms (male) one octave down — at the
  backing's level (RMS over the sung spans, `--vocal-db`);
- the room: room.py's loudspeaker path (RT60 0.5 s, a seeded 5–30 ms delay) into the mic beside the
  singer, at −12/−6/0 dB relative to the singer; the track alone (no singer); the backing alone and
  the backing-only bleed at −6 dB as the harness has them; the clean singer with no bleed.

Every recording is scored (`karaoke score --difficulty medium --mic-delay 0 --json`):
 (a) as recorded, `--no-backing`;  (b) as recorded, `--backing TRACK` (the spectral suppressor only);
 (c) MDF residual, `--no-backing`; (d) MDF residual, `--backing TRACK` (both).
The MDF runs at `--aec-rate` (16 kHz) on the mic and the exact played track at its output time
(the mic and the track share media time 0), frames of F ms and a filter of L ms (`--aec L:F,…`), with
no preprocessor (no noise suppression, gain control or residual-echo suppression); its residual is
resampled back to the recording's rate. Our detector analyses at 11.025 kHz (44.1 kHz ÷ 4), so the
16 kHz band limit removes nothing it reads. RPA / voicing false alarm of `karaoke pitch` (with and
without `--backing TRACK`) against the singer's truth on the first `--aec` setting.
Recordings are cached in Benchmarks/out/room/aec-original/ (keyed like the harness's).
"""
import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time

import numpy as np
import soundfile
from scipy.signal import resample_poly

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conditions  # noqa: E402
import metrics  # noqa: E402
import room  # noqa: E402
import song as songs  # noqa: E402
import voice  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DEMO = os.path.join(REPO, "songs", "demo", "demo.txt")
OUT = os.path.join(REPO, "Benchmarks", "out", "room", "aec-original")
TOOL = os.path.join(REPO, "Benchmarks", "out", "aec_mdf")
RATE = voice.RATE
NOMINAL_RMS = 0.1
SINGER = conditions.Condition("clean", "sung", "en+f2", seed=12)  # the harness's clean singer (seed 11 + 1)
ORIGINALS = {  # the original singer on the played track
    "same octave": conditions.Condition("original", "sung", "flite:slt", octaves_down=0, seed=41),
    "octave down": conditions.Condition("original", "sung", "flite:rms", octaves_down=1, seed=42),
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def active_mask(song, n):
    active = np.zeros(n, dtype=bool)
    for start, end, *_ in song.notes:
        active[int(start * RATE):int(end * RATE)] = True
    return active


def fit(x, n):
    x = np.asarray(x, dtype=np.float64)
    return np.pad(x, (0, max(0, n - len(x))))[:n]


def played_track(song, original, vocal_db, n, active):
    """The track the loudspeaker plays: the backing, plus the original singer (dry) at vocal_db relative
    to the backing over the sung spans; peak 0.9. Written once as WAV (the `--backing` reference)."""
    name = "backing" if original is None else f"track-{original.voice.replace(':', '_')}-{original.octaves_down}oct-v{vocal_db:+.0f}"
    path = os.path.join(OUT, f"{name}.wav")
    backing = songs.read_backing(song, RATE)
    track = backing.copy()
    if original is not None:
        dry, _ = conditions.dry_voice(song, original, os.path.join(conditions.OUT, song.key), conditions._source_hash())
        dry = fit(dry, n)
        track += dry * (room.rms(backing, active) / (room.rms(dry, active) or 1.0)) * 10 ** (vocal_db / 20)
    track *= 0.9 / np.max(np.abs(track))
    if not os.path.exists(path):
        soundfile.write(path, track, RATE, subtype="PCM_16")
    track, _ = soundfile.read(path, dtype="float64")  # exactly what the reference file holds
    return path, fit(track, n)


def recording(song, name, singer, track, db, delay_ms, rt60, seed, active, n):
    """The mic: singer (room.py's voice path, RMS 0.1 over the sung spans) + track through the loudspeaker
    path at db relative to the singer (None: no track) + mic noise, as conditions.record makes it."""
    path = os.path.join(OUT, f"{name}-{conditions._source_hash()}.wav")
    if os.path.exists(path):
        return path
    wet = np.zeros(n)
    if singer is not None:
        wet = room.voice_in_room(fit(singer, n), conditions.VOICE_RT60, RATE)
        wet *= NOMINAL_RMS / (room.rms(wet, active) or NOMINAL_RMS)
    at_mic = None if track is None else room.backing_in_room(track, rt60, delay_ms / 1000, RATE, n)
    mic = room.mix(wet, at_mic, db or 0.0, NOMINAL_RMS, active, np.random.default_rng(seed + 1000))
    soundfile.write(path, mic, RATE, subtype="PCM_16")
    return path


def cancel(mic_wav, track, filter_ms, frame_ms, aec_rate, passes=1, res=0):
    """speexdsp MDF on (mic, played track) at aec_rate; the residual at the recording's rate. Returns the
    residual's path and the tool's CPU seconds (per pass). passes=2: the filter has already run over the
    same recording once (converged on the room), the second pass is kept. res=1: speex's residual-echo
    suppressor after the filter (aec_mdf.c)."""
    tag = f"mdf{filter_ms}f{frame_ms}r{aec_rate}" + (f"p{passes}" if passes > 1 else "") + ("res" if res else "")
    out = mic_wav[:-4] + f"-{tag}.wav"
    raw = lambda p: mic_wav[:-4] + f"-{tag}.{p}.raw"  # noqa: E731
    mic, rate = soundfile.read(mic_wav, dtype="float64")
    g = np.gcd(rate, aec_rate)
    down = lambda x: resample_poly(x, aec_rate // g, rate // g)  # noqa: E731
    to16 = lambda x: np.clip(np.round(x * 32767), -32768, 32767).astype("<i2")  # noqa: E731
    to16(down(mic)).tofile(raw("mic"))
    to16(down(track)).tofile(raw("ref"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([TOOL, raw("mic"), raw("ref"), raw("out"), str(aec_rate), str(aec_rate * frame_ms // 1000),
                    str(aec_rate * filter_ms // 1000), str(passes), str(res)], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) / passes
    res = np.fromfile(raw("out"), dtype="<i2").astype(np.float64) / 32767
    res = fit(resample_poly(res, rate // g, aec_rate // g), len(mic))
    soundfile.write(out, res, rate, subtype="PCM_16")
    for p in ("mic", "ref", "out"):
        os.remove(raw(p))
    return out, cpu


def erle_db(mic_wav, residual_wav, silent):
    """Echo return loss enhancement where the singer is silent (the track alone at the mic)."""
    m, _ = soundfile.read(mic_wav, dtype="float64")
    r, _ = soundfile.read(residual_wav, dtype="float64")
    return 10 * np.log10((np.mean(m[silent] ** 2) + 1e-20) / (np.mean(r[silent] ** 2) + 1e-20))


def pitch(karaoke, wav, truth, reference):
    t = metrics.Tally()
    t.add(truth, metrics.on_grid(*metrics.pitch_ours(karaoke, wav, reference), np.arange(len(truth)) * 0.01))
    rpa, _, _, vfa = t.row() if t.v else (float("nan"),) * 3 + (t.fa / max(1, t.uv),)
    return {"RPA": rpa, "VFA": vfa}


REALVOICE = os.path.normpath(os.path.join(REPO, "..", "shared", "realvoice", "annotated"))


def realvoice_song(karaoke):
    """An UltraStar song from vocadito_1's first note annotation (notesA1: onset, length, nearest MIDI
    note), 10 ms beats (#BPM 1500), syllables "la", a line per rest of 0.4 s or more; its #MP3 is the
    demo backing (interference only: it is not in the song's key or tempo)."""
    import csv
    folder = os.path.join(OUT, "vocadito")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(REALVOICE, "vocadito_1.notesA1.csv")) as fh:
        notes = sorted((float(r["onset_s"]), float(r["duration_s"]), int(r["midi_nearest"])) for r in csv.DictReader(fh))
    backing = os.path.join(folder, "backing.wav")
    if not os.path.exists(backing):
        x, r = soundfile.read(os.path.join(REPO, "songs", "demo", "backing.ogg"), dtype="float64", always_2d=True)
        soundfile.write(backing, x.mean(axis=1)[: int(34 * r)], r, subtype="PCM_16")
    lines = ["#TITLE:vocadito 1 (notesA1)", "#ARTIST:vocadito", "#MP3:backing.wav", "#BPM:1500", "#GAP:0"]
    last_end = None
    for onset, dur, midi in notes:
        start, length = int(round(onset * 100)), max(1, int(round(dur * 100)))
        if last_end is not None and start - last_end >= 40:
            lines.append(f"- {last_end + 1}")
        if last_end is not None and start < last_end:
            start = last_end
        lines.append(f": {start} {length} {midi - 60} la")
        last_end = start + length
    lines.append("E")
    path = os.path.join(folder, "vocadito.txt")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return songs.load(karaoke, "vocadito", path)


def tag_of(setting):
    filt, frame, passes, res = setting
    return f"mdf {filt} ms / {frame} ms" + (f", pass {passes}" if passes > 1 else "") + (" + speex RES" if res else "")


def parse_settings(text):
    """"250:20,250:20:2,250:20:2:res" → [(250, 20, 1, 0), (250, 20, 2, 0), (250, 20, 2, 1)] (filter ms,
    frame ms, passes, speex's residual-echo suppressor after the filter)."""
    out = []
    for item in text.split(","):
        v = item.split(":")
        out.append((int(v[0]), int(v[1]), int(v[2]) if len(v) > 2 else 1, int(len(v) > 3 and v[3] == "res")))
    return out


def realvoice_rows(karaoke, settings, aec_rate, vocal_db, seed, append=False):
    """The real singer (vocadito_1, as recorded: its own room, no reverb added, RMS 0.1 over the sung
    spans) with a played track of the demo backing plus flite:slt singing notesA1 in the singer's octave
    and an octave up, at −6 dB; the track alone; scores (a)–(d) as for the demo."""
    song = realvoice_song(karaoke)
    n = int(song.seconds * RATE)
    active = active_mask(song, n)
    x, r = soundfile.read(os.path.join(REALVOICE, "vocadito_1.wav"), dtype="float64")
    singer = fit(x, n)
    folder = os.path.join(conditions.OUT, song.key)
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed + 39)
    backing = fit(songs.read_backing(song, RATE), n)
    originals = {"same octave": conditions.Condition("original", "sung", "flite:slt", octaves_down=0, seed=43),
                 "octave up": conditions.Condition("original", "sung", "flite:slt", octaves_down=-1, seed=44)}
    out = []
    score = lambda w, ref: metrics.score(karaoke, song.path, w, "medium",  # noqa: E731
                                         extra=["--backing", ref] if ref else ["--no-backing"])
    wet_singer = singer * (NOMINAL_RMS / (room.rms(singer, active) or NOMINAL_RMS))
    clean_wav = os.path.join(OUT, "vocadito", "clean.wav")
    soundfile.write(clean_wav, wet_singer, RATE, subtype="PCM_16")
    out.append({"condition": "vocadito_1 clean", "singer": True, "wav": os.path.relpath(clean_wav, REPO),
                "scores": {"a_raw_no_ref": score(clean_wav, None)}})
    for key, o in originals.items():
        dry, _ = conditions.dry_voice(song, o, folder, conditions._source_hash())
        dry = fit(dry, n)
        track = backing + dry * (room.rms(backing, active) / (room.rms(dry, active) or 1.0)) * 10 ** (vocal_db / 20)
        track *= 0.9 / np.max(np.abs(track))
        track_path = os.path.join(OUT, "vocadito", f"track-{key.replace(' ', '_')}.wav")
        soundfile.write(track_path, track, RATE, subtype="PCM_16")
        track, _ = soundfile.read(track_path, dtype="float64")
        for name, sung, db in ((f"vocadito_1 + original {key}, track -6 dB", True, -6),
                               (f"original {key} (vocadito notes), track alone", False, 0)):
            delay = round(float(rng.uniform(5, 30)), 1)
            at_mic = room.backing_in_room(track, 0.5, delay / 1000, RATE, n)
            mic = room.mix(wet_singer if sung else np.zeros(n), at_mic, db, NOMINAL_RMS, active,
                           np.random.default_rng(seed + 1000))
            wav = os.path.join(OUT, "vocadito", "".join(c if c.isalnum() or c in "+-." else "_" for c in name) + ".wav")
            soundfile.write(wav, mic, RATE, subtype="PCM_16")
            row = {"condition": name, "singer": sung, "played": os.path.relpath(track_path, REPO), "track_db": db,
                   "delay_ms": delay, "rt60": 0.5, "wav": os.path.relpath(wav, REPO), "aec_cpu_s": {},
                   "scores": {} if append else {"a_raw_no_ref": score(wav, None), "b_raw_spectral": score(wav, track_path)}}
            for setting in settings:
                tag = tag_of(setting)
                res, cpu = cancel(wav, track, *setting[:2], aec_rate, *setting[2:])
                row["aec_cpu_s"][tag] = cpu
                row["scores"][f"c_aec_no_ref, {tag}"] = score(res, None)
                row["scores"][f"d_aec_spectral, {tag}"] = score(res, track_path)
            out.append(row)
            log(f"{name}: {row['scores']}")
    clean = out[0]["scores"]["a_raw_no_ref"]
    for r in out:
        r["share_of_clean"] = {k: (v / clean if r["singer"] else None) for k, v in r["scores"].items()}
    return out


def git_commit(path):
    res = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    return res.stdout.strip() or None


def demo_rows(karaoke, settings, args):
    """The demo song's rows (the singer, the tracks, the room; scores (a)–(d), RPA/VFA)."""
    song = songs.load(karaoke, "demo", DEMO)
    n = int(song.seconds * RATE)
    frames = int(song.seconds / voice.HOP) + 1
    active = active_mask(song, n)
    folder = os.path.join(conditions.OUT, song.key)
    os.makedirs(folder, exist_ok=True)
    singer, truth = conditions.dry_voice(song, SINGER, folder, conditions._source_hash())
    truth = fit(truth, frames)
    rng = np.random.default_rng(args.seed + 38)
    backing_path, backing = played_track(song, None, 0, n, active)
    tracks = {k: played_track(song, o, args.vocal_db, n, active) for k, o in ORIGINALS.items()}

    rows = []  # (name, kind, track key, dB, singer?)
    rows.append(("clean", None, None, True))
    rows.append(("backing -6 dB", "backing", -6, True))
    rows.append(("backing alone", "backing", 0, False))
    for key in ORIGINALS:
        for db in (-12, -6, 0):
            rows.append((f"original {key}, track {db:+d} dB".replace("+0", "0"), key, db, True))
        rows.append((f"original {key}, track alone", key, 0, False))

    results = []
    for name, key, db, sung in rows:
        delay = round(float(rng.uniform(5, 30)), 1)
        track_path, track = (backing_path, backing) if key in (None, "backing") else tracks[key]
        slug = "".join(c if c.isalnum() or c in "+-." else "_" for c in name)
        wav = recording(song, slug, singer if sung else None, None if key is None else track, db, delay, 0.5,
                        args.seed, active, n)
        row = {"condition": name, "played": None if key is None else os.path.relpath(track_path, REPO),
               "track_db": db if key else None, "delay_ms": delay if key else None, "rt60": 0.5 if key else None,
               "singer": sung, "wav": os.path.relpath(wav, REPO), "scores": {}, "pitch": {}, "aec_cpu_s": {}}
        sc = lambda w, ref: metrics.score(karaoke, DEMO, w, "medium",  # noqa: E731
                                          extra=["--backing", ref] if ref else ["--no-backing"])
        raw = not args.append or key is None  # appended runs: the canceller's columns (and the clean score) only
        if raw:
            row["scores"]["a_raw_no_ref"] = sc(wav, None)
            row["scores"]["b_raw_spectral"] = sc(wav, track_path)
        measure_pitch = sung and not args.no_pitch and (args.pitch_all or db in (None, -6))
        if measure_pitch and raw:
            row["pitch"]["a_raw_no_ref"] = pitch(karaoke, wav, truth, None)
            if key:
                row["pitch"]["b_raw_spectral"] = pitch(karaoke, wav, truth, track_path)
        if key is not None:
            for i, setting in enumerate(settings):
                tag = tag_of(setting)
                res, cpu = cancel(wav, track, *setting[:2], args.aec_rate, *setting[2:])
                row["aec_cpu_s"][tag] = cpu
                row["scores"][f"c_aec_no_ref, {tag}"] = sc(res, None)
                row["scores"][f"d_aec_spectral, {tag}"] = sc(res, track_path)
                if not sung:
                    row.setdefault("erle_db", {})[tag] = erle_db(wav, res, np.ones(n, dtype=bool))
                if i == 0 and measure_pitch:
                    row["pitch"][f"c_aec_no_ref, {tag}"] = pitch(karaoke, res, truth, None)
                    row["pitch"][f"d_aec_spectral, {tag}"] = pitch(karaoke, res, truth, track_path)
        results.append(row)
        log(f"{name}: {row['scores']}")

    clean = results[0]["scores"]["a_raw_no_ref"]
    for r in results:
        r["share_of_clean"] = {k: (v / clean if r["singer"] else None) for k, v in r["scores"].items()}
    return results, n / RATE


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--karaoke-commit", help="the commit the binary was built from (recorded in the JSON)")
    ap.add_argument("--aec", default="250:20:2,250:20,100:10,500:20:2",
                    help="FILTER_MS:FRAME_MS[:PASSES[:res]],… MDF settings (PASSES 2: the filter converged on a first "
                         "pass over the same recording; res: speex's residual-echo suppressor after it); the first is "
                         "the one RPA is measured on")
    ap.add_argument("--aec-rate", type=int, default=16000)
    ap.add_argument("--vocal-db", type=float, default=0.0, help="the original voice against the backing in the track")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default=os.path.join(REPO, "Benchmarks", "results", "aec-original-voice.json"))
    ap.add_argument("--no-pitch", action="store_true", help="skip the RPA/VFA runs")
    ap.add_argument("--pitch-all", action="store_true",
                    help="RPA/VFA on every sung row (default: the clean singer and the −6 dB rows, the targets)")
    ap.add_argument("--realvoice", action="store_true",
                    help="also ../shared/realvoice's vocadito_1 as the singer (scores only; its notesA1 as the song)")
    ap.add_argument("--append", action="store_true",
                    help="add these --aec settings' columns to the rows of an existing --out (same recordings, cached)")
    ap.add_argument("--only-realvoice", action="store_true", help="the realvoice rows only (the demo rows skipped)")
    args = ap.parse_args()
    karaoke = os.path.abspath(args.karaoke)
    settings = parse_settings(args.aec)
    os.makedirs(OUT, exist_ok=True)
    if not os.path.exists(TOOL):
        subprocess.run(["gcc", "-O2", "-o", TOOL, os.path.join(HERE, "aec_mdf.c"), "-lspeexdsp"], check=True)
    load_start, started = os.getloadavg(), time.time()

    results, audio_s = ([], None) if args.only_realvoice else demo_rows(karaoke, settings, args)
    real = realvoice_rows(karaoke, settings, args.aec_rate, -6, args.seed, args.append) if args.realvoice or args.only_realvoice else []
    clean = results[0]["scores"]["a_raw_no_ref"] if results else None
    report = {
        "issue": "38 item 1: speexdsp MDF echo canceller in front of the spectral bleed suppressor, original voice on the track",
        "karaoke": karaoke, "karaoke_commit": args.karaoke_commit, "harness_commit": git_commit(REPO),
        "command": shlex.join([os.path.relpath(sys.executable, REPO) if sys.executable.startswith(REPO) else sys.executable,
                             os.path.relpath(os.path.abspath(__file__), REPO), *sys.argv[1:]]),
        "score_command": f"{karaoke} score songs/demo/demo.txt REC.wav --difficulty medium --mic-delay 0 --json "
                         "(--no-backing | --backing TRACK.wav)",
        "pitch_command": f"{karaoke} pitch REC.wav --csv [--backing TRACK.wav]",
        "aec_command": f"{os.path.relpath(TOOL, REPO)} MIC.raw REF.raw OUT.raw {args.aec_rate} FRAME FILTER "
                       "(Benchmarks/room/aec_mdf.c; int16 mono; REF = the played track from media time 0)",
        "aec_settings_ms": [{"filter": f, "frame": fr, "passes": p, "speex_res": bool(r)} for f, fr, p, r in settings], "aec_rate": args.aec_rate,
        "singer": SINGER.voice, "originals": {k: {"voice": o.voice, "octaves_down": o.octaves_down}
                                              for k, o in ORIGINALS.items()},
        "vocal_db_in_track": args.vocal_db, "song_seconds": audio_s, "clean_score": clean,
        "load_average_start": load_start, "load_average_end": os.getloadavg(), "cpus": os.cpu_count(),
        "seconds": time.time() - started, "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "rows": results, "realvoice_rows": real,
    }
    if args.append and os.path.exists(args.out):
        report = merged(args.out, report)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(report, fh, indent=1, default=float)
    print_markdown(report, parse_settings(",".join(
        f"{s['filter']}:{s['frame']}:{s['passes']}" + (":res" if s.get("speex_res") else "") for s in report["aec_settings_ms"])))
    log(f"wrote {args.out} ({report['seconds']:.0f} s)")


def merged(path, new):
    """The report at path with new's settings, scores, shares, RPA/VFA and CPU added to the same rows; the
    runs' commands, times and load averages kept as a list."""
    with open(path) as fh:
        old = json.load(fh)
    for key in ("rows", "realvoice_rows"):
        by_name = {r["condition"]: r for r in old.get(key, [])}
        for r in new.get(key, []):
            if r["condition"] not in by_name:
                old.setdefault(key, []).append(r)
                continue
            o = by_name[r["condition"]]
            for field in ("scores", "share_of_clean", "pitch", "aec_cpu_s", "erle_db"):
                if r.get(field):
                    o.setdefault(field, {}).update({k: v for k, v in r[field].items() if k not in o.get(field, {})})
    old["aec_settings_ms"] += [s for s in new["aec_settings_ms"] if s not in old["aec_settings_ms"]]
    runs = old.pop("runs", None) or [{k: old[k] for k in ("command", "load_average_start", "load_average_end",
                                                           "seconds", "date_utc", "harness_commit")}]
    runs.append({k: new[k] for k in ("command", "load_average_start", "load_average_end", "seconds", "date_utc",
                                     "harness_commit")})
    old["runs"] = runs
    return old


def print_markdown(r, settings):
    heads = ["(a) no ref", "(b) spectral"] + [f"(c) {tag_of(s)}" for s in settings] + \
        [f"(d) {tag_of(s)} + spectral" for s in settings]
    print(f"\nMedium scores; in brackets the share of the same singer's clean score (no bleed, --no-backing). "
          f"MDF at {r['aec_rate']} Hz.\n")
    print("| condition | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(heads))
    for rows in (r["rows"], r["realvoice_rows"]):
        for row in rows:
            s, share = row["scores"], row["share_of_clean"]
            cell = lambda k: "-" if s.get(k) is None else (  # noqa: E731
                f"{s[k]}" + (f" ({100 * share[k]:.1f} %)" if share.get(k) is not None else ""))
            keys = ["a_raw_no_ref", "b_raw_spectral"] + [f"c_aec_no_ref, {tag_of(s)}" for s in settings] + \
                [f"d_aec_spectral, {tag_of(s)}" for s in settings]
            print(f"| {row['condition']} | " + " | ".join(cell(k) for k in keys) + " |")
    if any(row.get("pitch") for row in r["rows"]):
        print("\nRPA / voicing false alarm of `karaoke pitch` against the singer's truth:\n")
        ways = [k for row in r["rows"] for k in row.get("pitch", {})]
        ways = list(dict.fromkeys(ways))
        print("| condition | " + " | ".join(ways) + " |")
        print("|---|" + "---|" * len(ways))
        f = lambda p: "-" if p is None else f"{p['RPA']:.3f} / {p['VFA']:.3f}"  # noqa: E731
        for row in r["rows"]:
            if row.get("pitch"):
                print(f"| {row['condition']} | " + " | ".join(f(row["pitch"].get(w)) for w in ways) + " |")
    cpu = [(t, c) for row in r["rows"] for t, c in row.get("aec_cpu_s", {}).items()]
    for setting in settings:
        tag = tag_of(setting)
        vals = [c for t, c in cpu if t == tag]
        if vals and r.get("song_seconds"):
            print(f"\n{tag}: {np.median(vals):.2f} s CPU per {r['song_seconds']:.1f} s recording "
                  f"({1000 * np.median(vals) / r['song_seconds']:.1f} ms per second of audio, median of {len(vals)}; per pass)")


if __name__ == "__main__":
    main()
