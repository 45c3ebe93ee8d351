"""ceiling.py's tone is the truth: its pitch where the truth is voiced, silence where it is not."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import ceiling  # noqa: E402


def test_the_tone_follows_the_truth_and_is_silent_where_it_is_unvoiced(tmp_path):
    truth = tmp_path / "clip-truth.csv"
    t = np.arange(0, 1.0, 0.01)
    f0 = np.where((t >= 0.2) & (t < 0.6), np.where(t < 0.4, 220.0, 330.0), 0.0)
    np.savetxt(truth, np.column_stack([t, f0]), delimiter=",", header="time_s,f0_hz", comments="", fmt="%.4f")
    tone = ceiling.truth_tone(str(truth))
    rate = ceiling.RATE

    def frequency(start, end):
        seg = tone[int(start * rate):int(end * rate)]
        crossings = np.sum((seg[:-1] < 0) & (seg[1:] >= 0))
        return crossings / (end - start)

    assert np.max(np.abs(tone[:int(0.18 * rate)])) == 0
    assert np.max(np.abs(tone[int(0.62 * rate):])) == 0
    assert abs(frequency(0.22, 0.38) - 220) < 10
    assert abs(frequency(0.42, 0.58) - 330) < 10
