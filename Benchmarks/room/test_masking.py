"""masking.py measures what it says: a vowel under a louder fricative's noise is periodic only
below 1.5 kHz, and a plain vowel is periodic in both bands."""
import os
import sys

import numpy as np
import soundfile as sf
from scipy.signal import butter, sosfilt

sys.path.insert(0, os.path.dirname(__file__))
import masking  # noqa: E402

RATE = 44_100
F0 = 588.0


def vowel(seconds=0.3):
    t = np.arange(int(seconds * RATE)) / RATE
    return sum(0.1 / k * np.sin(2 * np.pi * k * F0 * t) for k in (1, 2))


def fricative(seconds=0.3, level=10.0):
    noise = np.random.default_rng(1).normal(0, 1, int(seconds * RATE))
    return level * 0.1 * sosfilt(butter(4, [2000, 4000], btype="band", fs=RATE, output="sos"), noise)


def periodicity_at_f0(tmp_path, signal):
    path = tmp_path / "clip.wav"
    sf.write(path, signal.astype(np.float32) * 0.2, RATE)
    band, low, rate = masking.analysed(str(path))
    p = masking.Periodicity(rate)
    lag = rate / F0
    at = lambda s: float(p.at(s, len(s) // 2)[int(lag * 0.97):int(np.ceil(lag * 1.03)) + 1].max())
    return at(band), at(low)


def test_a_plain_vowel_is_periodic_in_both_bands(tmp_path):
    band, low = periodicity_at_f0(tmp_path, vowel())
    assert band > 0.9 and low > 0.9


def test_a_vowel_under_a_louder_fricative_is_periodic_only_below_the_fricative(tmp_path):
    band, low = periodicity_at_f0(tmp_path, vowel() + fricative())
    assert band < 0.5, band
    assert low > 0.8, low
