"""The singer and room conditions, and the recordings they make (cached under Benchmarks/out/room/).

Every recording starts at media time 0 with the song; the voice is aligned to the notes, so it is
scored with --mic-delay 0. The backing reaches the mic through the room with its own delay.
"""
import hashlib
import json
import os
from dataclasses import dataclass, asdict

import numpy as np
import soundfile

import room
import song as songs
import voice

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "out", "room"))  # the recordings' cache (harness --audio DIR)
RATE = voice.RATE
VOICE_RT60 = 0.3          # the singer's own room: a little reverb
SOURCE_FILES = ("voice.py", "speech.py", "harmonic.py", "room.py", "conditions.py", "song.py")


@dataclass(frozen=True)
class Condition:
    name: str                  # row label, shared by the same condition on different songs
    kind: str                  # sung | choir | talker | silence | backing
    voice: str = "en"          # espeak-ng voice, or ENGINE:NAME (speech.py; a choir: its voices, comma-separated)
    octaves_down: int = 0      # 0, or "auto": set to reach the bass range (see bass_octaves)
    cents: float = 0.0         # steady detuning of the singer (for +1 st: 100 ± 5)
    backing_db: float | None = None   # backing level relative to the voice; None = no backing
    rt60: float = 0.5          # the room the backing plays in
    delay_ms: float = 0.0      # loudspeaker → mic delay of the backing
    difficulties: tuple = ("medium",)
    seed: int = 0
    detail: str = ""           # shown next to the voice (e.g. the octave-down range)
    synth: str = "world"       # world (WORLD's vocoder) | harmonic (exact truth, harmonic.py)

    def slug(self):
        safe = lambda text: "".join(c if c.isalnum() or c in "+-." else "_" for c in text)  # noqa: E731
        return f"{safe(self.name)}-{safe(self.voice)}-s{self.seed}"


HARMONIC = "harmonic resynthesis"
UNSEEN = {  # speech engines other than espeak-ng and the voices they sing with (harness --voices)
    "flite": ("flite:rms", "flite:slt", "flite:awb"),
    "festival": ("festival:cmu_us_slt_arctic_hts",),
}


def base_name(name):
    """A row's condition without its rendering and speech-engine tags: "clean, flite, harmonic
    resynthesis" → "clean"."""
    name = name.removesuffix(f", {HARMONIC}")
    for e in UNSEEN:
        name = name.removesuffix(f", {e}")
    return name


def harmonic_twins(cs):
    """The clean and octave-down singers again, resynthesised with harmonics locked to the imposed f0,
    so every truth-voiced frame is periodic at the truth (rows named "<condition>, harmonic resynthesis")."""
    return [Condition(f"{c.name}, {HARMONIC}", c.kind, c.voice, c.octaves_down, c.cents, None, c.rt60, c.delay_ms,
                      c.difficulties, c.seed, c.detail, "harmonic")
            for c in cs if c.kind in ("sung", "choir") and c.backing_db is None and not c.cents]


BASS_CHOIR = "en+m1,en+m3,en+m7,de"  # four men's voices in unison (a bass section, a crowd of men)
LOWEST_HZ = 65.0  # C2, a low bass's floor; the octave-down singer goes no lower


def bass_octaves(song):
    """Whole octaves down that put the song's median note at or below 160 Hz (bass/baritone range),
    but never the lowest note below LOWEST_HZ; at least one."""
    lowest = 440 * 2 ** ((min(n[2] for n in song.notes) - 69) / 12)
    k = 1
    while song.median_hz / 2 ** k > 160 and lowest / 2 ** (k + 1) >= LOWEST_HZ:
        k += 1
    return k


def range_text(song, k):
    notes = [440 * 2 ** ((n[2] - 69) / 12) / 2 ** k for n in song.notes]
    return f"{min(notes):.0f}–{max(notes):.0f} Hz, median {song.median_hz / 2 ** k:.0f}"


def for_song(song, quick, seed, voices=("espeak",)):
    """The conditions run on one song: with "espeak" in `voices`, the harness's own set (the demo song
    gets the full set; corpus songs voice-only); for each other engine named, unseen_voices."""
    extra = unseen_voices(song, [v for v in voices if v != "espeak"], seed)
    if "espeak" not in voices:
        return extra
    return espeak_conditions(song, quick, seed) + extra


def unseen_voices(song, engines, seed):
    """Singers whose speech comes from another engine (speech.py), on the demo song and Space Invaders:
    each of the engine's voices clean, and (flite) rms one octave down on the demo; every one rendered
    by WORLD and by harmonic resynthesis. Rows are named "clean, flite" etc., so they pool apart from
    the espeak-ng singers."""
    if song.key not in ("demo", "invaders"):
        return []
    cs = []
    for e in engines:
        for i, v in enumerate(UNSEEN[e]):
            cs.append(Condition(f"clean, {e}", "sung", v, seed=seed + 21 + i))
        if e == "flite" and song.key == "demo":
            cs.append(Condition(f"one octave down, {e}", "sung", "flite:rms", octaves_down=1, seed=seed + 21,
                                detail=f"−1 oct: {range_text(song, 1)}"))
    return cs + harmonic_twins(cs)


def espeak_conditions(song, quick, seed):
    """The harness's own conditions (espeak-ng singers, the talker, silence, the backing)."""
    rng = np.random.default_rng(seed)
    delay = lambda: round(float(rng.uniform(5, 30)), 1)  # noqa: E731
    plus1 = round(float(rng.uniform(95, 105)), 1)
    down = bass_octaves(song)
    has_backing = song.backing_path is not None
    cs = [Condition("clean", "sung", "en+f2", seed=seed + 1),
          Condition("octave-down", "sung", "en+m3", octaves_down=down, seed=seed + 2,
                    detail=f"−{down} oct: {range_text(song, down)}")]
    if down > 1:
        # The issue's own figure is one octave down; the bass-range row above is the harder case.
        cs.append(Condition("one octave down", "sung", "en+m3", octaves_down=1, seed=seed + 2,
                            detail=f"−1 oct: {range_text(song, 1)}"))
    if song.key == "demo":
        cs += [Condition("+1 st", "sung", "en+f2", cents=plus1, difficulties=("medium", "hard"), seed=seed + 3,
                         detail=f"{plus1:+.1f} cents"),
               Condition("talker", "talker", "en"),
               Condition("silence", "silence", "")]
        if not quick:
            cs += [Condition("clean", "sung", "en+m3", seed=seed + 4),
                   Condition("clean", "sung", "de", seed=seed + 5)]
    elif not quick:  # corpus songs sit in a soprano/alto range: a second female voice, and the
        # clean singer an octave down (the issue compares the same singer at pitch and an octave down;
        # the octave-down en+m3 rows above are a man's voice, and a man singing these songs at pitch
        # would be in falsetto)
        cs += [Condition("clean", "sung", "en+f4", seed=seed + 4),
               Condition("one octave down", "sung", "en+f2", octaves_down=1, seed=seed + 1,
                         detail=f"−1 oct: {range_text(song, 1)}")]
    if not quick:
        # a bass section singing the melody in unison, in the bass range like the octave-down singer
        cs.append(Condition("bass choir", "choir", BASS_CHOIR, octaves_down=down, seed=seed + 6,
                            detail=f"4 voices, −{down} oct: {range_text(song, down)}"))
    if has_backing:
        cs += [Condition("backing alone", "backing", "", backing_db=0.0, rt60=0.5, delay_ms=delay()),
               Condition("backing -6 dB RT60 0.5", "sung", "en+f2", backing_db=-6, rt60=0.5, delay_ms=delay(), seed=seed + 1)]
        if not quick:
            for db in (-20, -12, 0):
                cs.append(Condition(f"backing {db:+d} dB RT60 0.5".replace("+0", "0"), "sung", "en+f2",
                                    backing_db=db, rt60=0.5, delay_ms=delay(), seed=seed + 1))
            for rt in (0.3, 0.9):
                cs.append(Condition(f"backing -6 dB RT60 {rt}", "sung", "en+f2", backing_db=-6, rt60=rt,
                                    delay_ms=delay(), seed=seed + 1))
            cs.append(Condition("octave-down + backing -6 dB RT60 0.5", "sung", "en+m3", octaves_down=down,
                                backing_db=-6, rt60=0.5, delay_ms=delay(), seed=seed + 2,
                                detail=f"−{down} oct: {range_text(song, down)}"))
    return cs + harmonic_twins(cs)


def _source_hash():
    h = hashlib.sha1()
    for f in SOURCE_FILES:
        with open(os.path.join(HERE, f), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:10]


def _cached(path_npz, make):
    if os.path.exists(path_npz):
        d = np.load(path_npz)
        return d["audio"], d["truth"]
    audio, truth = make()
    np.savez(path_npz, audio=audio.astype(np.float32), truth=truth)
    return audio, truth


def dry_voice(song, c, folder, tag):
    """The singer alone (dry), and its ground truth; cached per song, voice, pitch and seed."""
    synth = "" if c.synth == "world" else f"-{c.synth}"
    key = f"voice-{c.voice.replace(':', '_')}-{c.octaves_down}oct-{c.cents:+.1f}c-s{c.seed}{synth}-{tag}.npz"
    notes = song.notes
    if c.kind == "choir":
        return _cached(os.path.join(folder, key.replace(",", "_")),
                       lambda: voice.choir(notes, c.voice.split(","), song.seconds,
                                           shift_semitones=-12 * c.octaves_down, seed=c.seed, synth=c.synth))
    return _cached(os.path.join(folder, key),
                   lambda: voice.sing(notes, c.voice, song.seconds, shift_semitones=-12 * c.octaves_down,
                                      seed=c.seed, cents_offset=c.cents, synth=c.synth))


def record(song, c):
    """Write the mic recording of condition c; returns (wav path, truth per 10 ms, info dict)."""
    tag = _source_hash()
    folder = os.path.join(OUT, song.key)
    os.makedirs(folder, exist_ok=True)
    n = int(song.seconds * RATE)
    frames = int(song.seconds / voice.HOP) + 1
    rng = np.random.default_rng(c.seed + 1000)  # mic noise
    dry_for_check = None
    if c.kind in ("sung", "choir"):
        dry, truth = dry_voice(song, c, folder, tag)
        dry_for_check = dry
    elif c.kind == "talker":
        dry = _cached(os.path.join(folder, f"talker-{c.voice}-{tag}.npz"),
                      lambda: (voice.speak_lines(song.lines, c.voice, song.seconds), np.zeros(frames)))[0]
        truth = None  # speech has no sung pitch to measure against
    else:
        dry, truth = np.zeros(n), np.zeros(frames)
    dry = np.pad(np.asarray(dry, dtype=np.float64), (0, max(0, n - len(dry))))[:n]
    wet = room.voice_in_room(dry, VOICE_RT60, RATE)
    # the singer's level is the clean take's level over the sung spans (also for "backing alone")
    active = np.zeros(n, dtype=bool)
    for start, end, *_ in song.notes:
        active[int(start * RATE):int(end * RATE)] = True
    nominal_rms = 0.1
    if np.any(wet):
        wet *= nominal_rms / (room.rms(wet, active) or nominal_rms)
    backing_at_mic = None
    if c.backing_db is not None:
        backing = songs.read_backing(song, RATE)
        backing_at_mic = room.backing_in_room(backing, c.rt60, c.delay_ms / 1000, RATE, n)
    mic = room.mix(wet, backing_at_mic, c.backing_db or 0.0, nominal_rms, active, rng)
    path = os.path.join(folder, f"{c.slug()}.wav")
    soundfile.write(path, mic, RATE, subtype="PCM_16")
    if truth is not None:
        truth = np.pad(truth, (0, max(0, frames - len(truth))))[:frames]
        np.savetxt(path[:-4] + "-truth.csv", np.c_[np.arange(frames) * voice.HOP, truth], fmt="%.4f",
                   delimiter=",", header="time_s,f0_hz", comments="")
    info = {**asdict(c), "song": song.key, "wav": path, "mic_delay_ms": 0, "dry_voice": dry_for_check}
    with open(path[:-4] + ".json", "w") as fh:
        json.dump({k: v for k, v in info.items() if k != "dry_voice"}, fh, indent=1)
    return path, truth, info
