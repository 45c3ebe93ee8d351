"""Where our detector misses on the harness's clips without backing: every truth-voiced 10 ms frame that
`karaoke pitch` does not read within 50 cents, classified, with the note it falls in and whether the
dry voice (before the room) is periodic at the truth there.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/misses.py --karaoke BIN RESULTS.json
        [--conditions SUBSTRING] [--runs N] [--json OUT.json]

RESULTS.json is a harness report (its clips' recordings, truth CSVs and cached dry voices are read from
beside each WAV). Classes of a missed frame (cents = 1200·log2(ours / truth)):
  unvoiced at note start   ours unvoiced in a note's first 50 ms, or in the lead-in before it
  unvoiced at note end     ours unvoiced in a note's last 50 ms (and not at its start)
  unvoiced inside note     ours unvoiced elsewhere in a note
  octave up ×2 / ×4, octave down ÷2 / ÷4       within 50 cents of those
  fifth up ×3/2 / ×3, down ×2/3 / ÷3, ×5/3 …   within 50 cents of a small ratio p/q (p, q ≤ 6)
  semitone off             50–150 cents from the truth (sharp or flat said with its sign)
  other                    anything else
A run is a stretch of consecutive missed frames of one class. "carried": the dry voice's normalised
autocorrelation reaches 0.5 within ±3 % of the truth period in a 46 ms window centred on the frame, in
a 21 ms window centred on it or in the 21 ms of its newest samples (docs/room-evaluation.md,
"Diagnostic tools"): where it does not, the miss is the rendering's as much as the detector's.
The dry voice has no room: the clean conditions are still sung in one (RT60 0.3 s), where a loud
consonant's reverberation can mask a carried vowel in the recording itself (masking.py).
"""
import argparse
import glob
import json
import math
import os
import sys
from fractions import Fraction

import numpy as np
import soundfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import metrics  # noqa: E402
import song as songs  # noqa: E402

EDGE = 0.05  # s at a note's start or end
LEAD = 0.121  # a frame this far before a note (after the previous one ended) is that note's lead-in
RATIOS = sorted({Fraction(p, q) for p in range(1, 7) for q in range(1, 7)} - {Fraction(1), Fraction(2), Fraction(4),
                                                                              Fraction(1, 2), Fraction(1, 4)})


def classify_pitch(cents):
    for name, r in (("octave up ×2", 2), ("octave down ÷2", 0.5), ("octave up ×4", 4), ("octave down ÷4", 0.25)):
        if abs(cents - 1200 * math.log2(r)) <= 50:
            return name
    for r in RATIOS:
        if abs(cents - 1200 * math.log2(r)) <= 50:
            return f"ratio ×{r.numerator}/{r.denominator}" if r.denominator != 1 else f"ratio ×{r.numerator}"
    if abs(cents) <= 150:
        return "semitone sharp" if cents > 0 else "semitone flat"
    return "other"


def note_of(notes, starts, t):
    """The index of the note sounding at t, else of the next note if t is in its lead-in, else the last before."""
    n = max(0, int(np.searchsorted(starts, t, side="right")) - 1)
    if notes[n][0] <= t < notes[n][1]:
        return n
    if n + 1 < len(notes) and notes[n + 1][0] - t <= LEAD:
        return n + 1
    return n


def voiced_runs(truth):
    """(first, last) frame of each run of truth-voiced frames."""
    v = np.r_[False, truth > 0, False]
    d = np.diff(v.astype(int))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1) - 1))


def carried(dry, rate, t, hz):
    """Is the dry voice periodic at hz around time t (see the module docstring)?"""
    centre = int(round(t * rate))
    lag0 = rate / hz
    lags = np.arange(max(2, int(lag0 * 0.97)), int(lag0 * 1.03) + 2)
    for a, b in ((centre - int(0.023 * rate), centre + int(0.023 * rate)),
                 (centre - int(0.0105 * rate), centre + int(0.0105 * rate)),
                 (centre + int(0.023 * rate) - int(0.021 * rate), centre + int(0.023 * rate))):
        a, b = max(0, a), min(len(dry), b)
        x = dry[a:b]
        best = 0.0
        for lag in lags:
            if lag >= len(x) - 8:
                break
            p, q = x[:-lag], x[lag:]
            den = math.sqrt(float(np.dot(p, p)) * float(np.dot(q, q)))
            if den > 0:
                best = max(best, float(np.dot(p, q)) / den)
        if best >= 0.5:
            return True
    return False


def dry_voice(wav, info):
    """The cached dry voice of a clip (conditions.dry_voice's file), or None."""
    synth = "" if info["synth"] == "world" else f"-{info['synth']}"
    key = f"voice-{info['voice'].replace(':', '_').replace(',', '_')}-{info['octaves_down']}oct-" \
          f"{info['cents']:+.1f}c-s{info['seed']}{synth}-*.npz"
    found = sorted(glob.glob(os.path.join(os.path.dirname(wav), key)), key=os.path.getmtime)
    return np.load(found[-1])["audio"].astype(np.float64) if found else None


def clip_misses(karaoke, wav, notes):
    truth = np.loadtxt(wav[:-4] + "-truth.csv", delimiter=",", skiprows=1, ndmin=2)[:, 1]
    with open(wav[:-4] + ".json") as fh:
        info = json.load(fh)
    times, f0 = metrics.pitch_ours(karaoke, wav)
    est = metrics.on_grid(times, f0, np.arange(len(truth)) * 0.01)
    dry = dry_voice(wav, info)
    starts = np.array([n[0] for n in notes])
    cls = {}
    for a, b in voiced_runs(truth):
        for k in range(a, b + 1):
            if est[k] > 0:
                cents = 1200 * math.log2(est[k] / truth[k])
                if abs(cents) <= 50:
                    continue
                cls[k] = classify_pitch(cents)
            else:
                start, end = notes[note_of(notes, starts, k * 0.01)][:2]
                cls[k] = "unvoiced at note start" if k * 0.01 < start + EDGE else (
                    "unvoiced at note end" if k * 0.01 >= end - EDGE else "unvoiced inside note")
    runs, k_sorted = [], sorted(cls)
    i = 0
    while i < len(k_sorted):
        j = i
        while j + 1 < len(k_sorted) and k_sorted[j + 1] == k_sorted[j] + 1 and cls[k_sorted[j + 1]] == cls[k_sorted[i]]:
            j += 1
        k0, k1 = k_sorted[i], k_sorted[j]
        t0 = k0 * 0.01
        n = note_of(notes, starts, t0)
        start, end, midi, text = notes[n]
        car = None
        if dry is not None:
            car = sum(carried(dry, 44_100, k * 0.01, truth[k]) for k in range(k0, k1 + 1))
        runs.append({"class": cls[k0], "t0": round(t0, 2), "t1": round(k1 * 0.01, 2), "frames": k1 - k0 + 1,
                     "note": n, "note_start": round(start, 3), "note_end": round(end, 3), "midi": midi, "text": text,
                     "into_note_ms": round(1000 * (t0 - start)), "truth_hz": round(float(truth[k0]), 1),
                     "ours_hz": round(float(est[k0]), 1), "carried_frames": car})
        i = j + 1
    return int((truth > 0).sum()), runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("results")
    ap.add_argument("--conditions", default="", help="only clips whose condition contains this")
    ap.add_argument("--runs", type=int, default=12, help="longest runs listed per clip")
    ap.add_argument("--json", help="write every clip's runs here")
    a = ap.parse_args()
    with open(a.results) as fh:
        report = json.load(fh)
    paths = {key: path for key, path, _ in harness.SONGS}
    timelines, out = {}, []
    pooled = {}
    for s in report["scores"]:
        wav = s["wav"]
        if a.conditions not in s["condition"] or not os.path.exists(wav[:-4] + "-truth.csv") or s["rt60"] is not None:
            continue
        if s["song"] not in timelines:
            timelines[s["song"]] = songs.load(a.karaoke, s["song"], paths[s["song"]]).notes
        voiced, runs = clip_misses(a.karaoke, wav, timelines[s["song"]])
        if not voiced:
            continue
        counts = {}
        for r in runs:
            c = counts.setdefault(r["class"], [0, 0])
            c[0] += r["frames"]
            c[1] += r["carried_frames"] or 0
            p = pooled.setdefault(s["condition"], {}).setdefault(r["class"], [0, 0])
            p[0] += r["frames"]
            p[1] += r["carried_frames"] or 0
        missed = sum(c[0] for c in counts.values())
        print(f"\n{s['song']} | {s['condition']} | {s['voice']}: {voiced} truth-voiced frames, {missed} missed "
              f"(RPA {1 - missed / voiced:.4f})")
        for c, (n, car) in sorted(counts.items(), key=lambda x: -x[1][0]):
            print(f"    {c}: {n} ({car} carried by the dry voice)")
        for r in sorted(runs, key=lambda r: -r["frames"])[:a.runs]:
            print(f"    {r['t0']:.2f}–{r['t1']:.2f} s {r['class']} ({r['frames']} fr, {r['carried_frames']} carried), "
                  f"note {r['note']} '{r['text']}' midi {r['midi']} at {r['note_start']:.2f}–{r['note_end']:.2f} s "
                  f"(+{r['into_note_ms']} ms), truth {r['truth_hz']} ours {r['ours_hz']}")
        out.append({"song": s["song"], "condition": s["condition"], "voice": s["voice"], "wav": wav,
                    "voiced_frames": voiced, "missed": missed, "classes": counts, "runs": runs})
    print("\nPooled per condition (missed frames, of which carried by the dry voice):")
    for cond, counts in pooled.items():
        print(f"  {cond}: " + ", ".join(f"{c} {n} ({car})" for c, (n, car) in sorted(counts.items(), key=lambda x: -x[1][0])))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"clips": out, "pooled": pooled}, fh, indent=1)


if __name__ == "__main__":
    main()
