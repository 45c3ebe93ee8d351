#!/usr/bin/env python3
"""Speed of our detector beside aubio yinfft, same audio, same run.

    Benchmarks/pitch/speed [--seconds 60] [--repeats 3]      (or scripts/bench pitch-speed)
    python Benchmarks/pitch/speed.py --karaoke .build/release/karaoke [--out results.json]

Four figures, each the best of --repeats:
- analysis alone: thread CPU of `PitchDetector.analyze` inside `karaoke pitch` (KARAOKE_PITCH_TIMING=1;
  decoding, planning and CSV output excluded) on --seconds of clean synthetic singing at 48 kHz;
- aubio yinfft on the same samples (process_time around its per-hop calls, the bare Python loop
  subtracted, as evaluate.py does);
- end to end: CPU (user + sys) and wall time of one whole `karaoke pitch` process on a 20 s clip
  (start-up, decoding, FFTW planning, analysis, CSV);
- the same for one whole `aubiopitch -p yinfft` process (aubio-tools) on the same clip, paired with ours
  (ours and aubio's runs alternate, so a load change hits both).
Prints a Markdown table with the date and load average; --out writes the figures as JSON for
`scripts/bench --check` (Benchmarks/Thresholds/pitch-speed.json).
"""
import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import clips  # noqa: E402
from evaluate import run_aubio  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "out", "pitch-speed")


def ours_analysis(karaoke, path):
    res = subprocess.run([karaoke, "pitch", path], capture_output=True, text=True,
                         env={**os.environ, "KARAOKE_PITCH_TIMING": "1"}, check=True)
    return float(res.stderr.split("analysis ")[1].split(" s")[0])


def end_to_end(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", help="write the figures here as JSON")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    voices = list(clips.VOICES)
    parts, seconds = [], 0.0
    c = 0
    while seconds < args.seconds:
        sig, _, _, _ = clips.synth_voice(voices[c % len(voices)], seed=100 + c, seconds=12)
        parts.append(sig)
        seconds += len(sig) / clips.RATE
        c += 1
    long_sig = np.concatenate(parts)
    long_path = os.path.join(OUT, "long.wav")
    clips.write_wav(long_path, long_sig)
    short_sig = long_sig[: int(20 * clips.RATE)]
    short_path = os.path.join(OUT, "clip20.wav")
    clips.write_wav(short_path, short_sig)
    audio = len(long_sig) / clips.RATE

    ours = min(ours_analysis(args.karaoke, long_path) for _ in range(args.repeats))
    aubio_cpu = min(run_aubio(np.asarray(long_sig, dtype=np.float32), clips.RATE)[2] for _ in range(args.repeats))
    load_start = os.getloadavg()
    ours_runs, aubio_runs = [], []
    for _ in range(args.repeats):
        ours_runs.append(end_to_end([args.karaoke, "pitch", short_path]))
        aubio_runs.append(end_to_end(["aubiopitch", "-i", short_path, "-p", "yinfft", "-u", "Hz"]))
    e2e = min(ours_runs, key=lambda r: r[0])
    aubio_e2e = min(aubio_runs, key=lambda r: r[0])

    print(f"\n{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, {audio:.0f} s of 48 kHz singing, best of {args.repeats}\n")
    print("| measurement | CPU s | × real time |")
    print("|---|---|---|")
    print(f"| ours, analysis alone | {ours:.4f} | {audio / ours:.0f} |")
    print(f"| aubio yinfft, analysis alone | {aubio_cpu:.4f} | {audio / max(aubio_cpu, 1e-9):.0f} |")
    print(f"| ours, one `karaoke pitch` process on a 20 s clip, end to end (CPU) | {e2e[0]:.4f} | {20 / e2e[0]:.0f} |")
    print(f"| same, wall clock | {e2e[1]:.4f} | {20 / e2e[1]:.0f} |")
    print(f"| one `aubiopitch -p yinfft` process on the same clip (CPU) | {aubio_e2e[0]:.4f} | {20 / aubio_e2e[0]:.0f} |")
    if args.out:
        result = {
            "what": "pitch detection speed: ours beside aubio yinfft on the same synthetic singing",
            "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]),
            "date_utc": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}",
            "load_average": [round(x, 2) for x in load_start],
            "load_average_end": [round(x, 2) for x in os.getloadavg()],
            "cpus": os.cpu_count(),
            "audio_seconds": round(audio, 2),
            "repeats": args.repeats,
            "analysis": {"ours_cpu_s": round(ours, 5), "ours_times_real_time": round(audio / ours, 1),
                         "aubio_cpu_s": round(aubio_cpu, 5), "aubio_times_real_time": round(audio / max(aubio_cpu, 1e-9), 1)},
            "end_to_end": {"clip_seconds": 20, "ours_cpu_s": round(e2e[0], 4), "ours_wall_s": round(e2e[1], 4),
                           "times_real_time": round(20 / e2e[0], 1), "aubiopitch_cpu_s": round(aubio_e2e[0], 4),
                           "aubiopitch_times_real_time": round(20 / aubio_e2e[0], 1),
                           "faster_than_aubiopitch": round(aubio_e2e[0] / e2e[0], 2)},
        }
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")
        print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
