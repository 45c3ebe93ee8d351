"""`karaoke songs` and `karaoke show` against the shipped demo songs and a scratch library."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("KARAOKE_BIN")
pytestmark = pytest.mark.skipif(not BIN, reason="KARAOKE_BIN not set (scripts/test sets it)")


def run(*args, env=None, check=True):
    return subprocess.run([BIN, *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=check,
                          env={**os.environ, **(env or {})})


def test_songs_lists_the_demo_as_json():
    entries = {e["id"]: e for e in json.loads(run("songs", "--json").stdout)}
    demo = entries["demo"]
    assert demo["title"] == "Morning on the Hill"
    assert demo.get("error") is None
    assert demo["notes"] > 80 and demo["lines"] > 10
    assert 60 < demo["duration"] < 95
    assert entries["demo-duet"]["parts"] == ["Morning Voice", "Evening Voice"]


def test_songs_reports_read_errors_per_folder(tmp_path):
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "song.txt").write_text("#TITLE:A\n#ARTIST:B\n#MP3:a.ogg\n#BPM:100\nnonsense\n")
    out = run("songs", env={"KARAOKE_SONGS": str(tmp_path)}).stdout
    assert "broken" in out
    assert "song.txt:5: unrecognised line 'nonsense'" in out


def test_show_prints_the_timeline_of_one_part():
    out = run("show", "demo-duet", "--part", "2").stdout
    assert "Part 2: Evening Voice" in out
    assert "Part 1" not in out
    assert "Sing, sing, let the river run," in out
    data = json.loads(run("show", "songs/demo/demo.lrc", "--json").stdout)
    assert data["format"] == "lrc"
    first = data["parts"][0]["lines"][0]
    assert first["start"] == 5.0 and first["text"].startswith("Morning light")


def test_show_rejects_unknown_songs_and_parts():
    assert run("show", "no-such-song", check=False).returncode != 0
    result = run("show", "demo", "--part", "3", check=False)
    assert result.returncode != 0 and "--part 3" in result.stderr
