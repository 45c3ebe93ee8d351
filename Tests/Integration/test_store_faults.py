"""Store faults mid-song with a singing singer, against a real `karaoke serve` (issue 40): the
score database's file damaged, or its disk full, while a phone singer sings. The host's
WebSocket gets `store-write-failed` while it lasts and `store-write-recovered` once it is dealt
with; every line sung meanwhile is in the database afterwards (none lost, none named as lost),
and so is the run of a second phone singer who stayed silent (0 points, every line). A remote
opened as host during the fault shows it as a banner until the recovery.

The singer is a phone seat streaming a tone (the protocol's binary frames, as a phone page sends
them) so no browser is needed; the room plays through the private PulseAudio
(`. scripts/lib/pulse-test-env.sh; pa_test_start`). The full disk is a small tmpfs, so that case
needs to mount one (root); it is skipped with the reason otherwise.
"""
import json
import math
import os
import pathlib
import shutil
import struct
import subprocess
import threading
import time
import wave

import pytest

from selenium.webdriver.common.by import By

from conftest import PIN, Server, karaoke_binary, wait
from test_security import Client

RATE = 24000
LINES = 16


def song_text():
    """16 lines of two notes (C4, D4), one every 1.5 s from 0.5 s (BPM 300: a beat is 0.05 s)."""
    rows = ["#TITLE:Store Fault Song", "#ARTIST:Tests", "#MP3:backing.wav", "#BPM:300", "#GAP:500"]
    for k in range(LINES):
        rows += [f": {30 * k} 10 0 la", f": {30 * k + 10} 10 2 la", f"- {30 * k + 25}"]
    return "\n".join(rows + ["E", ""])


@pytest.fixture
def fault_song(tmp_path):
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    folder = tmp_path / "songs" / "fault"
    folder.mkdir(parents=True)
    (folder / "fault.txt").write_text(song_text(), encoding="utf-8")
    with wave.open(str(folder / "backing.wav"), "wb") as w:  # near-silence: the singer is the phone
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(b"\x01\x00\x01\x00" * int(48000 * 27))
    return tmp_path / "songs"


class Phone:
    """A phone seat streaming a C4 tone (or silence: `level` 0) in real time on its own thread."""

    def __init__(self, server, name, level=8000):
        self.level = level
        self.client = Client(server.port, timeout=10)
        self.client.wait_for("hello", timeout=10)
        self.client.send({"type": "phoneMic", "name": name})
        seat = self.client.wait_for("phoneMicSeat", timeout=10)
        assert seat, "no phone seat"
        self.slot = seat["slot"]
        self.started = time.monotonic()
        # Host seconds = phone audio seconds + offset; both clocks are this machine's monotonic one.
        self.client.send({"type": "phoneClockOffset", "offset": self.started, "rtt": 0.001})
        self.sent = 0
        self.running = True
        self.thread = threading.Thread(target=self.stream, daemon=True)
        self.thread.start()

    def stream(self):
        step = 2 * math.pi * 261.63 / RATE
        while self.running:
            due = int((time.monotonic() - self.started) * RATE)
            while self.sent + 480 <= due:
                samples = [int(self.level * math.sin(step * (self.sent + i))) for i in range(480)]
                frame = b"KM\x01" + bytes([self.slot]) + struct.pack("<QI", self.sent, RATE) + struct.pack("<480h", *samples)
                self.client.send_frame(2, frame)
                self.sent += 480
            self.client.receive(timeout=0.01)  # drain what the room sends (state, pitch)

    def stop(self):
        self.running = False
        self.thread.join(5)
        self.client.close()


class Host:
    """A host WebSocket reading every event on its own thread."""

    def __init__(self, server):
        self.client = Client(server.port, timeout=10)
        self.client.wait_for("hello", timeout=10)
        self.client.send({"type": "hello", "role": "host", "pin": PIN})
        assert self.client.wait_for("hello", timeout=10, where=lambda m: m.get("role") == "host")
        self.events = []
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while self.running:
            message = self.client.receive(timeout=0.5)
            if message:
                self.events.append(message)

    def error(self, code, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = [e for e in self.events if e.get("type") == "error" and e.get("code") == code]
            if found:
                return found[0]
            time.sleep(0.1)
        return None

    def position(self):
        states = [e for e in self.events if e.get("type") == "state"]
        return states[-1].get("position", 0) if states else 0

    def wait_position(self, seconds, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline and self.position() < seconds:
            time.sleep(0.1)
        assert self.position() >= seconds, f"the song did not reach {seconds} s"

    def wait_end(self, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(e.get("type") == "total" and e.get("final") for e in self.events):
                return
            time.sleep(0.2)
        raise AssertionError("the song did not end")

    def stop(self):
        self.running = False
        self.thread.join(5)
        self.client.close()


def stored(database, singer):
    """The singer's runs as `karaoke scores` reads them: [(run, [line indices])]."""
    import sqlite3

    out = subprocess.run([karaoke_binary(), "scores", "--singer", singer, "--json", "--database", str(database)],
                         check=True, capture_output=True, text=True, timeout=60).stdout
    runs = json.loads(out)["history"]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return [(run, [row[0] for row in db.execute(
            "SELECT lineIndex FROM lineResult WHERE performanceId = ? ORDER BY lineIndex", (run["id"],))]) for run in runs]


def sing_through_a_fault(songs, scores, break_it, fix_it, while_failing=None, after=None):
    """Plays the song with Ann singing on a phone and Bo on another staying silent; `break_it` at ~6 s, `fix_it` once the host
    heard the failure and three more seconds were sung. `while_failing(server)` runs before the
    fix, `after(server)` once the song ended. Returns the host's failed and recovered events."""
    server = Server(songs, options=["--song", "fault", "--no-mic", "--scores", str(scores)]).start()
    phone = silent = host = None
    try:
        host = Host(server)
        phone = Phone(server, "Ann")
        silent = Phone(server, "Bo", level=0)
        time.sleep(0.5)
        host.client.send({"type": "play"})
        host.wait_position(6)
        break_it()
        failed = host.error("store-write-failed", timeout=30)
        assert failed, "the host was not told that scores are not saved:\n" + server.output()[-3000:]
        # A few more lines are sung while it lasts, then it is dealt with.
        host.wait_position(host.position() + 3)
        if while_failing:
            while_failing(server)
        fix_it()
        recovered = host.error("store-write-recovered", timeout=60)
        assert recovered, "the host was not told the scores are saved again:\n" + server.output()[-3000:]
        host.wait_end()
        time.sleep(3)  # the run's finish reaches the database (the room waits up to 3 s for it too)
        if after:
            after(server)
        return failed, recovered
    finally:
        for who in (phone, silent, host):
            if who:
                who.stop()
        server.stop()


def assert_every_line_stored(database):
    """Ann's run and Bo's silent one, each once with every line (Bo's at 0 points)."""
    for singer in ("Ann", "Bo"):
        runs = stored(database, singer)
        print(f"stored for {singer}:", json.dumps(runs)[:600])
        assert len(runs) == 1, f"one run of {singer}'s: {runs}"
        run, lines = runs[0]
        assert run["status"] in ("complete", "interrupted"), run
        assert lines == list(range(LINES)), f"{singer}'s lines stored: {lines}"
        if singer == "Bo":
            assert run["total"] == 0, run


def test_a_database_damaged_mid_song_is_told_to_the_host_and_no_line_is_lost(fault_song, tmp_path, browser):
    scores = tmp_path / "scores"
    database = scores / "karaoke.sqlite"
    remote = []

    def banner(driver):
        element = driver.find_element(By.ID, "store-banner")
        return element.text if element.is_displayed() else ""

    def open_remote_during_the_fault(server):
        # A host who signs in while it lasts sees it on the remote, and it stays there.
        remote.append(browser(420, 900))
        remote[0].get(server.url(f"/remote#pin={PIN}"))
        wait(remote[0], lambda d: d.find_element(By.ID, "role").text.lower() == "host")
        wait(remote[0], lambda d: "Scores are not being saved" in banner(d), timeout=15)
        assert "damaged" in banner(remote[0])

    def banner_gone(server):
        wait(remote[0], lambda d: banner(d) == "", timeout=15)

    def damage():
        with open(database, "r+b") as f:
            f.write(b"\x5a" * 100)

    def move_aside():
        os.rename(database, scores / "karaoke.sqlite.damaged")

    failed, recovered = sing_through_a_fault(fault_song, scores, damage, move_aside,
                                             while_failing=open_remote_during_the_fault, after=banner_gone)
    print("failed:", failed["message"], "\nrecovered:", recovered["message"])
    assert "damaged" in failed["message"] and str(database) in failed["message"]
    assert_every_line_stored(database)
    assert (scores / "karaoke.sqlite.damaged").read_bytes()[:100] == b"\x5a" * 100, "the damaged file is left as it was"


def test_a_full_disk_mid_song_is_told_to_the_host_and_no_line_is_lost(fault_song, tmp_path):
    scores = tmp_path / "scores"
    scores.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(scores)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill ({mounted.stderr.strip()}); needs root")
    try:
        filler = scores / "filler"

        def fill():
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while os.write(fd, bytes(4096)) > 0:
                    pass
            except OSError:  # ENOSPC: the disk is full now
                pass
            finally:
                os.close(fd)

        failed, recovered = sing_through_a_fault(fault_song, scores, fill, lambda: filler.unlink())
        print("failed:", failed["message"], "\nrecovered:", recovered["message"])
        assert "full" in failed["message"]
        assert_every_line_stored(scores / "karaoke.sqlite")
    finally:
        subprocess.run(["umount", "-l", str(scores)], capture_output=True)
