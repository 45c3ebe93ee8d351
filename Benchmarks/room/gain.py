"""The same recording scored at several microphone gains (docs/scoring.md, "Mic gain"): a fair
score should not follow the gain while the detector still hears the voice.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/gain.py --karaoke BIN SONG REC.wav … [--gains 0,-10,-20]

Each recording is scaled by each gain (dB), written to a temporary file and scored with
`karaoke score SONG FILE --mic-delay 0 --no-backing` on medium.
"""
import argparse
import os
import sys
import tempfile

import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--gains", default="0,-10,-20", help="dB, comma separated")
    ap.add_argument("song")
    ap.add_argument("recordings", nargs="+")
    a = ap.parse_args()
    gains = [float(g) for g in a.gains.split(",")]
    print("| recording | " + " | ".join(f"{g:+.0f} dB" for g in gains) + " |")
    print("|---|" + "---|" * len(gains))
    with tempfile.TemporaryDirectory() as tmp:
        for wav in a.recordings:
            x, rate = sf.read(wav, dtype="float32")
            totals = []
            for g in gains:
                path = os.path.join(tmp, "scaled.wav")
                sf.write(path, x * 10 ** (g / 20), rate)
                totals.append(metrics.score(a.karaoke, a.song, path, "medium", extra=["--no-backing"]))
            print(f"| {os.path.basename(wav)} | " + " | ".join(str(t) for t in totals) + " |", flush=True)


if __name__ == "__main__":
    main()
