"""`scripts/bench --check`: a figure past its threshold fails the check, one within passes, and a
benchmark never measured fails with what to run (Benchmarks/bench.py)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tree(tmp_path, result, figures):
    (tmp_path / "Benchmarks" / "Thresholds").mkdir(parents=True)
    (tmp_path / "Benchmarks" / "results").mkdir()
    (tmp_path / "Benchmarks" / "Thresholds" / "speed.json").write_text(
        json.dumps({"run": "true", "figures": figures}))
    if result is not None:
        (tmp_path / "Benchmarks" / "results" / "speed.json").write_text(json.dumps(result))


def check(tmp_path):
    return subprocess.run([sys.executable, str(ROOT / "Benchmarks" / "bench.py"), "--check", "--root", str(tmp_path)],
                          capture_output=True, text=True)


RESULT = {"command": "bench speed", "date_utc": "2026-12-07T00:00:00Z", "load_average": [1.0, 1.0, 1.0],
          "end_to_end": {"times_real_time": 150.0, "runs": [{"p99_ms": 12.5}]}}


def test_figures_within_their_thresholds_pass(tmp_path):
    tree(tmp_path, RESULT, [{"figure": "end_to_end.times_real_time", "at_least": 120, "goal": 200},
                            {"figure": "end_to_end.runs.0.p99_ms", "at_most": 15}])
    run = check(tmp_path)
    assert run.returncode == 0, run.stdout
    assert "ok   end_to_end.times_real_time = 150 (threshold >= 120, goal 200)" in run.stdout
    assert "load average [1.0, 1.0, 1.0]" in run.stdout and "command: bench speed" in run.stdout


def test_a_figure_past_its_threshold_fails(tmp_path):
    tree(tmp_path, RESULT, [{"figure": "end_to_end.runs.0.p99_ms", "at_most": 10}])
    run = check(tmp_path)
    assert run.returncode == 1
    assert "FAIL end_to_end.runs.0.p99_ms = 12.5 (threshold <= 10)" in run.stdout


def test_a_figure_the_result_lacks_fails(tmp_path):
    tree(tmp_path, RESULT, [{"figure": "end_to_end.p50_ms", "at_most": 10}])
    run = check(tmp_path)
    assert run.returncode == 1 and "FAIL end_to_end.p50_ms = missing" in run.stdout


def test_a_benchmark_never_measured_fails_naming_the_command(tmp_path):
    tree(tmp_path, None, [{"figure": "x", "at_least": 1}])
    run = check(tmp_path)
    assert run.returncode == 1 and "speed: not measured yet (run: scripts/bench speed)" in run.stdout


def test_every_threshold_file_in_the_repository_names_a_command_and_figures():
    for path in sorted((ROOT / "Benchmarks" / "Thresholds").glob("*.json")):
        spec = json.loads(path.read_text())
        assert spec.get("run"), path
        assert spec.get("figures") and all("figure" in f and ("at_least" in f or "at_most" in f)
                                           for f in spec["figures"]), path
