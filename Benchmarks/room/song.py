"""A song's timeline as the product reads it (`karaoke show SONG --json`), and its backing track."""
import json
import os
import subprocess
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Song:
    key: str                      # short name used in file names and tables
    path: str
    title: str
    notes: list                   # [(start_s, end_s, midi, syllable text)] of part 1
    lines: list                   # [(start_s, end_s, line text)]
    backing_path: str | None
    seconds: float                # recording length: the last note + 2 s (or the backing's length)
    extra: dict = field(default_factory=dict)

    @property
    def median_hz(self):
        return float(440 * 2 ** ((np.median([n[2] for n in self.notes]) - 69) / 12))


def load(karaoke, key, path):
    res = subprocess.run([karaoke, "show", path, "--json"], capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"karaoke show {path}: {res.stderr.strip()}")
    d = json.loads(res.stdout)
    part = d["parts"][0]
    notes, lines = [], []
    for line in part["lines"]:
        lines.append((line["start"], line["end"], line["text"]))
        for s in line["syllables"]:
            if s.get("note"):
                notes.append((s["start"], s["end"], s["note"]["midi"], s["text"]))
    notes.sort()
    folder = os.path.dirname(os.path.abspath(d["source"] if os.path.isabs(d["source"]) else path))
    backing = os.path.join(folder, d["audio"]) if d.get("audio") else None
    if backing and not os.path.exists(backing):
        backing = None
    seconds = notes[-1][1] + 2.0
    if backing:
        import soundfile
        seconds = max(seconds, soundfile.info(backing).duration)
    return Song(key, path, d["title"], notes, lines, backing, seconds,
                {"bpm": d.get("bpm"), "gap_s": d.get("gapSeconds")})


def read_backing(song, rate):
    """The song's backing track, mono, at `rate`, padded/cut to the recording length."""
    import soundfile
    from scipy.signal import resample_poly
    x, r = soundfile.read(song.backing_path, dtype="float64", always_2d=True)
    x = x.mean(axis=1)
    if r != rate:
        g = np.gcd(int(r), int(rate))
        x = resample_poly(x, int(rate) // g, int(r) // g)
    n = int(song.seconds * rate)
    return np.pad(x, (0, max(0, n - len(x))))[:n]
