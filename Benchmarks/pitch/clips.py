"""Synthetic singing clips with exact per-frame pitch ground truth.

Voice: a harmonic source (−6 dB/octave tilt) shaped by a vowel formant envelope, phrases of
notes with legato glides, ±50 cent vibrato at 5–6 Hz, attack/release ramps, breath-noise
bursts in some rests (unvoiced) and silences. Ranges from E2 to C6.
Conditions: clean, a synthetic backing track (bass, chords, hi-hat) mixed at −6 and −12 dB
relative to the voice and delayed by 40 ms plus a low-pass "room" as it would reach a
microphone, and white/pink noise at 20 and 10 dB SNR.

Ground truth: frame k is at t = k × 10 ms (the centre of the analysis window); f0 is the
instantaneous synthesised fundamental at that instant, 0 when no note sounds.
"""
import numpy as np
from scipy.io import wavfile
from scipy.signal import lfilter, butter

RATE = 48_000
HOP = 0.010
VOWELS = {  # formant centre frequencies and bandwidths (Hz)
    "a": [(800, 80), (1150, 90), (2900, 120)],
    "e": [(400, 60), (1700, 100), (2600, 120)],
    "i": [(270, 60), (2300, 100), (3000, 120)],
    "o": [(450, 70), (800, 80), (2830, 100)],
    "u": [(325, 50), (700, 60), (2530, 170)],
}
VOICES = {  # name: MIDI range
    "bass": (40, 55), "baritone": (45, 62), "tenor": (48, 67),
    "alto": (53, 72), "mezzo": (57, 77), "soprano": (62, 84),
}


def midi_hz(m):
    return 440.0 * 2 ** ((np.asarray(m, dtype=float) - 69) / 12)


def score_for(voice, rng, seconds=12.0):
    """A list of phrases; each phrase is a list of (midi, duration, vowel)."""
    lo, hi = VOICES[voice]
    t, phrases = 0.3, []
    while t < seconds - 1.5:  # a phrase running past the end is cut off there
        notes = []
        m = rng.integers(lo, hi + 1)
        for _ in range(rng.integers(2, 6)):
            dur = float(rng.uniform(0.3, 1.1))
            notes.append((int(m), dur, rng.choice(list(VOWELS))))
            t += dur
            step = rng.choice([-12, -7, -5, -3, -2, -1, 1, 2, 3, 4, 5, 7, 12], p=[.03, .06, .1, .1, .14, .07, .07, .14, .1, .05, .06, .05, .03])
            m = int(np.clip(m + step, lo, hi))
        rest = float(rng.uniform(0.25, 0.7))
        phrases.append((notes, rest))
        t += rest
    return phrases


def formant_gain(freqs, vowel):
    g = np.full_like(freqs, 0.05)
    for centre, bw in VOWELS[vowel]:
        g += 1.0 / np.sqrt(1 + ((freqs - centre) / (bw / 2)) ** 2)
    return g


def synth_voice(voice, seed, rate=RATE, seconds=12.0):
    rng = np.random.default_rng(seed)
    phrases = score_for(voice, rng, seconds)
    n = int(seconds * rate)
    f0 = np.zeros(n)
    amp = np.zeros(n)
    vowel_at = np.empty(n, dtype=object)
    vowel_at[:] = "a"
    breath = np.zeros(n)
    t = 0.3
    for notes, rest in phrases:
        start = t
        for i, (m, dur, vowel) in enumerate(notes):
            a, b = int(t * rate), min(n, int((t + dur) * rate))
            if b <= a:
                break
            tt = (np.arange(a, b) - a) / rate
            target = midi_hz(m)
            curve = np.full(b - a, float(m))
            if i > 0:  # legato glide from the previous note
                prev = notes[i - 1][0]
                g = float(rng.uniform(0.06, 0.15))
                k = tt < g
                curve[k] = prev + (m - prev) * (0.5 - 0.5 * np.cos(np.pi * tt[k] / g))
            if dur > 0.4:  # vibrato ±50 cents at 5–6 Hz with a 100 ms fade-in
                rate_hz = float(rng.uniform(5, 6))
                onset = 0.15
                depth = 0.5 * np.clip((tt - onset) / 0.1, 0, 1)
                curve += depth * np.sin(2 * np.pi * rate_hz * np.maximum(tt - onset, 0))
            f0[a:b] = midi_hz(curve)
            vowel_at[a:b] = vowel
            t += dur
        a, b = int(start * rate), min(n, int(t * rate))
        env = np.ones(b - a)
        r = int(0.02 * rate)
        env[:r] = np.linspace(0, 1, r)
        env[-r:] = np.linspace(1, 0, r)
        amp[a:b] = env * float(rng.uniform(0.6, 1.0))
        if rng.random() < 0.6:  # a breath in the rest
            ba = int((t + 0.05) * rate)
            bb = min(n, ba + int(rng.uniform(0.15, 0.3) * rate))
            if bb > ba:
                breath[ba:bb] = np.hanning(bb - ba)
        t += rest
    # harmonic synthesis with per-sample formant weights
    phase = 2 * np.pi * np.cumsum(f0) / rate
    sig = np.zeros(n)
    nyq = min(rate / 2, 8000)
    kmax = int(nyq / max(60.0, f0[f0 > 0].min())) + 1
    vowels = np.array([v for v in vowel_at])
    for k in range(1, kmax + 1):
        fk = k * f0
        live = (fk > 0) & (fk < nyq)
        if not live.any():
            continue
        g = np.zeros(n)
        for v in VOWELS:
            sel = live & (vowels == v)
            g[sel] = formant_gain(fk[sel], v)
        sig += g / k * np.sin(k * phase + 0.3 * k * k)
    sig *= amp
    # breath noise: band-passed white noise, about 25 dB under the voice
    bb, ab = butter(2, [600 / (rate / 2), 5000 / (rate / 2)], btype="band")
    noise = lfilter(bb, ab, rng.standard_normal(n)) * breath
    voiced_rms = np.sqrt(np.mean(sig[amp > 0.3] ** 2))
    noise *= voiced_rms * 10 ** (-25 / 20) / max(1e-9, np.sqrt(np.mean(noise[breath > 0.3] ** 2)))
    sig = sig + noise
    sig *= 0.4 / np.max(np.abs(sig))
    frames = np.arange(0, seconds, HOP)
    idx = np.minimum((frames * rate).round().astype(int), n - 1)
    truth = np.where(amp[idx] > 0, f0[idx], 0.0)
    return sig.astype(np.float32), frames, truth, voiced_rms_of(sig, amp)


def voiced_rms_of(sig, amp):
    return float(np.sqrt(np.mean(sig[amp > 0.3] ** 2)))


def synth_backing(seed, rate=RATE, seconds=12.0):
    """Bass + retriggered triads (plucked harmonic tones) + hi-hat, 120 bpm."""
    rng = np.random.default_rng(seed + 1000)
    n = int(seconds * rate)
    out = np.zeros(n)
    roots = [48, 53, 55, 50, 45, 52]
    beat = 0.5
    t = 0.0
    while t < seconds:
        root = int(rng.choice(roots))
        chord = [root + 12, root + 16 if rng.random() < .5 else root + 15, root + 19]
        for j in range(4):  # one bar of four beats
            a = int((t + j * beat) * rate)
            b = min(n, a + int(beat * rate))
            if a >= n:
                break
            tt = np.arange(b - a) / rate
            for m, level in [(root - 12, 1.0)] + [(c, 0.5) for c in chord]:
                f = midi_hz(m)
                tone = sum(np.sin(2 * np.pi * k * f * tt) / k for k in range(1, 9) if k * f < 8000)
                out[a:b] += level * tone * np.exp(-tt * 4)
            h = min(b - a, int(0.04 * rate))
            out[a:a + h] += 0.3 * rng.standard_normal(h) * np.exp(-np.arange(h) / (0.01 * rate))
        t += 4 * beat
    return (out / np.max(np.abs(out)) * 0.5).astype(np.float32)


def pink(n, rng):
    white = rng.standard_normal(n)
    # Paul Kellet's economy pink filter
    b = [0.049922035, -0.095993537, 0.050612699, -0.004408786]
    a = [1, -2.494956002, 2.017265875, -0.522189400]
    return lfilter(b, a, white)


def mixtures(voice_sig, voiced_rms, backing, seed, rate=RATE):
    """Yields (condition, mic signal, backing file signal or None)."""
    rng = np.random.default_rng(seed + 2000)
    yield "clean", voice_sig, None
    delay = int(0.040 * rate)
    room_b, room_a = butter(1, 6000 / (rate / 2))
    bled = np.concatenate([np.zeros(delay), backing[:-delay]])
    bled = lfilter(room_b, room_a, bled)
    brms = np.sqrt(np.mean(bled ** 2))
    for db in (-6, -12):
        g = voiced_rms * 10 ** (db / 20) / brms
        yield f"backing{db}", voice_sig + g * bled, backing
    for kind in ("white", "pink"):
        noise = rng.standard_normal(len(voice_sig)) if kind == "white" else pink(len(voice_sig), rng)
        noise /= np.sqrt(np.mean(noise ** 2))
        for snr in (20, 10):
            yield f"{kind}{snr}dB", voice_sig + noise * voiced_rms * 10 ** (-snr / 20), None


def write_wav(path, sig, rate=RATE):
    peak = np.max(np.abs(sig))
    if peak > 0.99:
        sig = sig * (0.99 / peak)
    wavfile.write(path, rate, np.asarray(sig, dtype=np.float32))


BLEED_LEVELS_DB = (-20, -12, -6, 0)


def room_path(seed, rate=RATE):
    """A loudspeaker → microphone path: a shoebox room simulated by pyroomacoustics (image
    source method plus ray tracing) with a seeded RT60 of about 0.3–0.8 s (as measured on the response), the speaker 1.5–4 m from
    the microphone, plus a seeded device delay so the total delay is 5–30 ms.
    Returns (impulse response, total delay s, RT60 s)."""
    import pyroomacoustics as pra
    rng = np.random.default_rng(seed + 3000)
    rt60 = float(rng.uniform(0.22, 0.55))  # ISM tails run long: measured 0.3–0.8 s
    dims = [float(rng.uniform(4, 8)), float(rng.uniform(3.5, 6)), float(rng.uniform(2.5, 3.2))]
    absorption, max_order = pra.inverse_sabine(rt60, dims)
    # Plain image sources: pyroomacoustics' randomised variant draws from numpy's global
    # generator, which made the rooms differ from run to run.
    room = pra.ShoeBox(dims, fs=rate, materials=pra.Material(absorption), max_order=max_order)
    mic = np.array([dims[0] * 0.5, dims[1] * 0.4, 1.5])
    distance = float(rng.uniform(1.5, 4.0))
    angle = float(rng.uniform(0, 2 * np.pi))
    spk = mic + np.array([distance * np.cos(angle), distance * np.sin(angle), 0.3])
    spk[:2] = np.clip(spk[:2], 0.3, np.array(dims[:2]) - 0.3)
    room.add_source(spk.tolist())
    room.add_microphone(mic.tolist())
    room.compute_rir()
    rir = np.asarray(room.rir[0][0], dtype=float)
    acoustic = int(np.argmax(np.abs(rir)))
    total = float(rng.uniform(max(0.005, acoustic / rate), 0.030))
    device = max(0, int(total * rate) - acoustic)
    rir = np.concatenate([np.zeros(device), rir])
    return rir / np.max(np.abs(rir)), (device + acoustic) / rate, rt60


def bleed_mixtures(voice_sig, voiced_rms, backing, seed, rate=RATE):
    """Yields (condition, mic signal, backing file signal): the backing through a reverberant
    room path (`room_path`) at each of `BLEED_LEVELS_DB` relative to the voice, and the same
    room bleed with no singer at all (`room-only`, −6 dB of the singer's level)."""
    from scipy.signal import fftconvolve
    rir, _, _ = room_path(seed, rate)
    bled = fftconvolve(backing, rir)[:len(backing)]
    brms = np.sqrt(np.mean(bled ** 2))
    for db in BLEED_LEVELS_DB:
        g = voiced_rms * 10 ** (db / 20) / brms
        yield f"room{db:+d}", voice_sig + g * bled, backing
    g = voiced_rms * 10 ** (-6 / 20) / brms
    yield "room-only-6", g * bled, backing
