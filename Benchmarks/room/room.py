"""A simulated room: the backing track from a loudspeaker and the singer, both reaching one microphone.

Shoebox rooms from pyroomacoustics (image method, RT60 by inverse Sabine). The loudspeaker stands a
few metres from the mic; the singer 30 cm from it. Each impulse response is shifted so its direct
path lands on sample 0: the voice therefore stays aligned with the song (mic delay 0) and the
backing's delay is exactly the one we choose (5–30 ms, the playback + air latency of a real room).
"""
import functools

import numpy as np
from scipy.signal import fftconvolve

ROOM_DIM = [6.0, 4.5, 2.8]
MIC = [3.0, 2.0, 1.5]
SINGER = [3.3, 2.1, 1.55]
SPEAKER = [1.0, 3.8, 1.8]


@functools.lru_cache(maxsize=16)
def impulse_responses(rt60, rate):
    """(singer→mic, speaker→mic) impulse responses, each with its direct path at sample 0."""
    import pyroomacoustics as pra
    absorption, max_order = pra.inverse_sabine(rt60, ROOM_DIM)
    room = pra.ShoeBox(ROOM_DIM, fs=int(rate), materials=pra.Material(absorption),
                       max_order=min(max_order, 40), air_absorption=True)
    room.add_source(SINGER)
    room.add_source(SPEAKER)
    room.add_microphone(MIC)
    room.compute_rir()
    out = []
    for rir in (room.rir[0][0], room.rir[0][1]):
        rir = np.asarray(rir, dtype=np.float64)
        peak = int(np.argmax(np.abs(rir)))
        rir = rir[max(0, peak - 2):]
        out.append(rir / np.max(np.abs(rir)))
    return tuple(out)


def rms(x, mask=None):
    x = x if mask is None else x[mask]
    return float(np.sqrt(np.mean(x ** 2))) if len(x) else 0.0


def voice_in_room(voice, rt60, rate):
    """The singer's voice as the mic hears it: direct sound plus a little room reverb."""
    if not np.any(voice):
        return voice.copy()
    h, _ = impulse_responses(rt60, rate)
    return fftconvolve(voice, h)[: len(voice)]


def backing_in_room(backing, rt60, delay_s, rate, n):
    """The backing track from the loudspeaker at the mic, delayed by delay_s, n samples long."""
    _, h = impulse_responses(rt60, rate)
    y = fftconvolve(backing, h)
    d = int(round(delay_s * rate))
    out = np.zeros(n)
    m = min(n - d, len(y))
    if m > 0:
        out[d:d + m] = y[:m]
    return out


def mix(voice_at_mic, backing_at_mic, level_db, voice_rms, active, rng):
    """voice + backing at level_db relative to voice_rms (both over the sung spans), + mic noise.

    `active` marks the sung samples and `voice_rms` is the singer's level there; with no voice
    ("backing alone") the backing keeps the level it would have under the nominal singer.
    """
    out = voice_at_mic.copy()
    if backing_at_mic is not None:
        br = rms(backing_at_mic, active) or 1.0
        out += backing_at_mic * (voice_rms / br) * 10 ** (level_db / 20)
    out += rng.normal(0, 10 ** (-75 / 20), len(out))  # mic self-noise, −75 dBFS
    peak = np.max(np.abs(out))
    if peak > 0.9:
        out *= 0.9 / peak
    return out
