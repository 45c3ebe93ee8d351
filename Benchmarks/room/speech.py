"""Where a sung syllable's speech comes from: the speech engine and voice a singer condition names.

A voice is "ENGINE:NAME", or a plain espeak-ng voice name ("en+f2", "de": the harness's first
source, whose conditions, file names and audio are unchanged by this module). Every engine's speech
comes back the same way — float64 samples at RATE (22 050 Hz), leading and trailing silence trimmed
— so WORLD's analysis, the re-pitching onto the notes, the truth and the room (voice.py, harmonic.py,
room.py) do not know which engine spoke.

- espeak-ng: a formant synthesiser (rule-built spectra); 22 050 Hz already.
- flite (CMU Flite 2.2, Debian's `flite`): `flite:rms` (US male), `flite:slt` (US female), `flite:awb`
  (Scottish male) are statistical parametric (clustergen) voices trained on the CMU ARCTIC recordings
  of those speakers; `flite:kal16` / `flite:kal` are diphone voices, concatenated from one speaker's
  recorded diphones (16 / 8 kHz). Flite speaks at 16 kHz (kal: 8 kHz), resampled here to RATE, so
  nothing above 8 kHz (4 kHz) comes from the speaker: only WORLD's noise fills it.
- festival (`festival`'s text2wave): `festival:VOICE` with a festival voice name, e.g.
  `festival:cmu_us_slt_arctic_hts` (Debian's `festvox-us-slt-hts`, an HTS voice of ARCTIC slt).
"""
import functools
import io
import os
import subprocess
import tempfile
import warnings
from fractions import Fraction

import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly

RATE = 22_050            # the rate every engine's speech is returned at (espeak-ng's own)
ENGINES = ("espeak", "flite", "festival")


def engine(voice):
    """The engine a voice name belongs to ("espeak" for a plain name)."""
    head, sep, _ = voice.partition(":")
    return head if sep and head in ENGINES[1:] else "espeak"


def voice_name(voice):
    """The engine's own name for the voice ("rms" for "flite:rms", "en+f2" for "en+f2")."""
    return voice.partition(":")[2] if engine(voice) != "espeak" else voice


def trim(x):
    """Leading and trailing silence cut, 100 samples kept either side (espeak's own trimming)."""
    loud = np.flatnonzero(np.abs(x) > 0.01)
    if len(loud) == 0:
        return np.zeros(0)
    return x[max(0, loud[0] - 100):loud[-1] + 100]


def _read_wav(data):
    with warnings.catch_warnings():  # espeak's streamed header has no length
        warnings.simplefilter("ignore")
        rate, x = wavfile.read(io.BytesIO(data))
    if x.ndim > 1:
        x = x[:, 0]
    return rate, x.astype(np.float64) / 32768.0


def _to_rate(x, rate):
    if rate == RATE:
        return x
    r = Fraction(RATE, rate)
    return resample_poly(x, r.numerator, r.denominator)


@functools.lru_cache(maxsize=4096)
def espeak(text, voice, speed=150):
    """espeak-ng speaking `text` as float64 samples at 22 050 Hz, silence trimmed."""
    out = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
                         capture_output=True, check=True).stdout
    rate, x = _read_wav(out)
    assert rate == RATE, rate
    return trim(x)


def _via_file(cmd_for_path, stdin=None):
    """Run a synthesiser that writes a WAV file; its samples at RATE."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "say.wav")
        subprocess.run(cmd_for_path(path), input=stdin, capture_output=True, check=True)
        with open(path, "rb") as fh:
            rate, x = _read_wav(fh.read())
    return _to_rate(x, rate)


@functools.lru_cache(maxsize=4096)
def flite(text, voice, stretch=1.0):
    """flite speaking `text` with its voice (rms, slt, awb, kal16, kal), at RATE, silence trimmed.
    stretch > 1 speaks slower (flite's duration_stretch)."""
    return trim(_via_file(lambda path: ["flite", "-voice", voice, "--setf", f"duration_stretch={stretch}",
                                        "-t", text, "-o", path]))


@functools.lru_cache(maxsize=4096)
def festival(text, voice):
    """festival's text2wave speaking `text` with a festival voice, at RATE, silence trimmed."""
    return trim(_via_file(lambda path: ["text2wave", "-eval", f"(voice_{voice})", "-o", path],
                          stdin=text.encode()))


def say(text, voice):
    """`text` spoken by the engine and voice a condition names (see the module docstring)."""
    kind, name = engine(voice), voice_name(voice)
    if kind == "flite":
        return flite(text, name)
    if kind == "festival":
        return festival(text, name)
    return espeak(text, name)
