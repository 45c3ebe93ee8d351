"""The air of a test room: what a microphone in the room hears, made outside the server.

A singer in a real room is not in the speakers' signal. So the singer cannot be carried in the
song the server plays: since the bleed reference holds everything the room plays (mono and
side, issue 15), any singer placed there is rightly removed as bleed. Instead this process
records what the room plays (`speaker.monitor`), finds where in the song the room is by
matching it against the song's backing, and writes a stereo "air" into its own sink:

    left  = the room's playback + the singer at that point of the song   (a singer's mic)
    right = the room's playback alone                                    (a guest who does not sing)

Both channels leave in the same PulseAudio stream, so the singer is sample-locked to the music
as a singer's voice and the speakers meet in the air, and every later delay (browser capture,
network) is shared by the two. The path through this process adds its own fixed latency, which
calibration measures like any other part of the microphone's path.

While the room is not playing the song (silence, calibration clicks, a pause) the air carries
the room's playback alone. The follower locks on when the song starts from silence: a backing
repeats its bars (the demo's does, to 0.997 of a perfect match), so a half second of music alone
may sit in several places of the song, but silence followed by the song's first notes sits in
one. A match that is not clearly better than the next best elsewhere is not taken. Once locked,
a glitch of the room's playback (up to two seconds) is found at the next check (every 0.1 s)
and the singer follows it; a lost match for a second unlocks it.

The path's latency stays put: when this process falls behind (a starved CPU), the recording
queues up before it and would add that delay to everything after, for good, so it drops what
queued beyond 15 ms (the air has a gap there, heard alike by every microphone).

Run as a script: `python room_air.py BACKING.npy VOICE.npy SINK`; it logs one line per lock,
re-alignment and loss on stdout.
"""
import fcntl
import os
import subprocess
import sys
import time

import numpy as np

RATE = 48000
CHUNK = 480                 # 10 ms
CHECK_EVERY = RATE // 10    # re-check the alignment every 0.1 s
HISTORY = RATE              # keep one second of what the room played
COARSE = 24                 # decimation for the whole-song search (2 kHz)
LOCK_NCC = 0.8              # a match this good (normalised correlation) means the song is playing
KEEP_NCC = 0.5              # below this for LOSE_AFTER the room no longer plays the song there
LOSE_AFTER = 1.0
SILENT_RMS = 1e-4
GAP_LOGGED = RATE // 200    # 5 ms of exact zeros inside the playing song: an underrun
BACKLOG = 0.015             # seconds of recording queued up before this process drops some
LEAD = RATE                 # silence before the song: what the song starting from silence matches
UNIQUE_BY = 0.05            # the best match must beat any other place (0.1 s away) by this much


def normalised_correlation(signal, reference, lags):
    """The normalised correlation of `signal` at each of `lags` places in `reference`
    (len(reference) = len(signal) + lags - 1)."""
    n = len(signal)
    size = 1 << int(np.ceil(np.log2(len(reference) + n)))
    correlation = np.fft.irfft(np.fft.rfft(reference, size) * np.conj(np.fft.rfft(signal, size)), size)[:lags]
    energy = np.concatenate([[0.0], np.cumsum(reference.astype(np.float64) ** 2)])
    window_energy = energy[n:n + lags] - energy[:lags]
    return correlation / np.sqrt(np.maximum(window_energy, 1e-12) * max(float(np.dot(signal, signal)), 1e-12))


def normalised_peak(signal, reference, lags):
    """Best lag of `signal` within `reference` and its normalised correlation."""
    ncc = normalised_correlation(signal, reference, lags)
    best = int(np.argmax(ncc))
    return best, float(ncc[best])


class Follower:
    def __init__(self, backing, voice):
        # Indices below are into these padded arrays (song sample = index - LEAD).
        self.backing = np.concatenate([np.zeros(LEAD, np.float32), backing.astype(np.float32)])
        self.voice = np.concatenate([np.zeros(LEAD, np.float32), voice.astype(np.float32)])
        usable = len(self.backing) // COARSE * COARSE
        self.coarse_backing = self.backing[:usable].reshape(-1, COARSE).mean(axis=1)
        self.history = np.zeros(HISTORY, dtype=np.float32)
        self.captured = 0           # samples recorded so far
        self.offset = None          # song sample = captured sample + offset, while locked
        self.gain = 1.0             # the room's playback level against the backing file
        self.weak_since = None
        self.silent_run = 0         # exact zeros in a row in what the room played
        self.gaps = 0               # runs of >= 5 ms of exact zeros while the song played: underruns

    def log(self, message):
        print(f"room air {self.captured / RATE:8.2f} s: {message}", flush=True)

    def check(self):
        recent = self.history[-RATE // 2:]
        if float(np.sqrt(np.mean(recent ** 2))) < SILENT_RMS:
            self.weak(None)
            return
        if self.offset is None:
            self.search(recent)
        else:
            self.verify(recent)

    def search(self, recent):
        coarse = recent.reshape(-1, COARSE).mean(axis=1)
        lags = len(self.coarse_backing) - len(coarse) + 1
        if lags <= 0:
            return
        scores = normalised_correlation(coarse, self.coarse_backing, lags)
        best = int(np.argmax(scores))
        ncc = float(scores[best])
        elsewhere = scores.copy()
        elsewhere[max(0, best - RATE // 10 // COARSE):best + RATE // 10 // COARSE] = -1
        if ncc < LOCK_NCC or ncc - float(np.max(elsewhere)) < UNIQUE_BY:
            return
        start = max(0, best * COARSE - 2 * COARSE)
        refined, fine = self.refine(recent, start, 4 * COARSE + 1)
        if refined is None or fine < LOCK_NCC:
            return
        self.offset = refined - (self.captured - len(recent))
        self.weak_since = None
        self.log(f"locked on the song at {(refined - LEAD) / RATE:.3f} s (match {fine:.3f}, gain {self.gain:.3f})")

    def refine(self, recent, start, lags):
        reference = self.backing[start:start + len(recent) + lags - 1]
        if len(reference) < len(recent) + lags - 1:
            return None, 0.0
        best, ncc = normalised_peak(recent, reference, lags)
        song = start + best
        part = self.backing[song:song + len(recent)]
        power = float(np.dot(part, part))
        if power > 0 and ncc > LOCK_NCC:
            self.gain = 0.8 * self.gain + 0.2 * float(np.dot(recent, part)) / power
        return song, ncc

    def verify(self, recent):
        expected = self.captured - len(recent) + self.offset
        # A glitch of the room's playback moves it by a few ms (an underrun) and, on a starved
        # machine, by up to hundreds; near the last place first, then within half a second
        # and two (a backing's bars repeat only further apart; the demo's every 2.5 s).
        for window in (RATE // 100, RATE // 2, 2 * RATE):
            song, ncc = self.refine(recent, max(0, expected - window), 2 * window + 1)
            if song is not None and ncc > LOCK_NCC:
                break
        if song is None or ncc < KEEP_NCC:
            self.weak(ncc)
            return
        self.weak_since = None
        if song != expected and ncc > LOCK_NCC:
            self.offset += song - expected
            self.log(f"re-aligned by {song - expected:+d} samples (match {ncc:.3f})")

    def weak(self, ncc):
        if self.offset is None:
            return
        if self.weak_since is None:
            self.weak_since = self.captured
        elif self.captured - self.weak_since > LOSE_AFTER * RATE:
            self.log(f"lost the song (match {ncc if ncc is not None else 'silence'})")
            self.offset = None
            self.weak_since = None

    def count_gaps(self, chunk):
        """Logs each run of >= 5 ms of exact zeros while the song plays: an underrun of the
        room's playback (music is never digitally silent that long while it plays). The singer
        is not paused: PulseAudio keeps a stream's timing through an underrun and drops what
        came late, so the song goes on where it would have been; the next check confirms it."""
        zero = chunk == 0
        if zero.all():
            self.silent_run += len(chunk)
            return
        first = int(np.argmin(zero))
        if self.silent_run + first >= GAP_LOGGED:
            self.gaps += 1
            self.log(f"the room's playback had a gap of {(self.silent_run + first) * 1000 / RATE:.1f} ms "
                     f"({self.gaps} so far)")
        self.silent_run = len(chunk) - 1 - int(np.flatnonzero(~zero)[-1])

    def mix(self, chunk):
        """The air for one recorded chunk: (left with the singer, right without), interleaved."""
        self.history = np.roll(self.history, -len(chunk))
        self.history[-len(chunk):] = chunk
        start = self.captured
        self.captured += len(chunk)
        singer = np.zeros(len(chunk), dtype=np.float32)
        if self.offset is not None:
            self.count_gaps(chunk)
            first = start + self.offset
            lo, hi = max(first, 0), min(first + len(chunk), len(self.voice))
            if hi > lo:
                singer[lo - first:hi - first] = self.gain * self.voice[lo:hi]
        else:
            self.silent_run = 0
        if self.captured // CHECK_EVERY != start // CHECK_EVERY:
            self.check()
        return np.stack([chunk + singer, chunk], axis=1).astype("<f4").tobytes()


def small_pipe(stream):
    """A pipe that queues 4 KiB (10-20 ms here), not 64 KiB: it would add its fill as latency."""
    try:
        fcntl.fcntl(stream.fileno(), 1031, 4096)  # F_SETPIPE_SZ
    except OSError:
        pass


def main():
    backing, voice, sink = np.load(sys.argv[1]), np.load(sys.argv[2]), sys.argv[3]
    follower = Follower(backing, voice)
    try:
        os.nice(-10)  # the air must not fall behind on a busy box (allowed as root, as in CI)
    except OSError:
        pass
    record = subprocess.Popen(["parec", "--raw", "--format=float32le", f"--rate={RATE}", "--channels=1",
                               "--latency-msec=10", "-d", "speaker.monitor"], stdout=subprocess.PIPE, bufsize=0)
    play = subprocess.Popen(["pacat", "--raw", "--format=float32le", f"--rate={RATE}", "--channels=2",
                             "--latency-msec=50", "-d", sink], stdin=subprocess.PIPE, bufsize=0)
    small_pipe(record.stdout)
    small_pipe(play.stdin)
    follower.log(f"playing the room's air into {sink}")
    started = None
    least_lag = float("inf")
    dropped = 0
    try:
        while True:
            data = b""
            while len(data) < CHUNK * 4:
                more = record.stdout.read(CHUNK * 4 - len(data))
                if not more:
                    return
                data += more
            now = time.monotonic()
            if started is None:
                started = now
            # How far behind the recording's own clock this process runs; the least seen is
            # the path's own latency, anything above it a queue.
            lag = (now - started) - (follower.captured + CHUNK) / RATE
            least_lag = min(least_lag, lag)
            chunk = np.frombuffer(data, dtype="<f4")
            air = follower.mix(chunk)
            if lag - least_lag > BACKLOG:
                dropped += 1
                if dropped == 1 or dropped % 100 == 0:
                    follower.log(f"behind by {(lag - least_lag) * 1000:.0f} ms: dropped {dropped} chunks so far")
                continue
            play.stdin.write(air)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        record.terminate()
        play.terminate()


if __name__ == "__main__":
    main()
