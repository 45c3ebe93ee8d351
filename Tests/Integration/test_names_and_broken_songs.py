"""A guest is a person and a broken song is nobody's business but the host's (issue 41, items 1
and 6): the name a guest queues under is the name the run is stored under (`karaoke scores
--singer Ann`), and a guest's view of a song that cannot be read holds no server path.

The first test needs only `karaoke serve --no-audio`; the others a private PulseAudio
(`. scripts/lib/pulse-test-env.sh; pa_test_start`: a tone is sung into its source `mic`; the
phone pages capture Chromium's fake microphone)."""
import json
import math
import os
import pathlib
import shutil
import struct
import subprocess
import time
import wave

import pytest

from conftest import PIN, TINY_SONG, Server, karaoke_binary, wait, write_song_folders
from test_security import Client


class Recorder(Client):
    """A client that keeps every event it read, to check what reached it."""

    def __init__(self, port, **kwargs):
        super().__init__(port, **kwargs)
        self.seen = []

    def receive(self, timeout=5):
        message = super().receive(timeout)
        if message is not None:
            self.seen.append(message)
        return message

    def library_page(self, query):
        """A library page, asked again while the server is still reading the library."""
        deadline = time.time() + 30
        while True:
            self.send({"type": "library", "query": query})
            page = self.wait_for("library")
            if page is None or page.get("indexing") is None or time.time() > deadline:
                return page
            time.sleep(0.2)


def test_a_guest_never_sees_a_broken_songs_path_or_parse_error(tmp_path):
    songs = tmp_path / "songs"
    songs.mkdir()
    broken = TINY_SONG.replace("#TITLE:Tiny Test Song", "#TITLE:Broken Song").replace("#BPM:300\n", "")
    write_song_folders(songs, [("tiny", TINY_SONG), ("broken", broken)])
    server = Server(songs).start()
    try:
        guest = Recorder(server.port)
        guest.wait_for("hello")
        guest.send({"type": "hello", "role": "guest", "name": "Ann"})
        assert guest.wait_for("hello", where=lambda m: m["role"] == "guest")
        listed = next(song for song in guest.library_page("broken")["songs"] if song["id"] == "broken")
        assert listed["error"] == "can't be played right now", listed
        guest.send({"type": "queueAdd", "songId": "broken", "id": 7})
        refusal = guest.wait_for("error", where=lambda m: m.get("id") == 7)
        assert refusal["code"] == "unreadableSong" and refusal["message"].endswith("can't be played right now"), refusal

        host = Recorder(server.port)
        host.wait_for("hello")
        host.send({"type": "hello", "role": "host", "pin": PIN})
        assert host.wait_for("hello", where=lambda m: m["role"] == "host")
        reason = next(song for song in host.library_page("broken")["songs"] if song["id"] == "broken")["error"]
        print(f"\nthe host reads: {reason}")
        assert reason.startswith("broken/broken.txt") and "#BPM" in reason, reason

        seen = json.dumps(guest.seen, ensure_ascii=False)
        assert str(songs) not in seen and str(tmp_path) not in seen
        assert "#BPM" not in seen and "broken.txt" not in seen
        assert str(songs) not in json.dumps(host.seen, ensure_ascii=False)
        guest.close()
        host.close()
    finally:
        server.stop()


def write_wav(path, seconds, channels, tone_hz=None, rate=48000):
    """16-bit PCM: silence, or a sine at `tone_hz` (a voice the detector hears)."""
    frames = bytearray()
    for n in range(int(seconds * rate)):
        value = int(12000 * math.sin(2 * math.pi * tone_hz * n / rate)) if tone_hz else 0
        frames += struct.pack("<h", value) * channels
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))


def test_the_run_is_stored_under_the_name_the_guest_queued_with(tmp_path):
    if not os.environ.get("PULSE_SERVER") or not shutil.which("paplay"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    songs = tmp_path / "songs"
    songs.mkdir()
    write_song_folders(songs, [("tiny", TINY_SONG.replace("#MP3:tiny.ogg", "#MP3:tiny.wav"))])
    write_wav(songs / "tiny" / "tiny.wav", 11, 2)
    tone = tmp_path / "tone.wav"
    write_wav(tone, 14, 1, tone_hz=262)
    scores = tmp_path / "scores"
    server = Server(songs, options=["--scores", str(scores), "--mic", "mic"]).start()
    singer = None
    try:
        guest = Recorder(server.port)
        guest.wait_for("hello")
        guest.send({"type": "hello", "role": "guest", "name": "Ann"})
        assert guest.wait_for("hello", where=lambda m: m["role"] == "guest")
        guest.send({"type": "queueAdd", "songId": "tiny", "id": 1})
        assert guest.wait_for("queued", timeout=30), guest.seen[-5:]

        host = Recorder(server.port, timeout=10)
        host.wait_for("hello")
        host.send({"type": "hello", "role": "host", "pin": PIN})
        assert host.wait_for("hello", where=lambda m: m["role"] == "host")
        singer = subprocess.Popen(["paplay", "-d", "mic_sink", str(tone)])
        host.send({"type": "play"})
        seat = host.wait_for("state", timeout=30, where=lambda m: m["transport"] == "playing")
        assert seat and seat["singers"][0]["name"] == "Ann", seat
        final = host.wait_for("total", timeout=60, where=lambda m: m.get("final"))
        assert final and final["name"] == "Ann", final

        deadline = time.time() + 20
        while True:
            out = subprocess.run([karaoke_binary(), "scores", "--singer", "Ann", "--json",
                                  "--store", str(scores / "karaoke.sqlite")],
                                 check=True, capture_output=True, text=True).stdout
            history = json.loads(out).get("history") or []
            if any(run.get("status") == "complete" for run in history) or time.time() > deadline:
                break
            time.sleep(0.5)
        print(f"\nstored for Ann: {out[:400]}")
        assert [run["singer"] for run in history] == ["Ann"], out
        assert history[0]["songId"] == "tiny" and history[0]["status"] == "complete", out
        guest.close()
        host.close()
    finally:
        if singer:
            singer.terminate()
            singer.wait()
        server.stop()
        print(server.output()[-2000:])


def test_a_second_ann_on_a_phone_is_shown_the_name_she_sings_as(tmp_path):
    """Two phones both named Ann: the second page says it sings as "Ann (2)"; a phone page with
    no name of its own takes the one given on the remote ("Who's singing?")."""
    if not os.environ.get("PULSE_SERVER") or not shutil.which("paplay"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    from test_phone_mic import chromium, start_phone

    songs = tmp_path / "songs"
    songs.mkdir()
    write_song_folders(songs, [("tiny", TINY_SONG.replace("#MP3:tiny.ogg", "#MP3:tiny.wav"))])
    write_wav(songs / "tiny" / "tiny.wav", 11, 2)
    server = Server(songs, options=["--song", "tiny", "--no-mic", "--scores", str(tmp_path / "scores")]).start()
    pages = []
    try:
        for name in ("Ann", "Ann"):
            page = chromium(None, fake_file=None)
            pages.append(page)
            start_phone(page, server, name)
        status = lambda page: page.find_element("id", "phone-mic-status").text  # noqa: E731
        wait(pages[1], lambda d: "“Ann” is already singing here, so you are singing as Ann (2)" in status(d), timeout=30)
        assert status(pages[0]).startswith("singing as Ann"), status(pages[0])

        # The name from the remote's "Who's singing?" (same browser, same origin).
        page = chromium(None, fake_file=None)
        pages.append(page)
        page.get(server.url("/remote"))
        page.execute_script("localStorage.setItem('karaoke.name', 'Bo'); localStorage.removeItem('phoneMicName')")
        start_phone(page, server, "", button=True)
        wait(page, lambda d: status(d).startswith("singing as Bo"), timeout=30)
    finally:
        for page in pages:
            page.quit()
        server.stop()
