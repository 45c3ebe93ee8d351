#!/usr/bin/env python3
"""Runs the benchmarks and checks their key figures against thresholds kept beside them.

    scripts/bench --list              every benchmark with its command and last result
    scripts/bench NAME [NAME ...]     runs those benchmarks (each writes Benchmarks/results/NAME.json)
    scripts/bench --check [NAME ...]  compares the results with Benchmarks/Thresholds/NAME.json

A thresholds file (one per benchmark) names the command that measures and the figures to hold:

    {"run": "python3 Benchmarks/pitch/speed.py --out Benchmarks/results/pitch-speed.json",
     "figures": [{"figure": "end_to_end.times_real_time", "at_least": 120, "goal": 200,
                  "why": "a whole `karaoke pitch` process on a 20 s clip"}]}

`figure` is a dotted path into the result JSON; `at_least` / `at_most` fail the check, `goal`
(where an issue asks for more than today's figure) is only shown. Every result carries the
command, the date and the load average it ran at; the check prints them so a figure measured on
a loaded box is read as such. Exit status: 0 when every figure holds, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def thresholds_dir(root):
    return os.path.join(root, "Benchmarks", "Thresholds")


def results_dir(root):
    return os.path.join(root, "Benchmarks", "results")


def benchmarks(root):
    folder = thresholds_dir(root)
    return sorted(name[:-5] for name in os.listdir(folder) if name.endswith(".json")) if os.path.isdir(folder) else []


def load(path, what):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as error:
        raise SystemExit(f"{path}:{error.lineno}: {what} is not valid JSON: {error.msg}")


def figure(result, dotted):
    value = result
    for key in dotted.split("."):
        if isinstance(value, list):
            if not key.isdigit() or int(key) >= len(value):
                return None
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def check_one(root, name):
    """Prints one benchmark's figures against its thresholds; returns how many failed."""
    spec_path = os.path.join(thresholds_dir(root), f"{name}.json")
    if not os.path.exists(spec_path):
        print(f"{name}: no thresholds file {os.path.relpath(spec_path, root)}")
        return 1
    spec = load(spec_path, "the thresholds file")
    result_path = os.path.join(results_dir(root), f"{name}.json")
    if not os.path.exists(result_path):
        print(f"{name}: not measured yet (run: scripts/bench {name})")
        return 1
    result = load(result_path, "the result")
    when = result.get("date_utc", "date unknown")
    load_average = result.get("load_average", result.get("load_average_start", "unknown"))
    print(f"{name}: measured {when}, load average {load_average}")
    print(f"  command: {result.get('command', '(the result does not say)')}")
    failed = 0
    for entry in spec.get("figures", []):
        dotted = entry["figure"]
        value = figure(result, dotted)
        bounds = []
        ok = value is not None
        if "at_least" in entry:
            bounds.append(f">= {entry['at_least']}")
            ok = ok and value >= entry["at_least"]
        if "at_most" in entry:
            bounds.append(f"<= {entry['at_most']}")
            ok = ok and value <= entry["at_most"]
        goal = f", goal {entry['goal']}" if "goal" in entry else ""
        shown = "missing" if value is None else f"{value:g}"
        print(f"  {'ok  ' if ok else 'FAIL'} {dotted} = {shown} (threshold {' and '.join(bounds) or 'none'}{goal})"
              f"{': ' + entry['why'] if 'why' in entry else ''}")
        failed += 0 if ok else 1
    return failed


def run_one(root, name):
    spec_path = os.path.join(thresholds_dir(root), f"{name}.json")
    if not os.path.exists(spec_path):
        raise SystemExit(f"unknown benchmark {name!r}; known: {', '.join(benchmarks(root)) or 'none'}")
    command = load(spec_path, "the thresholds file")["run"]
    print(f"{name}: {command}", flush=True)
    return subprocess.run(command, shell=True, cwd=root).returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--check", action="store_true", help="compare results with thresholds")
    parser.add_argument("--list", action="store_true", help="list the benchmarks")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = args.names or benchmarks(args.root)
    if args.list:
        for name in benchmarks(args.root):
            spec = load(os.path.join(thresholds_dir(args.root), f"{name}.json"), "the thresholds file")
            print(f"{name}: {spec['run']}")
        return 0
    if args.check:
        failed = sum(check_one(args.root, name) for name in names)
        print(f"{failed} figure(s) failed" if failed else "every figure holds")
        return 1 if failed else 0
    if not args.names:
        parser.error("name the benchmarks to run (scripts/bench --list), or --check")
    return max(run_one(args.root, name) for name in names)


if __name__ == "__main__":
    sys.exit(main())
