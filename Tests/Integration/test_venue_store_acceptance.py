"""Issue 16's acceptance on one PostgreSQL: two `karaoke serve` rooms sing the demo song (its vocal
guide played into the private PulseAudio's mic) while two `karaoke score --save` runs save at the
same time; mid-song PostgreSQL stops, the Red room is killed with SIGKILL while it is down, then
PostgreSQL comes back and Red is started again on the same --scores (it replays its spool).
Every line either room announced as scored (`lineScore`) must be stored once, and
`karaoke scores --store postgres://…` must list the runs with their rooms.

Needs: a private PulseAudio (`. scripts/lib/pulse-test-env.sh; pa_test_start`) and the Debian
PostgreSQL server binaries (the test starts a cluster of its own, which it stops and starts)."""
import asyncio
import json
import os
import pathlib
import shutil
import subprocess
import threading
import time

import pytest
import websockets

from conftest import PIN, ROOT, Server, karaoke_binary

PG_BIN = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb"))
pytestmark = pytest.mark.skipif(not PG_BIN, reason="needs the PostgreSQL server binaries (apt-get install postgresql)")
needs_pulse = pytest.mark.skipif(not os.environ.get("PULSE_SERVER") or not shutil.which("paplay"),
                                 reason="needs the private PulseAudio (scripts/lib/pulse-test-env.sh)")
SONGS = ROOT / "songs"
VOCALS = SONGS / "demo" / "vocals.ogg"


@pytest.fixture
def cluster():
    """A PostgreSQL of this test's own (scripts/lib/postgres-test-env.sh): (url, ctl script)."""
    out = subprocess.run(
        ["bash", "-c", f". '{ROOT}/scripts/lib/postgres-test-env.sh' && pg_test_start && "
                       "echo \"$KARAOKE_TEST_POSTGRES\" && echo \"$PG_DIR\""],
        check=True, capture_output=True, text=True, timeout=120).stdout.split()
    url, directory = out[-2], out[-1]
    try:
        yield url, directory + "/ctl"
    finally:
        subprocess.run([directory + "/ctl", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


def psql(url, sql):
    return subprocess.run(["psql", "-X", "-At", "-F", "|", "-d", url, "-c", sql], check=True,
                          capture_output=True, text=True, timeout=30).stdout


class Listener:
    """A host connection to a room: collects its `lineScore` line indices and `error` codes."""

    def __init__(self, port):
        self.port, self.lines, self.errors, self.stopped = port, set(), [], False
        self.loop = asyncio.new_event_loop()
        self.connected = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.listen(),), daemon=True)
        self.thread.start()
        assert self.connected.wait(20), f"no host connection to port {port}"

    async def listen(self):
        try:
            async with websockets.connect(f"ws://127.0.0.1:{self.port}/", max_queue=None, ping_interval=None) as ws:
                self.ws = ws
                await ws.send(json.dumps({"type": "hello", "role": "host", "pin": PIN}))
                self.connected.set()
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "lineScore":
                        self.lines.add(message["line"])
                    elif message["type"] == "error":
                        self.errors.append(message["code"])
                    elif message["type"] == "state" and message.get("transport") == "stopped" and message.get("position", 0) > 1:
                        self.stopped = True
        except Exception:  # noqa: BLE001 — the room was killed
            pass

    def send(self, kind):
        asyncio.run_coroutine_threadsafe(self.ws.send(json.dumps({"type": kind})), self.loop).result(5)


def wait_until(condition, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def room(name, url, scores):
    return Server(SONGS, options=["--song", "demo", "--room", name, "--store", url, "--scores", str(scores),
                                  "--mic", "mic", "--singer", name + " Singer"])


@needs_pulse
def test_two_rooms_and_two_saves_lose_no_line_through_a_restart_and_a_kill(cluster, tmp_path):
    url, ctl = cluster
    binary = karaoke_binary()
    blue = room("Blue", url, tmp_path / "blue").start()
    red = room("Red", url, tmp_path / "red").start()
    red_again = None
    singer = None
    try:
        ears = {"Blue": Listener(blue.port), "Red": Listener(red.port)}
        for ear in ears.values():
            ear.send("play")
        singer = subprocess.Popen(["paplay", "-d", "mic_sink", str(VOCALS)])
        saves = [subprocess.Popen([binary, "score", str(SONGS / "demo" / "demo.txt"), str(VOCALS), "--save", "--singer", who,
                                   "--store", url, "--room", desk], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for who, desk in (("Cy", "Desk 1"), ("Dee", "Desk 2"))]
        for save in saves:
            out, _ = save.communicate(timeout=300)
            assert save.returncode == 0, out

        wait_until(lambda: len(ears["Red"].lines) >= 4 and len(ears["Blue"].lines) >= 4, 90, "four scored lines in each room")
        subprocess.run([ctl, "stop"], check=True, capture_output=True, timeout=60)
        # Red scores lines PostgreSQL cannot take, then dies without a chance to store them.
        red_before = len(ears["Red"].lines)
        wait_until(lambda: len(ears["Red"].lines) >= red_before + 2, 30, "two lines scored while PostgreSQL is down")
        time.sleep(0.3)
        red.process.kill()
        red.process.wait(10)
        red_lines = set(ears["Red"].lines)
        time.sleep(3)
        subprocess.run([ctl, "start"], check=True, capture_output=True, timeout=60)

        wait_until(lambda: ears["Blue"].stopped, 120, "the Blue room's song to end")
        assert "store-write-failed" in ears["Blue"].errors, ears["Blue"].errors
        wait_until(lambda: "store-write-recovered" in ears["Blue"].errors, 30, "Blue's held-back lines to drain")

        red_again = room("Red", url, tmp_path / "red").start()
        wait_until(lambda: not list((tmp_path / "red" / "spool").glob("*.spool")) or
                   psql(url, "SELECT count(*) FROM lineResult l JOIN performance p ON p.id = l.performanceId "
                             "WHERE p.room = 'Red'").strip() == str(len(red_lines)), 60, "Red's spool to be replayed")

        stored = {}
        for row in psql(url, "SELECT p.room, l.lineIndex FROM lineResult l JOIN performance p ON p.id = l.performanceId").splitlines():
            name, index = row.split("|")
            stored.setdefault(name, []).append(int(index))
        for name in ("Blue", "Red"):
            assert len(stored[name]) == len(set(stored[name])), f"{name}: a line stored twice: {sorted(stored[name])}"
        assert set(ears["Blue"].lines) <= set(stored["Blue"]), (sorted(ears["Blue"].lines), sorted(stored["Blue"]))
        assert red_lines <= set(stored["Red"]), (sorted(red_lines), sorted(stored["Red"]))
        assert len(stored["Desk 1"]) == len(stored["Desk 2"]) >= 16

        board = json.loads(subprocess.run([binary, "scores", "--store", url, "--json"], check=True,
                                          capture_output=True, text=True, timeout=60).stdout)["leaderboard"]
        assert sorted(p["room"] for p in board) == ["Blue", "Desk 1", "Desk 2"], board
        history = json.loads(subprocess.run([binary, "scores", "--store", url, "--singer", "Red Singer", "--json"], check=True,
                                            capture_output=True, text=True, timeout=60).stdout)["history"]
        assert [(p["room"], p["status"]) for p in history] == [("Red", "in-progress")], history
    finally:
        if singer and singer.poll() is None:
            singer.kill()
        for server in (blue, red, red_again):
            if server:
                server.stop()


def test_serve_starts_while_postgres_is_down_and_stores_once_it_is_back(cluster, tmp_path, songs_dir):
    url, ctl = cluster
    subprocess.run([ctl, "stop"], check=True, capture_output=True, timeout=60)
    server = Server(songs_dir, options=["--no-audio", "--song", "tiny", "--room", "Blue", "--store", url,
                                        "--scores", str(tmp_path / "scores")]).start()
    try:
        banner = "".join(server.banner)
        assert "scores delayed" in banner and "cannot reach PostgreSQL" in banner, banner
        assert list((tmp_path / "scores" / "spool").glob("*.spool")), "the room keeps a spool for held-back writes"
        subprocess.run([ctl, "start"], check=True, capture_output=True, timeout=60)
        # The heartbeat (every 5 s) reaches the store once it is back: the room is listed.
        def listed():
            try:  # the room creates the tables on its first write after PostgreSQL is back
                return psql(url, "SELECT count(*) FROM venueRoom WHERE name = 'Blue'") == "1\n"
            except subprocess.CalledProcessError:
                return False
        wait_until(listed, 30, "the room's heartbeat")
    finally:
        server.stop()
    assert not list((tmp_path / "scores" / "spool").glob("*.spool")), "a clean stop with nothing held back removes the spool"
