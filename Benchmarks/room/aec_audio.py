"""Audio steps of Benchmarks/room/aec: pad with a sync click, cut at the click, score the AEC output."""
import argparse
import json
import os
import sys

import numpy as np
import soundfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

LEAD = 1.0      # seconds of padding before media time 0
CLICK_AT = 0.5  # the sync click, this long before media time 0
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "out", "room", "aec")
SONG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "songs", "demo", "demo.txt")


def pad(src, dst, click):
    x, rate = soundfile.read(src, dtype="float64", always_2d=True)
    x = x.mean(axis=1)
    lead = np.zeros(int(LEAD * rate))
    if click:  # 5 ms of a 1 kHz burst: only in the mic path, so the AEC has no reference to cancel it with
        n = int(0.005 * rate)
        a = int((LEAD - CLICK_AT) * rate)
        lead[a:a + n] = 0.8 * np.sin(2 * np.pi * 1000 * np.arange(n) / rate)
    soundfile.write(dst, np.r_[lead, x, np.zeros(int(0.5 * rate))], rate, subtype="PCM_16")


def cut(src, dst, like):
    x, rate = soundfile.read(src, dtype="float64", always_2d=True)
    x = x.mean(axis=1)
    search = x[: int(3 * rate)]
    onset = int(np.flatnonzero(np.abs(search) > 0.3 * np.max(np.abs(search)))[0])
    start = onset + int(CLICK_AT * rate)
    n = int(soundfile.info(like).duration * rate)
    y = x[start:start + n]
    soundfile.write(dst, np.pad(y, (0, n - len(y))), rate, subtype="PCM_16")


def score(karaoke, wavs):
    rows = []
    for w in wavs:
        name = os.path.basename(w)[:-4]
        aec = os.path.join(OUT, f"{name}-aec.wav")
        row = {"recording": name, "raw": metrics.score(karaoke, SONG, w, "medium"),
               "aec": metrics.score(karaoke, SONG, aec, "medium")}
        truth = np.loadtxt(w[:-4] + "-truth.csv", delimiter=",", skiprows=1, ndmin=2)[:, 1]
        grid = np.arange(len(truth)) * 0.01
        for key, path in (("raw", w), ("aec", aec)):
            t = metrics.Tally()
            t.add(truth, metrics.on_grid(*metrics.pitch_ours(karaoke, path), grid))
            rpa, _, _, vfa = t.row() if t.v else (float("nan"),) * 3 + (t.fa / max(1, t.uv),)
            row[f"{key}_rpa"], row[f"{key}_vfa"] = rpa, vfa
        rows.append(row)
    with open(os.path.join(OUT, "..", "aec.json"), "w") as fh:
        json.dump({"karaoke": karaoke, "rows": rows}, fh, indent=1)
    print("| recording | medium, mic as recorded | medium, after webrtc AEC | RPA / VFA as recorded | RPA / VFA after AEC |")
    print("|---|---|---|---|---|")
    f = lambda x: "-" if np.isnan(x) else f"{x:.3f}"  # noqa: E731
    for r in rows:
        print(f"| {r['recording']} | {r['raw']} | {r['aec']} | {f(r['raw_rpa'])} / {f(r['raw_vfa'])} | "
              f"{f(r['aec_rpa'])} / {f(r['aec_vfa'])} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("step", choices=["pad", "cut", "score"])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--click", action="store_true")
    ap.add_argument("--like")
    ap.add_argument("--karaoke")
    a = ap.parse_args()
    if a.step == "pad":
        pad(a.files[0], a.files[1], a.click)
    elif a.step == "cut":
        cut(a.files[0], a.files[1], a.like)
    else:
        score(a.karaoke, a.files)


if __name__ == "__main__":
    main()
