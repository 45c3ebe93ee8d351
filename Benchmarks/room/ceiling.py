"""What a perfect detector would score on a recording: a pure tone that follows the harness's truth
f0 (voiced where the truth is voiced, silent elsewhere), scored beside the recording itself
(docs/room-evaluation.md, "Unseen voices (flite, festival)"). The gap between the two is the
detector's and the scorer's share of a clip's loss; the ceiling's own loss is the singer's
(consonants, breath, vowels the vocoder renders as noise).

    Benchmarks/out/room-venv/bin/python Benchmarks/room/ceiling.py --karaoke BIN SONG REC.wav …

Each REC.wav needs the harness's REC-truth.csv beside it. Both are scored with
`karaoke score SONG FILE --mic-delay 0 --no-backing` on medium.
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

RATE = 22050


def truth_tone(truth_csv):
    """A sine at the truth's f0 on its voiced frames (−10 dBFS), silence elsewhere."""
    t, f0 = np.loadtxt(truth_csv, delimiter=",", skiprows=1, unpack=True, ndmin=2)
    n = int((t[-1] + 0.5) * RATE)
    times = np.arange(n) / RATE
    voiced = np.interp(times, t, (f0 > 0).astype(float)) > 0.5
    f = np.where(voiced, np.interp(times, t[f0 > 0], f0[f0 > 0]), 0.0)
    return (0.3 * np.sin(np.cumsum(2 * np.pi * f / RATE)) * voiced).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("song")
    ap.add_argument("recordings", nargs="+")
    a = ap.parse_args()
    print("| recording | ceiling (truth f0 as a tone) | the recording |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for wav in a.recordings:
            tone = os.path.join(tmp, "tone.wav")
            sf.write(tone, truth_tone(wav[:-4] + "-truth.csv"), RATE)
            ceiling = metrics.score(a.karaoke, a.song, tone, "medium", extra=["--no-backing"])
            ours = metrics.score(a.karaoke, a.song, wav, "medium", extra=["--no-backing"])
            print(f"| {os.path.basename(wav)} | {ceiling} | {ours} |", flush=True)


if __name__ == "__main__":
    main()
