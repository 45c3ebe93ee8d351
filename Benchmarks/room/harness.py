#!/usr/bin/env python3
"""Real-room evaluation: scores and pitch accuracy of a `karaoke` binary on re-pitched real voices.

    Benchmarks/room/run --karaoke PATH [--quick] [--voices espeak,flite] [--audio DIR] [--out FILE]
                                                      (sets up Benchmarks/out/room-venv, then runs this)

Prints Markdown tables (scores with the issue's acceptance targets, pooled pitch accuracy, per-clip
RPA) and writes the same as JSON to Benchmarks/out/room/results.json.
"""
import argparse
import json
import os
import platform
import shutil
import sys
import time

import numpy as np
import soundfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conditions  # noqa: E402
import metrics  # noqa: E402
import song as songs  # noqa: E402
import speech  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "ultrastar"))
SONGS = [  # key, path, in --quick
    ("demo", os.path.join(REPO, "songs", "demo", "demo.txt"), True),
    ("invaders", os.path.join(CORPUS, "man0lis__ultrastar-txt__Pornophonique - Space Invaders.txt"), False),
    ("xmastree", os.path.join(CORPUS, "UltraStar-Deluxe__Play__MedleyTestSongs__OChristmasTree-NoMedleyStart-NoMedleyEnd.txt"), False),
]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def score(karaoke, song_path, wav, difficulty, row, extra=()):
    """A total, or None with the failure logged and kept in the row (the run goes on)."""
    try:
        return metrics.score(karaoke, song_path, wav, difficulty, extra=extra)
    except RuntimeError as error:
        log(f"FAILED: {error}")
        row.setdefault("errors", []).append(str(error))
        return None


def score_targets(song_key, rows):
    """Attach the issue's acceptance target and verdict to each score row of one song."""
    clean = next((r["medium"] for r in rows if r["condition"] == "clean" and r["medium"] is not None), None)

    def at_pitch(r):
        """The same voice's clean row rendered the same way (the issue: 'the same singer at pitch'),
        else the song's first clean row of that rendering and speech engine, marked as another voice."""
        clean_rows = [c for c in rows if conditions.base_name(c["condition"]) == "clean" and c["medium"] is not None
                      and c["synth_suffix"] == r["synth_suffix"] and c["engine"] == r["engine"]]
        same = next((c for c in clean_rows if c["voice_name"] == r["voice_name"]), None)
        if same is not None:
            return same["medium"], "same voice at pitch"
        return (clean_rows[0]["medium"], f"clean {clean_rows[0]['voice_name']}, another voice") if clean_rows else (None, "")

    for r in rows:
        name, med, hard = r["condition"], r["medium"], r.get("hard")
        base = conditions.base_name(name)
        target, ok = "", None
        if med is None:
            r["target"], r["pass"] = "", False
            continue
        if base == "clean" and song_key in ("demo", "invaders"):
            target, ok = "≥ 9000", med >= 9000
        elif base in ("octave-down", "one octave down") and song_key in ("demo", "invaders") \
                and (reference := at_pitch(r))[0] is not None:
            if "another voice" in reference[1]:
                # Another singer is no measure of this one's own score at pitch: only a loss shows.
                target, ok = f"≥ {reference[0] - 200} ({reference[1]}: not more than 200 under)", \
                    med >= reference[0] - 200
            else:
                target, ok = f"{reference[0]} ± 200 ({reference[1]})", abs(med - reference[0]) <= 200
        elif song_key == "demo" and name == "backing -6 dB RT60 0.5" and clean is not None:
            target, ok = f"≥ {0.97 * clean:.0f} (97 % of clean)", med >= 0.97 * clean
        elif song_key == "demo" and name == "backing alone":
            target, ok = "≤ 300", med <= 300
        elif song_key == "demo" and name == "talker":
            target, ok = "≤ 1500", med <= 1500
        elif song_key == "demo" and name == "silence":
            target, ok = "0", med == 0
        elif song_key == "demo" and name == "+1 st" and hard is not None:
            target, ok = "≥ 7500 medium, ≤ 1000 hard", med >= 7500 and hard <= 1000
        r["target"], r["pass"] = target, ok
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--karaoke", required=True)
    ap.add_argument("--quick", action="store_true", help="the demo song only, a subset of conditions")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--voices", default="espeak",
                    help="comma-separated speech engines whose singers run: espeak (the harness's own conditions), "
                         "flite, festival (unseen voices on the demo and Space Invaders: conditions.unseen_voices)")
    ap.add_argument("--audio", default=conditions.OUT, help="where recordings are made and cached")
    ap.add_argument("--out", help="the JSON report (default: AUDIO/results.json)")
    args = ap.parse_args()
    voices = tuple(v.strip() for v in args.voices.split(",") if v.strip())
    unknown = [v for v in voices if v != "espeak" and v not in conditions.UNSEEN]
    if unknown:
        ap.error(f"--voices: unknown engine {', '.join(unknown)} (espeak, {', '.join(conditions.UNSEEN)})")
    for engine, tool in (("flite", "flite"), ("festival", "text2wave")):
        if engine in voices and not shutil.which(tool):
            ap.error(f"--voices {engine}: {tool} is missing (scripts/setup --test installs it)")
    conditions.OUT = os.path.abspath(args.audio)
    args.out = args.out or os.path.join(conditions.OUT, "results.json")
    karaoke = os.path.abspath(args.karaoke)
    opts = metrics.score_options(karaoke)
    started = time.time()
    log(f"karaoke score bleed-reference options: {opts}")

    score_rows, clip_rows, tallies = [], [], {}
    for key, path, in_quick in SONGS:
        if args.quick and not in_quick:
            continue
        if not os.path.exists(path):
            log(f"skipping {key}: {path} not found (../shared/corpus absent)")
            continue
        song = songs.load(karaoke, key, path)
        rows = []
        for c in conditions.for_song(song, args.quick, args.seed, voices):
            wav, truth, info = conditions.record(song, c)
            row = {"song": key, "condition": c.name, "voice": (c.voice or "-") + (f" ({c.detail})" if c.detail else ""),
                   "voice_name": c.voice, "engine": speech.engine(c.voice), "synth_suffix": f", {conditions.HARMONIC}" if c.synth == "harmonic" else "",
                   "rt60": c.rt60 if c.backing_db is not None else None,
                   "backing_delay_ms": c.delay_ms if c.backing_db is not None else None, "mic_delay_ms": 0, "wav": wav}
            for diff in c.difficulties:
                if opts["no_backing"] and song.backing_path:
                    row[diff] = score(karaoke, path, wav, diff, row)  # the song's backing is the default reference
                    row[f"{diff}_no_ref"] = score(karaoke, path, wav, diff, row, ["--no-backing"])
                elif opts["backing"] and song.backing_path:
                    row[diff] = score(karaoke, path, wav, diff, row, ["--backing", song.backing_path])
                    row[f"{diff}_no_ref"] = score(karaoke, path, wav, diff, row)
                else:
                    row[diff] = score(karaoke, path, wav, diff, row)
            rows.append(row)
            if truth is not None:
                samples, rate = soundfile.read(wav, dtype="float32")
                grid = np.arange(len(truth)) * 0.01
                runs = {"ours": metrics.pitch_ours(karaoke, wav)}
                if c.backing_db is not None:
                    runs["ours --backing"] = metrics.pitch_ours(karaoke, wav, song.backing_path)
                runs["aubio yinfft"] = metrics.pitch_aubio(samples, rate)
                if info.get("dry_voice") is not None:
                    runs["WORLD DIO, dry voice (truth check)"] = metrics.truth_check(info["dry_voice"], rate)
                clip = {"song": key, "condition": c.name, "voice": (c.voice or "-") + (f" ({c.detail})" if c.detail else "")}
                for tracker, (times, f0) in runs.items():
                    est = metrics.on_grid(times, f0, grid)
                    tallies.setdefault(c.name, {}).setdefault(tracker, metrics.Tally()).add(truth, est)
                    tallies[c.name][tracker].clips = getattr(tallies[c.name][tracker], "clips", 0) + 1
                    if np.any(truth > 0):
                        clip[tracker] = metrics.rpa(truth, est)
                if np.any(truth > 0):
                    clip_rows.append(clip)
            log(f"{key} {c.name} {c.voice}: " + ", ".join(f"{d} {row[d]}" for d in c.difficulties))
        score_rows += score_targets(key, rows)

    pitch_rows = []
    for cond, per in tallies.items():
        for tracker, t in per.items():
            r, rc, rec, fa = t.row() if t.v else (float("nan"),) * 3 + (t.fa / max(1, t.uv),)
            pitch_rows.append({"condition": cond, "tracker": tracker, "clips": t.clips, "voiced_frames": int(t.v),
                               "RPA": r, "RCA": rc, "voicing_recall": rec, "voicing_false_alarm": fa})

    elapsed = time.time() - started
    pitch_checks = pitch_targets(pitch_rows, clip_rows)
    report = {"karaoke": karaoke, "quick": args.quick, "seed": args.seed, "voices": voices, "score_options": opts,
              "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), "load_average": os.getloadavg(),
              "machine": platform.platform(), "cpus": os.cpu_count(), "seconds": elapsed,
              "scores": score_rows, "pitch": pitch_rows, "clips": clip_rows,
              "pitch_targets": pitch_checks}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(report, fh, indent=1, default=float)
    print_markdown(report)
    log(f"wrote {args.out} ({elapsed:.0f} s)")


def pitch_targets(pitch_rows, clip_rows):
    """The issue's pitch-accuracy targets, measured on our detector."""
    by = {(p["condition"], p["tracker"]): p for p in pitch_rows}
    checks = []

    def check(what, target, value, ok):
        checks.append({"what": what, "target": target, "value": value, "pass": ok})

    for engine in ("", *(f", {e}" for e in conditions.UNSEEN)):  # the espeak-ng singers, then other engines'
        clean = "clean" + engine
        if (clean, "ours") in by:
            v = by[(clean, "ours")]["RPA"]
            check(f"{clean} RPA (pooled)", "≥ 0.985", v, v >= 0.985)
        harmonic_clean = f"{clean}, {conditions.HARMONIC}"
        if (harmonic_clean, "ours") in by:
            v = by[(harmonic_clean, "ours")]["RPA"]
            check(f"{clean} RPA (pooled), {conditions.HARMONIC}", "≥ 0.985", v, v >= 0.985)
            worst = min(c["ours"] for c in clip_rows if c["condition"] == harmonic_clean and "ours" in c)
            check(f"lowest {clean} per-clip RPA, {conditions.HARMONIC}", "≥ 0.90", worst, worst >= 0.90)
        singers = ("clean", "octave-down", "one octave down", "bass choir")
        for suffix in ("", f", {conditions.HARMONIC}"):
            vals = [c["ours"] for c in clip_rows
                    if "ours" in c and c["condition"] in {s + engine + suffix for s in singers}]
            if vals:
                check(f"lowest per-clip RPA of the singers without backing ({', '.join(singers)}){engine}{suffix}",
                      "≥ 0.90", min(vals), min(vals) >= 0.90)
    for tracker in ("ours", "ours --backing"):
        vals = [c[tracker] for c in clip_rows if tracker in c]
        if vals:
            worst = min(vals)
            check(f"lowest per-clip RPA, {tracker}", "≥ 0.90", worst, worst >= 0.90)
    if ("backing -6 dB RT60 0.5", "ours --backing") in by:
        v = by[("backing -6 dB RT60 0.5", "ours --backing")]["RPA"]
        check("backing −6 dB RT60 0.5 RPA with reference", "≥ 0.92", v, v >= 0.92)
    for (cond, tracker), p in by.items():
        if tracker == "ours --backing" and p["voiced_frames"] and (cond, "ours") in by:
            without = by[(cond, "ours")]["RPA"]
            check(f"{cond}: RPA with reference vs without", "with ≥ without", f"{p['RPA']:.3f} vs {without:.3f}",
                  p["RPA"] >= without)
    for tracker in ("ours", "ours --backing"):
        if ("backing alone", tracker) in by:
            v = by[("backing alone", tracker)]["voicing_false_alarm"]
            check(f"voicing false alarm on backing-only audio, {tracker}", "≤ 0.05", v, v <= 0.05)
    return checks


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        return "-" if np.isnan(x) else f"{x:.3f}"
    return str(x)


def print_markdown(r):
    ref = r["score_options"]["backing"] or r["score_options"]["no_backing"]
    print(f"\nkaraoke: {r['karaoke']}  ({r['date_utc']} UTC, load average "
          f"{' '.join(f'{x:.2f}' for x in r['load_average'])} at the end, {r['cpus']} CPUs, {r['seconds']:.0f} s)")
    print("All recordings start at media time 0 with the voice aligned: scored with --mic-delay 0.\n")
    head = "| song | condition | voice | backing RT60 / delay | medium | hard |"
    if ref:
        head += " medium w/o ref | hard w/o ref |"
    print(head + " target | pass |")
    print("|" + "---|" * (head.count("|") - 1 + 2))
    for s in r["scores"]:
        room = f"{s['rt60']} s / {s['backing_delay_ms']} ms" if s["rt60"] is not None else "-"
        line = f"| {s['song']} | {s['condition']} | {s['voice']} | {room} | {fmt(s.get('medium'))} | {fmt(s.get('hard'))} |"
        if ref:
            line += f" {fmt(s.get('medium_no_ref'))} | {fmt(s.get('hard_no_ref'))} |"
        verdict = "" if s["pass"] is None else ("yes" if s["pass"] else "**NO**")
        print(line + f" {s['target']} | {verdict} |" + (" failed: see JSON" if s.get("errors") else ""))
    print("\nPitch accuracy, pooled over the clips of each condition (10 ms frames, 50 cent tolerance):\n")
    print("| condition | tracker | clips | RPA | RCA | voicing recall | voicing false alarm |")
    print("|---|---|---|---|---|---|---|")
    for p in r["pitch"]:
        print(f"| {p['condition']} | {p['tracker']} | {p['clips']} | {fmt(p['RPA'])} | {fmt(p['RCA'])} | "
              f"{fmt(p['voicing_recall'])} | {fmt(p['voicing_false_alarm'])} |")
    print("\nPitch targets (ours):\n")
    print("| check | target | measured | pass |")
    print("|---|---|---|---|")
    for c in r["pitch_targets"]:
        print(f"| {c['what']} | {c['target']} | {fmt(c['value'])} | {'yes' if c['pass'] else '**NO**'} |")
    print("\nPer-clip RPA (target: no clip below 0.90):\n")
    print("| song | condition | voice | ours | ours --backing | aubio yinfft | WORLD DIO, dry voice (truth check) |")
    print("|---|---|---|---|---|---|---|")
    for c in r["clips"]:
        mark = lambda k: fmt(c.get(k)) + (" **< 0.90**" if round(c.get(k, 1), 3) < 0.90 else "")  # noqa: E731
        print(f"| {c['song']} | {c['condition']} | {c['voice']} | {mark('ours')} | "
              f"{mark('ours --backing')} | {fmt(c.get('aubio yinfft'))} | "
              f"{fmt(c.get('WORLD DIO, dry voice (truth check)'))} |")


if __name__ == "__main__":
    main()
