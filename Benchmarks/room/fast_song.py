"""The fast song's smallest case (issue 38, item 3): Space Invaders (48 ms beats), a singer at pitch and
the same singer one octave down, scored and read frame by frame.

    Benchmarks/out/room-venv/bin/python Benchmarks/room/fast_song.py --karaoke BIN
        [--voices en+f2,flite:rms] [--synth world,harmonic] [--gain DB] [--octaves 1]

Each voice is recorded exactly as the harness records its rows (`conditions.record`, the same seeds, the
same cache in Benchmarks/out/room/invaders), so a figure here is the harness's figure for that row.
`--gain DB` scales the recording before it is scored and read (a quieter microphone).
Per clip: the medium score (`--mic-delay 0`, no backing), our RPA against the truth, and the missed
truth-voiced frames by class (unvoiced at a note's first 50 ms / inside / last 50 ms, octave, ×3 or ÷3
and other small ratios, semitone, other; `misses.classify_pitch`), then the difference between the two
singers' scores.
`--realvoice`: instead, the real low male singer of ../shared/realvoice (vocadito_1, annotated f0 on a
5.8 ms grid; our frames taken at the nearest annotation time) as recorded and 12 dB louder: RPA, RCA,
voicing recall and false alarm (Benchmarks/pitch conventions). A change for the fast song must not
lose RPA there.
"""
import argparse
import math
import os
import sys
import tempfile

import numpy as np
import soundfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conditions  # noqa: E402
import room  # noqa: E402
import harness  # noqa: E402
import metrics  # noqa: E402
import misses  # noqa: E402
import song as songs  # noqa: E402

# The harness's seeds for these voices (conditions.py: en+f2 seed+1, en+f4 seed+4, flite seed+21+i), seed 11.
SEEDS = {"en+f2": 12, "en+f4": 15, "flite:rms": 32, "flite:slt": 33, "flite:awb": 34,
         "festival:cmu_us_slt_arctic_hts": 32}


def classes(truth, est, notes):
    starts = np.array([n[0] for n in notes])
    out = {}
    for k in np.flatnonzero(truth > 0):
        if est[k] > 0:
            cents = 1200 * math.log2(est[k] / truth[k])
            if abs(cents) <= 50:
                continue
            c = misses.classify_pitch(cents)
        else:
            start, end = notes[misses.note_of(notes, starts, k * 0.01)][:2]
            c = "unvoiced start" if k * 0.01 < start + misses.EDGE else (
                "unvoiced end" if k * 0.01 >= end - misses.EDGE else "unvoiced inside")
        out[c] = out.get(c, 0) + 1
    return out


FORMANTS = {  # vowel formants (Hz, bandwidth), as Benchmarks/pitch/clips.py's
    "a": [(800, 80), (1150, 90), (2900, 120)], "e": [(400, 60), (1700, 100), (2600, 120)],
    "i": [(270, 60), (2300, 100), (3000, 120)], "o": [(450, 70), (800, 80), (2830, 100)],
    "u": [(325, 50), (700, 60), (2530, 170)]}


def formant_singer(song, octaves_down, seed, attack=0.03, path=None):
    """A singer independent of espeak-ng and WORLD: each note a harmonic source (−6 dB/octave) through its
    syllable's vowel formants (the first of a/e/i/o/u/y in the text, else "a"), with an `attack` and a 30 ms
    release, a 1–3 % jitter-free pitch, vibrato ±30 cents at 5.5 Hz on notes over 0.3 s; sung in the
    harness's singer room (RT60 0.3 s, 30 cm), RMS 0.1 over the notes, mic noise −75 dBFS. Truth: the
    synthesised f0 where the note sounds (its envelope above zero)."""
    rate, hop = conditions.RATE, 0.01
    n = int(song.seconds * rate)
    f0 = np.zeros(n)
    amp = np.zeros(n)
    vowel = np.full(n, "a", dtype="<U1")
    for start, end, midi, text in song.notes:
        a, b = int(start * rate), min(n, int(end * rate))
        if b <= a:
            continue
        tt = np.arange(b - a) / rate
        curve = np.full(b - a, float(midi - 12 * octaves_down))
        if end - start > 0.3:
            curve += 0.3 * np.clip((tt - 0.15) / 0.1, 0, 1) * np.sin(2 * np.pi * 5.5 * np.maximum(tt - 0.15, 0))
        f0[a:b] = 440 * 2 ** ((curve - 69) / 12)
        env = np.ones(b - a)
        ra, rr = min(int(attack * rate), (b - a) // 2), min(int(0.03 * rate), (b - a) // 2)
        if ra:
            env[:ra] = 0.5 - 0.5 * np.cos(np.pi * np.arange(ra) / ra)
        if rr:
            env[-rr:] = np.minimum(env[-rr:], 0.5 + 0.5 * np.cos(np.pi * np.arange(rr) / rr))
        amp[a:b] = env
        v = next((c for c in text.lower() if c in "aeiouy"), "a")
        vowel[a:b] = "i" if v == "y" else v
    phase = 2 * np.pi * np.cumsum(f0) / rate
    sig = np.zeros(n)
    for k in range(1, int(8000 / max(60.0, f0[f0 > 0].min())) + 2):
        fk = k * f0
        live = (fk > 0) & (fk < 8000)
        if not live.any():
            continue
        g = np.zeros(n)
        for v, formants in FORMANTS.items():
            sel = live & (vowel == v)
            g[sel] = 0.05 + sum(1 / np.sqrt(1 + ((fk[sel] - c) / (bw / 2)) ** 2) for c, bw in formants)
        sig += g / k * np.sin(k * phase + 0.3 * k * k)
    sig *= amp
    wet = room.voice_in_room(sig, conditions.VOICE_RT60, rate)
    active = amp > 0
    wet *= 0.1 / (room.rms(wet, active) or 0.1)
    mic = room.mix(wet, None, 0.0, 0.1, active, np.random.default_rng(seed + 1000))
    frames = int(song.seconds / hop) + 1
    idx = np.minimum((np.arange(frames) * hop * rate).round().astype(int), n - 1)
    truth = np.where(amp[idx] > 0, f0[idx], 0.0)
    soundfile.write(path, mic, rate, subtype="PCM_16")
    return path, truth


REALVOICE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                                          "realvoice", "annotated", "vocadito_1"))


def realvoice(karaoke):
    ref = np.loadtxt(REALVOICE + ".f0.csv", delimiter=",", skiprows=1, ndmin=2)
    x, rate = soundfile.read(REALVOICE + ".wav", dtype="float32")
    print("| vocadito_1 | RPA | RCA | recall | false alarm |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for gain in (0, 12):
            wav = os.path.join(tmp, "v.wav")
            soundfile.write(wav, x * 10 ** (gain / 20), rate)
            times, f0 = metrics.pitch_ours(karaoke, wav)
            t = metrics.Tally()
            t.add(ref[:, 1], metrics.on_grid(times, f0, ref[:, 0]))
            print(f"| {gain:+d} dB | " + " | ".join(f"{v:.3f}" for v in t.row()) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--voices", default="en+f2")
    ap.add_argument("--synth", default="world", help="world, harmonic or both (comma-separated)")
    ap.add_argument("--gain", type=float, default=0.0, help="dB applied to the recording before scoring")
    ap.add_argument("--octaves", type=int, default=1, help="how far down the second singer sings")
    ap.add_argument("--attack", type=float, default=0.03, help="the formant singer's attack, s")
    ap.add_argument("--realvoice", action="store_true", help="vocadito_1's RPA instead (see above)")
    a = ap.parse_args()
    karaoke = os.path.abspath(a.karaoke)
    if a.realvoice:
        return realvoice(karaoke)
    key, path, _ = next(s for s in harness.SONGS if s[0] == "invaders")
    song = songs.load(karaoke, key, path)
    print(f"{os.path.basename(path)}; gain {a.gain:+.0f} dB; {karaoke}")
    print("| voice | rendering | singer | medium | RPA | missed / voiced | missed frames by class |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for v in a.voices.split(","):
            for synth in (a.synth.split(",") if v != "formant" else ["additive"]):
                totals = []
                for down in (0, a.octaves):
                    if v == "formant":
                        wav, truth = formant_singer(song, down, 12, attack=a.attack,
                                                    path=os.path.join(tmp, f"formant-{down}.wav"))
                    else:
                        name = ("clean" if down == 0 else "one octave down") + (
                            f", {conditions.HARMONIC}" if synth == "harmonic" else "")  # the harness's row names
                        c = conditions.Condition(name, "sung", v,
                                                 octaves_down=down, seed=SEEDS.get(v, 12), synth=synth)
                        wav, truth, _ = conditions.record(song, c)
                    if a.gain:
                        x, rate = soundfile.read(wav, dtype="float32")
                        wav = os.path.join(tmp, "scaled.wav")
                        soundfile.write(wav, x * 10 ** (a.gain / 20), rate)
                    total = metrics.score(karaoke, path, wav, "medium")
                    times, f0 = metrics.pitch_ours(karaoke, wav)
                    est = metrics.on_grid(times, f0, np.arange(len(truth)) * 0.01)
                    cls = classes(truth, est, song.notes)
                    voiced = int((truth > 0).sum())
                    missed = sum(cls.values())
                    text = ", ".join(f"{k} {n}" for k, n in sorted(cls.items(), key=lambda kv: -kv[1]))
                    print(f"| {v} | {synth} | {'at pitch' if down == 0 else f'−{down} oct'} | {total} | "
                          f"{metrics.rpa(truth, est):.3f} | {missed} / {voiced} | {text} |", flush=True)
                    totals.append(total)
                print(f"| {v} | {synth} | difference | {totals[1] - totals[0]:+d} | | | |", flush=True)


if __name__ == "__main__":
    main()
