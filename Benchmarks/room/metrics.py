"""Running `karaoke score` / `karaoke pitch` and aubio on a recording, and the pitch-accuracy tallies.

Frame alignment, RPA/RCA/voicing conventions and the aubio set-up are Benchmarks/pitch/evaluate.py's
(imported, not copied): estimates are taken at the frame nearest each 10 ms ground-truth time; an
unvoiced estimate on a voiced truth frame counts as wrong.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pitch"))
from evaluate import Tally, on_grid, run_aubio  # noqa: E402,F401  (Benchmarks/pitch conventions)


def score_options(karaoke):
    """Which bleed-reference options this binary's `karaoke score` has."""
    text = subprocess.run([karaoke, "score", "--help"], capture_output=True, text=True).stdout
    return {"backing": "--backing" in text, "no_backing": "--no-backing" in text}


def score(karaoke, song_path, wav, difficulty, mic_delay_ms=0, extra=()):
    cmd = [karaoke, "score", song_path, wav, "--difficulty", difficulty, "--mic-delay", str(mic_delay_ms),
           "--json", *extra]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {res.stderr.strip()}")
    return json.loads(res.stdout)["total"]


def pitch_ours(karaoke, wav, backing=None):
    cmd = [karaoke, "pitch", wav, "--csv"] + (["--backing", backing] if backing else [])
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {res.stderr.strip()}")
    data = np.loadtxt(res.stdout.splitlines()[1:], delimiter=",", ndmin=2)
    return data[:, 0], data[:, 1]


def pitch_aubio(samples, rate):
    times, f0, _ = run_aubio(np.asarray(samples, dtype=np.float32), rate)
    return times, f0


def rpa(truth, est):
    t = Tally()
    t.add(truth, est)
    return t.row()[0] if t.v else float("nan")


def truth_check(dry, rate):
    """WORLD's own analyser (DIO + StoneMask) on the dry voice, before the room: how far a good
    tracker can agree with the imposed f0 at all (the ceiling the ground truth allows)."""
    import pyworld
    x = np.asarray(dry, dtype=np.float64)
    f0, t = pyworld.dio(x, rate, f0_floor=50.0, f0_ceil=1100.0, frame_period=10.0)
    return t, pyworld.stonemask(x, f0, t, rate)
