"""Where a recording loses its score: per note, the beats `karaoke score` did not credit and what the
detector's frames in them were (unvoiced, octave, harmonic reading, off by < 1 semitone …) against the
ground truth the harness wrote next to the recording.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/diagnose.py --karaoke BIN SONG REC.wav [--backing FILE]
        [--against OTHER.wav] [--notes N]

`--against` scores a second recording of the same song (e.g. the clean singer for an octave-down
one) and lists the notes where the first loses beats the second does not. Frames are classified by
the detector's reading against the truth f0 (cents, 10 ms grid): `unvoiced` (truth voiced, detector
not), `ok` (within 50 cents of the truth or a whole number of octaves from it — octaves fold away in
scoring), `harmonic` (within 50 cents of 3, 5 or 6 × the truth, or their octaves: not foldable),
`sub` (within 50 cents of 1/3 … of the truth), `off` (anything else), `truth-unvoiced`.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import song as songs  # noqa: E402


def score_notes(karaoke, song_path, wav, backing):
    cmd = [karaoke, "score", song_path, wav, "--difficulty", "medium", "--mic-delay", "0", "--json"]
    cmd += ["--backing", backing] if backing else ["--no-backing"]
    d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    notes = []
    for line in d["lines"]:
        for n in line["notes"]:
            if n.get("targetMidi") is not None:
                notes.append(n)
    return d["total"], notes


def pitch(karaoke, wav, backing):
    cmd = [karaoke, "pitch", wav, "--csv", "--details"] + (["--backing", backing] if backing else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    return np.loadtxt(out, delimiter=",", ndmin=2)


def classify(f_est, f_true):
    if f_true <= 0:
        return "truth-unvoiced"
    if f_est <= 0:
        return "unvoiced"
    cents = 1200 * math.log2(f_est / f_true)
    octaves = round(cents / 1200)
    if abs(cents - 1200 * octaves) < 50:
        return "ok"
    for m in (3, 5, 6, 7):
        r = 1200 * math.log2(m)
        k = round((cents - r) / 1200)
        if abs(cents - r - 1200 * k) < 50:
            return "harmonic" if cents > 0 else "sub"
    return "off"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("song")
    ap.add_argument("wav")
    ap.add_argument("--backing")
    ap.add_argument("--against")
    ap.add_argument("--notes", type=int, default=25, help="how many losing notes to list")
    a = ap.parse_args()
    s = songs.load(a.karaoke, "song", a.song)
    truth = np.loadtxt(a.wav[:-4] + "-truth.csv", delimiter=",", skiprows=1, ndmin=2)
    frames = pitch(a.karaoke, a.wav, a.backing)
    total, results = score_notes(a.karaoke, a.song, a.wav, a.backing)
    other = score_notes(a.karaoke, a.song, a.against, a.backing)[1] if a.against else None
    assert len(results) == len(s.notes), (len(results), len(s.notes))
    print(f"total {total}" + (f"; against {a.against}" if other else ""))
    tally, lost_tally = {}, {}
    lost_beats = 0.0
    rows = []
    for i, (start, end, midi, text) in enumerate(s.notes):
        r = results[i]
        lost = r["beats"] - r["creditedBeats"]
        if other is not None:
            lost -= other[i]["beats"] - other[i]["creditedBeats"]
        idx = np.nonzero((frames[:, 0] >= start) & (frames[:, 0] < end))[0]
        cats = []
        for k in idx:
            t = frames[k, 0]
            j = int(round(t / 0.01))
            f_true = truth[j, 1] if j < len(truth) else 0
            c = classify(frames[k, 1], f_true)
            cats.append(c)
            tally[c] = tally.get(c, 0) + 1
            if lost > 0:
                lost_tally[c] = lost_tally.get(c, 0) + 1
        if lost > 0:
            lost_beats += lost
            detail = " ".join(
                f"{frames[k, 1]:.0f}/{truth[int(round(frames[k, 0] / 0.01)), 1]:.0f}"
                f"({frames[k, 2]:.2f},{frames[k, 3]:.0f})" for k in idx)
            rows.append((lost, i, start, end, midi, text, r["beats"], cats, detail))
    print(f"beats lost{' (beyond the other)' if other else ''}: {lost_beats:.0f}")
    print("frames in all notes:", dict(sorted(tally.items())))
    print("frames in losing notes:", dict(sorted(lost_tally.items())))
    rows.sort(key=lambda x: -x[0])
    for lost, i, start, end, midi, text, beats, cats, detail in rows[:a.notes]:
        hz = 440 * 2 ** ((midi - 69) / 12)
        print(f"note {i} {start:.2f}-{end:.2f}s midi {midi} ({hz:.0f} Hz) '{text}' beats {beats} lost {lost:.0f}: "
              f"{' '.join(cats)}")
        print(f"    est/truth(clarity,dB): {detail}")


if __name__ == "__main__":
    main()
