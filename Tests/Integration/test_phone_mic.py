"""Phones as microphones (issue 17), end to end: real headless Chromium pages capture audio with
an AudioWorklet and stream it over the page's WebSocket into the server's detector and scoring.

The room under test is a private PulseAudio (`. scripts/lib/pulse-test-env.sh; pa_test_start`).
The test song is the demo song with a stereo backing L = backing + singer, R = backing − singer:
the room's speakers carry the singer in perfect time with the music, while the mono mix the
server keeps as its bleed reference, (L + R) / 2, is the backing alone. A phone that hears
`room_left` (the left speaker) hears the singer with the backing bleeding in, as a phone in a
singing room does; one that hears `room_mix` hears only the backing: a guest who does not sing.
Chromium picks its PulseAudio source from PULSE_SOURCE.
"""
import json
import os
import pathlib
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from conftest import PIN, ROOT, Server, karaoke_binary, screenshot, wait
from test_security import Client

DEMO = ROOT / "songs" / "demo"


def pactl(*arguments):
    return subprocess.run(["pactl", *arguments], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="module")
def room_audio():
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    modules = [
        pactl("load-module", "module-remap-source", "source_name=room_left", "master=speaker.monitor", "channels=1",
              "channel_map=mono", "master_channel_map=front-left", "remix=no"),
        pactl("load-module", "module-remap-source", "source_name=room_mix", "master=speaker.monitor", "channels=1",
              "channel_map=mono"),
    ]
    # Keep the new sources running (a suspended source delivers nothing at first).
    keepalives = [subprocess.Popen(["parecord", "--raw", "--latency-msec=10", "-d", s, "/dev/null"])
                  for s in ("room_left", "room_mix")]
    yield
    for process in keepalives:
        process.terminate()
        process.wait()
    for module in modules:
        subprocess.run(["pactl", "unload-module", module], check=False)


@pytest.fixture(scope="module")
def singing_song():
    """The demo song with the singer in its stereo backing (see the module docstring)."""
    import numpy as np
    import soundfile as sf

    backing, rate = sf.read(str(DEMO / "backing.ogg"), dtype="float32")
    vocals, vrate = sf.read(str(DEMO / "vocals.ogg"), dtype="float32")
    assert rate == vrate
    if rate != 48000:  # the room's rate: the server need not resample at load (slow in a debug build)
        from scipy.signal import resample_poly
        backing, vocals = (resample_poly(x, 160, 147).astype("float32") for x in (backing, vocals))
        rate = 48000
    n = min(len(backing), len(vocals))
    backing, vocals = backing[:n], vocals[:n]
    scale = 0.45 / max(1e-6, float(np.max(np.abs(backing)) + np.max(np.abs(vocals))))
    stereo = np.stack([(backing + vocals) * scale, (backing - vocals) * scale], axis=1)
    with tempfile.TemporaryDirectory(prefix="karaoke-phone-songs-") as directory:
        folder = pathlib.Path(directory) / "sung"
        folder.mkdir()
        text = (DEMO / "demo.txt").read_text(encoding="utf-8")
        text = text.replace("#MP3:backing.ogg", "#MP3:backing.wav").replace("#VOCALS:vocals.ogg\n", "")
        (folder / "sung.txt").write_text(text, encoding="utf-8")
        sf.write(str(folder / "backing.wav"), stereo, rate, subtype="FLOAT")
        yield pathlib.Path(directory)


def chromium(source, width=390, height=844, fake_file=None):
    """Headless Chromium capturing the PulseAudio source `source` (or a fake-device file)."""
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--use-fake-ui-for-media-stream",
                     "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(argument)
    if fake_file:
        options.add_argument("--use-fake-device-for-media-stream")
        options.add_argument(f"--use-file-for-fake-audio-capture={fake_file}")
    env = dict(os.environ)
    if source:
        env["PULSE_SOURCE"] = source
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver", env=env))


def start_phone(driver, server, name, extra="", button=False):
    """Opens the singer page as a phone mic: by its button, or by the `#mic&name=` fragment."""
    if button:
        driver.get(server.url(f"/#name={name}{extra}"))
        wait(driver, lambda d: d.execute_script("return !!window.phoneMic"), timeout=10)
        driver.find_element("id", "use-phone-mic").click()
    else:
        driver.get(server.url(f"/#mic&name={name}{extra}"))
        wait(driver, lambda d: d.execute_script("return !!window.phoneMic"), timeout=10)
    wait(driver, lambda d: d.execute_script("return window.phoneMic.seat !== null && window.phoneMic.offset !== null"),
         timeout=15)


class Host:
    """A host WebSocket that plays the song and collects totals."""

    def __init__(self, server):
        self.client = Client(server.port, timeout=10)
        self.client.wait_for("hello", timeout=10)
        self.client.send({"type": "hello", "role": "host", "pin": PIN})
        assert self.client.wait_for("hello", timeout=10, where=lambda m: m.get("role") == "host")
        self.events = []
        self.stop_reading = False
        self.thread = None

    def read_in_background(self):
        def run():
            while not self.stop_reading:
                message = self.client.receive(timeout=0.5)
                if message:
                    self.events.append(message)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def send(self, message):
        self.client.send(message)

    def finals(self):
        return {e["singer"]: e for e in self.events if e.get("type") == "total" and e.get("final")}

    def state(self):
        states = [e for e in self.events if e.get("type") == "state"]
        return states[-1] if states else None

    def close(self):
        self.stop_reading = True
        if self.thread:
            self.thread.join(5)
        self.client.close()


def sing_song(server, host, timeout=130):
    """Plays the loaded song to its end; returns the final totals by singer."""
    host.send({"type": "play"})
    deadline = time.time() + timeout
    while time.time() < deadline:
        time.sleep(0.5)
        state = host.state()
        if state and state["transport"] == "stopped" and host.finals() and time.time() > deadline - timeout + 10:
            break
    time.sleep(1.5)
    return host.finals()


def stored(scores_dir, singer):
    out = subprocess.run([karaoke_binary(), "scores", "--singer", singer, "--json",
                          "--database", str(pathlib.Path(scores_dir) / "karaoke.sqlite")],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def room_server(songs, scores, options):
    return Server(songs, options=["--song", "sung", "--scores", str(scores), *options]).start()


def calibrate_pulse(host, singer):
    host.send({"type": "calibrate", "singer": singer})
    deadline = time.time() + 30
    while time.time() < deadline:
        time.sleep(0.3)
        state = host.state()
        seat = next((s for s in state["singers"] if s["singer"] == singer), None) if state else None
        if state and state.get("calibratingSinger") is None and seat and seat.get("micDelaySource") == "calibrated":
            return seat["effectiveMicDelayMs"]
    raise AssertionError(f"singer {singer} was not calibrated: {host.state()}")


def calibrate_phone(driver):
    """Presses the page's Calibrate button; returns the delay the phone shows (ms)."""
    driver.execute_script("window.calibrated = null; window.karaoke.on('phoneMicCalibrated', m => { window.calibrated = m; });")
    driver.find_element("id", "calibrate-phone-mic").click()
    result = wait(driver, lambda d: d.execute_script("return window.calibrated"), timeout=30)
    assert result.get("delayMs") is not None, result
    shown = driver.find_element("id", "phone-mic-delay").text
    assert f"{round(result['delayMs'])} ms" in shown, shown
    return result["delayMs"]


def test_calibration_measures_a_known_phone_delay(room_audio, singing_song, tmp_path):
    server = room_server(singing_song, tmp_path, ["--no-mic"])
    aligned, late = chromium("room_left"), chromium("room_left")
    try:
        start_phone(aligned, server, "Ann", button=True)
        start_phone(late, server, "Late", extra="&testDelayMs=150")
        host = Host(server)
        host.read_in_background()
        first = calibrate_phone(aligned)
        slow = calibrate_phone(late)
        again = calibrate_phone(aligned)
        print(f"phone delays: aligned {first:.1f} ms, again {again:.1f} ms; 150 ms late {slow:.1f} ms")
        host.close()
    finally:
        aligned.quit()
        late.quit()
        server.stop()
    assert abs(slow - first - 150) <= 10
    assert abs(again - first) <= 10


def test_phone_singers_score_like_a_pulseaudio_mic_late_or_not_and_a_silent_phone_does_not(room_audio, singing_song, tmp_path):
    """One room, one song: a PulseAudio mic and three phones, each calibrated once. Ann's and
    the Pulse mic hear the singer; Late hears it too, 150 ms later; Bob hears only the backing."""
    server = room_server(singing_song, tmp_path, ["--mic", "room_left", "--singer", "Pulse"])
    ann_page, late_page, bob_page = chromium("room_left"), chromium("room_left"), chromium("room_mix")
    try:
        start_phone(ann_page, server, "Ann", button=True)
        start_phone(late_page, server, "Late", extra="&testDelayMs=150")
        start_phone(bob_page, server, "Bob")
        host = Host(server)
        host.read_in_background()
        time.sleep(1)
        seats = {s["name"]: s["singer"] for s in host.state()["singers"] if s.get("source") == "phone"}
        assert set(seats) == {"Ann", "Late", "Bob"}, host.state()["singers"]
        pulse_delay = calibrate_pulse(host, 0)
        ann_delay, late_delay = calibrate_phone(ann_page), calibrate_phone(late_page)
        finals = sing_song(server, host)
        screenshot(ann_page, "phone-mic-singing-390x844")
        pulse, ann, late, bob = (finals[s]["score"] for s in (0, seats["Ann"], seats["Late"], seats["Bob"]))
        sent = ann_page.execute_script("return [window.phoneMic.sentFrames, window.phoneMic.sentBytes, window.phoneMic.droppedFrames]")
        print(f"delays: pulse {pulse_delay:.1f} ms, Ann {ann_delay:.1f} ms, Late {late_delay:.1f} ms; totals: pulse {pulse:.0f}, "
              f"Ann {ann:.0f}, Late {late:.0f}, Bob (silent) {bob:.0f}; Ann sent {sent[0]} frames, {sent[1]} bytes, dropped {sent[2]}")
        # The song ended: the pages stopped their microphones and gave their seats back.
        wait(ann_page, lambda d: d.execute_script("return window.phoneMic.stream === null"), timeout=10)
        host.close()
    finally:
        for page in (ann_page, late_page, bob_page):
            page.quit()
        server.stop()
    stored_ann = stored(tmp_path, "Ann")
    print("stored:", json.dumps(stored_ann)[:600])
    assert ann >= 8000
    assert abs(ann - pulse) <= 0.05 * pulse
    assert abs(late_delay - ann_delay - 150) <= 10
    assert abs(late - ann) <= 0.05 * ann
    assert bob <= 300
