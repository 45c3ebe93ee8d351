"""A real voice re-pitched with the WORLD vocoder onto a song's notes, with ground truth.

Each note's syllable is spoken by the condition's speech engine (espeak-ng, or flite / festival:
speech.py), analysed with WORLD (DIO + StoneMask, CheapTrick,
D4C), time-stretched to the note by resampling WORLD frames (the voiced nucleus is stretched, the
consonants keep their natural length: a leading consonant goes just before the note as singers do),
given the note's f0 with natural vibrato and jitter, and resynthesised. Consonants, breath noise and
formants are the speech engine's own; only f0 and timing are imposed. Melisma syllables ("~", empty) continue the
previous syllable's vowel.

Ground truth: one value per 10 ms frame at t = k × 10 ms; the imposed f0 there, 0 where WORLD called
the frame unvoiced (DIO found no period, or D4C found it aperiodic) or no note sounds.
"""
import functools
import re

import numpy as np
import pyworld
from scipy.signal import resample_poly

import harmonic
import speech
from speech import espeak  # noqa: F401  (the talker speaks with espeak-ng)

SPEECH_RATE = speech.RATE  # the speech, its WORLD analysis and the synthesis (espeak-ng's 22 050 Hz)
RATE = 44_100            # output rate (the demo backing track's rate)
FRAME_MS = 5.0           # WORLD frame period
HOP = 0.010              # ground-truth frame hop
LEAD_MAX = 0.12          # a leading consonant longer than this is squeezed
TAIL_SHARE = 0.25        # a trailing consonant gets at most this share of the note


def midi_hz(m):
    return 440.0 * 2 ** ((np.asarray(m, dtype=float) - 69) / 12)


@functools.lru_cache(maxsize=4096)
def analyse(text, voice):
    """WORLD parameters of the spoken syllable: (voiced mask, spectral envelope, aperiodicity).
    voice: an espeak-ng voice, or "ENGINE:NAME" for another speech engine (speech.py)."""
    x = speech.say(text, voice)
    if len(x) < SPEECH_RATE * 0.03:
        return None
    f0, t = pyworld.dio(x, SPEECH_RATE, f0_floor=60.0, f0_ceil=500.0, frame_period=FRAME_MS)
    f0 = pyworld.stonemask(x, f0, t, SPEECH_RATE)
    sp = pyworld.cheaptrick(x, f0, t, SPEECH_RATE)
    ap = pyworld.d4c(x, f0, t, SPEECH_RATE)
    voiced = f0 > 0
    if voiced.sum() < 3:
        return None
    return voiced, sp, ap


def aperiodic_as_unvoiced(voiced, ap):
    """The voiced mask without the frames D4C judged unvoiced: DIO found a period there, but D4C's own
    voicing test failed and set the aperiodicity to 1 in every band, so WORLD (and harmonic.py) render
    them as noise only. Called voiced, they were 5 % of espeak's DIO-voiced frames (the harmonic power
    there is 1e-12 of the noise's): a truth no tracker could or should meet. The nucleus (v0, v1) and
    the time-stretch still follow DIO's voicing, so the timing is unchanged and the audio nearly so
    (these frames were noise already)."""
    return voiced & ~np.all(ap > 0.999, axis=1)


def syllable_text(text):
    """What espeak should say for a note's syllable ('' for a melisma continuation)."""
    t = re.sub(r"[~\-_*#\"“”„.,!?;:()\[\]]", "", text).strip()
    return t if re.search(r"\w", t) else ""


def frame_map(n_in, v0, v1, lead, n_out):
    """Input frame position for each output frame: lead consonant 1:1, nucleus stretched, tail 1:1."""
    tail_in = n_in - v1
    tail = min(tail_in, int((n_out - lead) * TAIL_SHARE))  # a share of the note, so the nucleus keeps ≥ 75 %
    body = max(1, n_out - lead - tail)
    head = np.linspace(v0 - lead, v0, lead, endpoint=False) if lead else np.zeros(0)
    mid = np.linspace(v0, v1 - 1, body)
    end = np.linspace(v1, n_in - 1, tail) if tail else np.zeros(0)
    return np.concatenate([head, mid, end])


def interp_frames(arr, pos):
    lo = np.clip(np.floor(pos).astype(int), 0, len(arr) - 1)
    hi = np.clip(lo + 1, 0, len(arr) - 1)
    w = (pos - np.floor(pos))[:, None]
    return arr[lo] * (1 - w) + arr[hi] * w


def sing(timeline_notes, voice, seconds, shift_semitones=0.0, seed=0, cents_offset=0.0, synth="world"):
    """The whole song sung: (samples at RATE, truth f0 per 10 ms frame).

    timeline_notes: [(start_s, end_s, midi, text)] sorted by start.
    shift_semitones: whole transposition (−12 = an octave down); cents_offset: a steady detuning.
    synth: "world" (WORLD's vocoder) or "harmonic" (harmonics locked to the imposed f0, harmonic.py).
    """
    rng = np.random.default_rng(seed)
    fp = FRAME_MS / 1000
    n_frames = int(seconds / fp) + 1
    n = int(seconds * SPEECH_RATE)
    out = np.zeros(n + SPEECH_RATE)
    truth5 = np.zeros(n_frames)
    prev_end, prev_params = 0.0, None
    for i, (start, end, midi, text) in enumerate(timeline_notes):
        if start >= seconds:
            break
        word = syllable_text(text)
        params = analyse(word, voice) if word else None
        if params is None and prev_params is not None:
            # a melisma (or an unspeakable syllable): continue the previous vowel, no consonants
            voiced, sp, ap = prev_params
            idx = np.flatnonzero(voiced)
            mid = idx[len(idx) // 3: max(len(idx) // 3 + 1, 2 * len(idx) // 3)]
            params = (voiced[mid], sp[mid], ap[mid])
        if params is None:
            continue
        voiced, sp, ap = params
        vidx = np.flatnonzero(voiced)
        v0, v1 = int(vidx[0]), int(vidx[-1]) + 1
        note_frames = max(2, int(round((end - start) / fp)))
        room = max(0.0, start - prev_end)
        lead = min(v0, int(min(LEAD_MAX, room) / fp))
        total = lead + note_frames
        pos = frame_map(len(voiced), v0, v1, lead, total)
        sp_o = np.exp(interp_frames(np.log(sp + 1e-16), pos))
        ap_o = np.clip(interp_frames(ap, pos), 0.0, 1.0)
        nearest = np.clip(np.round(pos).astype(int), 0, len(voiced) - 1)
        vo = aperiodic_as_unvoiced(voiced, ap)[nearest]
        # the note's f0: target pitch, a short scoop in, vibrato after 250 ms, slow jitter
        t = (np.arange(total) - lead) * fp
        cents = np.full(total, 100.0 * shift_semitones + cents_offset)
        scoop = float(rng.uniform(-60, -20))
        cents += scoop * np.exp(-np.maximum(t, 0) / 0.04)
        depth = float(rng.uniform(15, 35))
        rate = float(rng.uniform(5.0, 6.2))
        onset = np.clip((t - 0.25) / 0.2, 0, 1)
        cents += depth * onset * np.sin(2 * np.pi * rate * t + rng.uniform(0, 2 * np.pi))
        walk = np.cumsum(rng.normal(0, 1.0, total))
        walk -= np.linspace(0, walk[-1], total)
        cents += np.clip(walk, -8, 8)
        f0 = midi_hz(midi) * 2 ** (cents / 1200)
        f0_o = np.where(vo, f0, 0.0)
        render = harmonic.synthesize if synth == "harmonic" else pyworld.synthesize
        y = render(np.ascontiguousarray(f0_o), np.ascontiguousarray(sp_o),
                   np.ascontiguousarray(ap_o), SPEECH_RATE, FRAME_MS)
        first = int(round(start / fp)) - lead
        if first < 0:  # a lead-in before the recording starts is cut off
            y, f0_o, first = y[int(round(-first * fp * SPEECH_RATE)):], f0_o[-first:], 0
        a = int(round(first * fp * SPEECH_RATE))
        fade = np.ones(len(y))
        k = min(len(y) // 4, int(0.01 * SPEECH_RATE))
        if k:
            fade[:k] = np.linspace(0, 1, k)
            fade[-k:] = np.linspace(1, 0, k)
        b = min(len(out), a + len(y))
        out[a:b] += (y * fade)[:b - a]
        fb = min(n_frames, first + len(f0_o))
        if fb > first:
            seg = truth5[first:fb]
            new = f0_o[:fb - first]
            truth5[first:fb] = np.where(new > 0, new, seg)
        prev_end, prev_params = end, (voiced, sp, ap)
    out = out[:n]
    peak = np.max(np.abs(out)) or 1.0
    out = resample_poly(out / peak * 0.5, RATE // SPEECH_RATE, 1)[: int(seconds * RATE)]
    truth = truth5[::int(round(HOP / fp))]
    return out, truth


def speak_lines(lines, voice, seconds):
    """A talker reading each line at natural speech pitch within the line's time (espeak plain)."""
    n = int(seconds * SPEECH_RATE)
    out = np.zeros(n)
    for start, end, text in lines:
        if start >= seconds or not text.strip():
            continue
        speed = 150
        x = espeak(text.strip(), voice, speed)
        span = max(0.3, end - start)
        if len(x) / SPEECH_RATE > span:
            speed = int(min(450, speed * len(x) / SPEECH_RATE / span))
            x = espeak(text.strip(), voice, speed)
        a = int(start * SPEECH_RATE)
        b = min(n, a + len(x))
        out[a:b] += x[:b - a]
    peak = np.max(np.abs(out)) or 1.0
    return resample_poly(out / peak * 0.5, RATE // SPEECH_RATE, 1)[: int(seconds * RATE)]


def choir(timeline_notes, voices, seconds, shift_semitones=0.0, seed=0, spread_cents=12.0, synth="world"):
    """A unison section: every voice in `voices` sings the song, each with its own steady detuning
    (normal, σ = spread_cents), scoop, vibrato and jitter: the chorus a choir or a crowd makes, whose
    longer lags decorrelate faster than one voice's. Truth: where at least half the voices are
    voiced, the geometric mean of their f0 (each voice is within tens of cents of it); else 0."""
    rng = np.random.default_rng(seed)
    mix, truths = None, []
    for i, v in enumerate(voices):
        detune = float(rng.normal(0.0, spread_cents))
        audio, truth = sing(timeline_notes, v, seconds, shift_semitones=shift_semitones,
                            seed=seed * 100 + i, cents_offset=detune, synth=synth)
        mix = audio if mix is None else mix[:len(audio)] + audio[:len(mix)]
        truths.append(truth)
    n = min(len(t) for t in truths)
    stack = np.stack([t[:n] for t in truths])
    voiced = stack > 0
    majority = voiced.sum(axis=0) * 2 >= len(voices)
    logs = np.where(voiced, np.log(np.where(voiced, stack, 1.0)), 0.0)
    mean = np.exp(logs.sum(axis=0) / np.maximum(1, voiced.sum(axis=0)))
    peak = np.max(np.abs(mix)) or 1.0
    return mix / peak * 0.5, np.where(majority, mean, 0.0)
