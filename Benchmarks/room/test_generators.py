"""Checks of the harness's own generators (not of the product):
    Benchmarks/out/room-venv/bin/python -m pytest -q Benchmarks/room
The ground truth must be what was sung, and the room must delay the backing by what it says."""
import os
import sys

import numpy as np
import pyworld
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import room  # noqa: E402
import voice  # noqa: E402

NOTES = [(0.5, 1.1, 57, "la"), (1.3, 1.9, 60, "mi"), (2.1, 2.7, 64, "ah")]  # A3, C4, E4 with rests
SECONDS = 3.2


@pytest.fixture(scope="module")
def sung():
    return voice.sing(NOTES, "en+f2", SECONDS, seed=3)


def test_truth_is_voiced_only_inside_the_notes_and_near_their_pitch(sung):
    _, truth = sung
    t = np.arange(len(truth)) * voice.HOP
    inside = np.zeros(len(truth), dtype=bool)
    for start, end, midi, _ in NOTES:
        span = (t >= start - 0.001) & (t < end)
        inside |= span
        f = truth[span & (truth > 0)]
        assert len(f) > 0.6 * span.sum(), "most of each note is voiced"
        cents = 1200 * np.log2(f / voice.midi_hz(midi))
        assert np.all(np.abs(cents) <= 80), f"note {midi}: truth within scoop + vibrato of the note"
    assert not np.any(truth[~inside] > 0), "no voiced truth outside the notes"


def test_what_was_synthesised_has_the_truths_pitch(sung):
    audio, truth = sung
    f0, t = pyworld.dio(audio, voice.RATE, f0_floor=80, f0_ceil=800, frame_period=10)
    f0 = pyworld.stonemask(audio, f0, t, voice.RATE)
    n = min(len(f0), len(truth))
    both = (truth[:n] > 0) & (f0[:n] > 0)
    cents = 1200 * np.log2(f0[:n][both] / truth[:n][both])
    assert both.sum() > 0.8 * (truth > 0).sum()
    assert np.mean(np.abs(cents) <= 50) > 0.95


def test_octave_down_halves_the_truth_exactly():
    _, at_pitch = voice.sing(NOTES, "en+m3", SECONDS, seed=5)
    _, down = voice.sing(NOTES, "en+m3", SECONDS, seed=5, shift_semitones=-12)
    assert np.array_equal(at_pitch > 0, down > 0)
    v = at_pitch > 0
    assert np.allclose(down[v] * 2, at_pitch[v])


def test_backing_arrives_with_the_chosen_delay():
    rate = voice.RATE
    click = np.zeros(rate)
    click[1000] = 1.0
    heard = room.backing_in_room(click, 0.5, 0.017, rate, len(click))
    assert int(np.argmax(np.abs(heard))) == pytest.approx(1000 + round(0.017 * rate), abs=3)
