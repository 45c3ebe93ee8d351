"""Are the high notes ours leaves unvoiced periodic in the recording, or only in the dry voice?

`misses.py` calls a missed frame "carried" when the *dry* voice is periodic at the truth there. The
clean conditions are still sung in a room (RT60 0.3 s), so a loud consonant's reverberation can mask
a quiet vowel that follows it in the recording. For every truth-voiced frame at or above C5 that
ours leaves unvoiced, this prints the periodicity at the truth's period in the recording as ours
analyses it (decimated by 4, the 400 Hz high-pass, a 46 ms Hann window divided by its own
autocorrelation), and the same signal low-passed at 1.5 kHz (below a fricative's 2–8 kHz). Beside
it, the price of listening to the low band: how many truth-unvoiced frames above −60 dBFS that
ours also leaves unvoiced are as periodic there (at any period) as in the analysed band.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/masking.py --karaoke PATH CLIP.wav [CLIP.wav ...]

Each CLIP.wav needs its `-truth.csv` beside it (any clip `run` wrote). docs/room-evaluation.md,
"Tried and not kept".
"""
import argparse
import os
import sys

import numpy as np
import soundfile as sf
from scipy.signal import butter, lfilter, resample_poly, sosfiltfilt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diagnose  # noqa: E402

DECIMATION = 4          # 44.1 kHz → 11.025 kHz, as ours
LOW_CUT_HZ = 400        # ours: `LowFrequencyCut`
LOW_BAND_HZ = 1500
WINDOW_S = 0.046        # ours: 3 periods of 65 Hz
HIGH_NOTE_HZ = 523      # C5
THRESHOLDS = (0.5, 0.6, 0.7, 0.8)


def analysed(wav):
    x, rate = sf.read(wav, dtype="float32")
    x = x.mean(axis=1) if x.ndim > 1 else x
    x = resample_poly(x, 1, DECIMATION).astype(np.float64)
    rate /= DECIMATION
    a = np.exp(-2 * np.pi * LOW_CUT_HZ / rate)
    x = lfilter([(1 + a) / 2, -(1 + a) / 2], [1, -a], x)
    return x, sosfiltfilt(butter(4, LOW_BAND_HZ, fs=rate, output="sos"), x), rate


class Periodicity:
    """n(τ) of a Hann window divided by the window's own autocorrelation (ours: DifferenceFunction)."""

    def __init__(self, rate):
        self.length = int(WINDOW_S * rate)
        self.lags = self.length // 3 + 2
        self.window = np.hanning(self.length + 2)[1:-1]
        self.size = 1 << int(np.ceil(np.log2(2 * self.length)))
        self.own = self.autocorrelation(self.window)

    def autocorrelation(self, x):
        return np.fft.irfft(np.abs(np.fft.rfft(x, self.size)) ** 2, self.size)[:self.lags]

    def at(self, signal, centre):
        start = int(centre - self.length // 2)
        if start < 0 or start + self.length > len(signal):
            return None
        r = self.autocorrelation(signal[start:start + self.length] * self.window)
        return (r / self.own) / (r[0] / self.own[0]) if r[0] > 0 else None


def clip(karaoke, wav):
    band, low, rate = analysed(wav)
    truth = np.loadtxt(wav[:-4] + "-truth.csv", delimiter=",", skiprows=1, ndmin=2)[:, 1]
    ours = diagnose.pitch(karaoke, wav, None)  # time, f0, clarity, level
    periodicity = Periodicity(rate)
    shortest = int(rate / 1100)
    missed, unvoiced = [], []
    for i in range(min(len(truth), len(ours))):
        if ours[i, 1] > 0:
            continue
        is_missed = truth[i] >= HIGH_NOTE_HZ
        if not is_missed and not (truth[i] <= 0 and ours[i, 3] > -60):
            continue
        row = []
        for signal in (band, low):
            n = periodicity.at(signal, i * 0.01 * rate)
            if n is None:
                row += [0.0, 0.0]
                continue
            lag = rate / truth[i] if truth[i] > 0 else 0
            at_truth = float(n[int(lag * 0.97):int(np.ceil(lag * 1.03)) + 1].max()) if lag else 0.0
            row += [at_truth, float(n[shortest:].max())]
        (missed if is_missed else unvoiced).append(row)
    return np.array(missed).reshape(-1, 4), np.array(unvoiced).reshape(-1, 4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--karaoke", required=True)
    parser.add_argument("clips", nargs="+")
    args = parser.parse_args()
    for wav in args.clips:
        missed, unvoiced = clip(args.karaoke, wav)
        print(f"{wav.split('/')[-1]}: {len(missed)} missed frames at or above C5; "
              f"{len(unvoiced)} truth-unvoiced frames above -60 dBFS, unvoiced by ours too")
        if len(missed):
            q = lambda v: np.quantile(v, [0.25, 0.5, 0.75, 0.9]).round(2).tolist()
            print(f"  periodicity at the truth (quartiles, 90th): analysed band {q(missed[:, 0])}, "
                  f"below {LOW_BAND_HZ} Hz {q(missed[:, 2])}")
        for t in THRESHOLDS:
            print(f"  at >= {t}: missed frames periodic at the truth below {LOW_BAND_HZ} Hz "
                  f"{int((missed[:, 2] >= t).sum())} (analysed band {int((missed[:, 0] >= t).sum())}); "
                  f"truth-unvoiced frames that periodic at any period below {LOW_BAND_HZ} Hz "
                  f"{int((unvoiced[:, 3] >= t).sum())} (analysed band {int((unvoiced[:, 1] >= t).sum())})")


if __name__ == "__main__":
    main()
