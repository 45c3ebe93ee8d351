#!/usr/bin/env python3
"""Side-by-side pitch-tracker evaluation on synthetic singing with exact ground truth.

    Benchmarks/pitch/run            (sets up the venv, builds `karaoke` in release, runs this)
    python evaluate.py --karaoke PATH [--clips N] [--seconds S] [--trackers ours,aubio,pyin,praat]

Writes clips to Benchmarks/out/pitch/ and prints a Markdown table: raw pitch accuracy (RPA,
within 50 cents, unvoiced estimates count as wrong), raw chroma accuracy (RCA, octave errors
forgiven), voicing recall and voicing false alarm, pooled over all frames of a condition;
then CPU time per tracker over the clean 48 kHz clips (analysis only, decoding excluded).
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import clips  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "out", "pitch")


# ---------------------------------------------------------------- trackers
# Each returns (frame-centre times in seconds, f0 in Hz with 0 = unvoiced, CPU seconds).

OURS_ARGS = []  # extra `karaoke pitch` options (--ours-args), e.g. "--low-cut 150"


def run_ours(karaoke, path, backing=None):
    cmd = [karaoke, "pitch", path] + (["--backing", backing] if backing else []) + OURS_ARGS
    res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "KARAOKE_PITCH_TIMING": "1"})
    if res.returncode != 0:
        raise RuntimeError(res.stderr)
    data = np.loadtxt(res.stdout.splitlines(), delimiter=",", ndmin=2)
    cpu = float(res.stderr.split("analysis ")[1].split(" s")[0])
    return data[:, 0], data[:, 1], cpu


def run_aubio(sig, rate, method="yinfft"):
    import aubio
    hop, buf = int(rate * clips.HOP), 2048 if rate > 30000 else 1024
    p = aubio.pitch(method, buf, hop, rate)
    p.set_unit("Hz")
    p.set_silence(-60)  # the same level gate as ours
    x = np.ascontiguousarray(sig, dtype=np.float32)
    n = len(x) // hop
    out = np.zeros(n)
    t0 = time.process_time()
    for i in range(n):
        out[i] = p(x[i * hop:(i + 1) * hop])[0]
    cpu = time.process_time() - t0
    # Subtract the Python loop and slicing overhead so only aubio's own work is counted.
    lengths = np.zeros(n)
    t0 = time.process_time()
    for i in range(n):
        lengths[i] = len(x[i * hop:(i + 1) * hop])
    cpu = max(0.0, cpu - (time.process_time() - t0))
    times = ((np.arange(n) + 1) * hop - buf / 2) / rate  # centre of the window ending at this hop
    return times, np.maximum(out, 0), cpu


def run_pyin(sig, rate):
    import librosa
    y = librosa.resample(np.asarray(sig, dtype=np.float32), orig_sr=rate, target_sr=16000)
    t0 = time.process_time()
    f0, voiced, _ = librosa.pyin(y, fmin=65, fmax=1100, sr=16000, frame_length=1024, hop_length=160, center=True)
    cpu = time.process_time() - t0
    f0 = np.where(voiced, np.nan_to_num(f0), 0.0)
    return np.arange(len(f0)) * 0.01, f0, cpu


def run_praat(sig, rate):
    import parselmouth
    snd = parselmouth.Sound(np.asarray(sig, dtype=np.float64), sampling_frequency=rate)
    t0 = time.process_time()
    pitch = snd.to_pitch_ac(time_step=0.01, pitch_floor=65.0, pitch_ceiling=1100.0)
    cpu = time.process_time() - t0
    return pitch.xs(), pitch.selected_array["frequency"], cpu


# ---------------------------------------------------------------- scoring

def on_grid(times, f0, grid):
    """The estimate of the frame nearest each ground-truth time (0 outside the estimate)."""
    idx = np.clip(np.searchsorted(times, grid), 1, len(times) - 1)
    left = times[idx - 1]
    pick = np.where(np.abs(grid - left) <= np.abs(times[idx] - grid), idx - 1, idx)
    est = f0[pick]
    est[(grid < times[0] - 0.006) | (grid > times[-1] + 0.006)] = 0
    return est


class Tally:
    def __init__(self):
        self.v = self.uv = self.hit = self.chroma = self.recall = self.fa = 0

    def add(self, truth, est):
        gv, ev = truth > 0, est > 0
        both = gv & ev
        cents = np.zeros_like(truth)
        cents[both] = 1200 * np.log2(est[both] / truth[both])
        folded = np.abs(cents - 1200 * np.round(cents / 1200))
        self.v += gv.sum()
        self.uv += (~gv).sum()
        self.hit += (both & (np.abs(cents) <= 50)).sum()
        self.chroma += (both & (folded <= 50)).sum()
        self.recall += both.sum()
        self.fa += (ev & ~gv).sum()

    def row(self):
        v = max(1, self.v)  # backing-only conditions have no voiced frame
        return (self.hit / v, self.chroma / v, self.recall / v, self.fa / max(1, self.uv))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--clips", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--trackers", default="ours,aubio,pyin,praat")
    ap.add_argument("--ours-args", default="", help="extra options for `karaoke pitch`, e.g. '--low-cut 150'")
    ap.add_argument("--conditions", default="standard,room",
                    help="standard: clean, backing -6/-12 dB, noise; room: reverberant bleed at "
                         "-20/-12/-6/0 dB and backing alone (needs pyroomacoustics)")
    args = ap.parse_args()
    OURS_ARGS.extend(args.ours_args.split())
    trackers = args.trackers.split(",")
    groups = args.conditions.split(",")
    os.makedirs(OUT, exist_ok=True)
    voices = list(clips.VOICES)
    tallies, cpu, audio_seconds = {}, {}, 0.0
    for c in range(args.clips):
        voice = voices[c % len(voices)]
        sig, grid, truth, vrms = clips.synth_voice(voice, seed=c, seconds=args.seconds)
        backing = clips.synth_backing(seed=c, seconds=args.seconds)
        backing_path = os.path.join(OUT, f"{c:02d}-{voice}-backing-track.wav")
        clips.write_wav(backing_path, backing)
        np.savetxt(os.path.join(OUT, f"{c:02d}-{voice}-truth.csv"), np.c_[grid, truth], fmt="%.4f", delimiter=",",
                   header="time_s,f0_hz", comments="")
        conditions = []
        if "standard" in groups:
            conditions += list(clips.mixtures(sig, vrms, backing, seed=c))
        if "room" in groups:
            conditions += list(clips.bleed_mixtures(sig, vrms, backing, seed=c))
        for cond, mic, back in conditions:
            # With no singer every frame is backing only: all count as unvoiced.
            expected = np.zeros_like(truth) if cond.startswith("room-only") else truth
            path = os.path.join(OUT, f"{c:02d}-{voice}-{cond}.wav")
            clips.write_wav(path, mic)
            mic32 = np.asarray(mic, dtype=np.float32)
            runs = {}
            if "ours" in trackers:
                runs["ours"] = run_ours(args.karaoke, path)
                if back is not None:
                    runs["ours --backing"] = run_ours(args.karaoke, path, backing_path)
            if "aubio" in trackers:
                runs["aubio yinfft"] = run_aubio(mic32, clips.RATE)
            if "pyin" in trackers:
                runs["pYIN (librosa)"] = run_pyin(mic32, clips.RATE)
            if "praat" in trackers:
                runs["Praat ac (parselmouth)"] = run_praat(mic32, clips.RATE)
            for name, (times, f0, secs) in runs.items():
                tallies.setdefault(cond, {}).setdefault(name, Tally()).add(expected, on_grid(times, f0, grid))
                if cond == "clean":
                    cpu[name] = cpu.get(name, 0.0) + secs
            if cond == "clean":
                audio_seconds += len(mic) / clips.RATE
            print(f"clip {c} {voice} {cond} done", file=sys.stderr, flush=True)

    print(f"\n{args.clips} clips × {args.seconds:.0f} s per condition, 48 kHz, 10 ms frames\n")
    print("| condition | tracker | RPA | RCA | voicing recall | voicing false alarm |")
    print("|---|---|---|---|---|---|")
    for cond, per in tallies.items():
        for name, t in per.items():
            rpa, rca, rec, fa = t.row()
            print(f"| {cond} | {name} | {rpa:.3f} | {rca:.3f} | {rec:.3f} | {fa:.3f} |")
    if not cpu:
        return
    print(f"\nCPU time on the clean clips ({audio_seconds:.0f} s of 48 kHz audio, analysis only):\n")
    print("| tracker | CPU s | × real time |")
    print("|---|---|---|")
    for name, secs in cpu.items():
        print(f"| {name} | {secs:.3f} | {audio_seconds / max(secs, 1e-9):.0f} |")


if __name__ == "__main__":
    main()
