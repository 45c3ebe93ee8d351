"""What a low-band check of ÷3 readings would do (docs/room-evaluation.md, "Tried and not
kept"): for every frame ours voices, whether the band below 1.5 kHz is as
periodic (within 0.02; 46 ms window, ±3 %) at a third of ours' period as at ours' period.
Counted on frames read at a third of the truth (the check would set them right) and on frames read
right (or truth-unvoiced) whose third lies in range (the check would break them).

    Benchmarks/out/room-venv/bin/python Benchmarks/room/third_check.py --karaoke BIN REC.wav …

Each REC.wav needs the harness's REC-truth.csv beside it.
"""
import argparse
import os
import sys

import numpy as np
import soundfile as sf
from scipy.signal import butter, sosfiltfilt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diagnose  # noqa: E402

BAND_HZ = 1500.0
MARGIN = 0.02
HIGHEST_THIRD_HZ = 1100.0  # a reading's third above this is outside what the detector reads


def periodicity(segment, lag):
    lag = int(round(lag))
    a, b = segment[:-lag], segment[lag:]
    return float(np.dot(a, b) / np.sqrt(np.dot(a, a) * np.dot(b, b) + 1e-20))


def best(segment, lag):
    return max(periodicity(segment, lag * f) for f in np.linspace(0.97, 1.03, 9))


def count(karaoke, wav):
    audio, rate = sf.read(wav)
    audio = audio if audio.ndim == 1 else audio[:, 0]
    low = sosfiltfilt(butter(6, BAND_HZ, btype="low", fs=rate, output="sos"), audio)
    truth = np.loadtxt(wav[:-4] + "-truth.csv", delimiter=",", skiprows=1, ndmin=2)
    ours = diagnose.pitch(karaoke, wav, None)
    half = int(0.023 * rate)
    c = {"read_at_a_third": 0, "set_right": 0, "read_right_in_range": 0, "broken": 0}
    for i in range(min(len(truth), len(ours))):
        f, t = ours[i, 1], truth[i, 1]
        centre = int(ours[i, 0] * rate)
        if f <= 0 or centre - half < 0 or centre + half > len(audio):
            continue
        segment, period = low[centre - half:centre + half], rate / f
        shorter_holds = None
        if t > 0 and abs(1200 * np.log2(3 * f / t)) < 50:
            c["read_at_a_third"] += 1
            shorter_holds = best(segment, period / 3) >= best(segment, period) - MARGIN
            c["set_right"] += shorter_holds
        elif t <= 0 or abs(1200 * np.log2(f / t)) < 50:
            if period / 3 < rate / BAND_HZ or 3 * f > HIGHEST_THIRD_HZ:
                continue
            c["read_right_in_range"] += 1
            c["broken"] += best(segment, period / 3) >= best(segment, period) - MARGIN
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("wavs", nargs="+")
    a = ap.parse_args()
    total = {}
    for wav in a.wavs:
        c = count(a.karaoke, wav)
        print(os.path.basename(os.path.dirname(wav)), os.path.basename(wav), c, flush=True)
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    print("total", total)


if __name__ == "__main__":
    main()
