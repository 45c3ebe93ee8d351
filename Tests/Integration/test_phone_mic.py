"""Phones as microphones (issue 17), end to end: real headless Chromium pages capture audio with
an AudioWorklet and stream it over the page's WebSocket into the server's detector and scoring.

The room under test is a private PulseAudio (`. scripts/lib/pulse-test-env.sh; pa_test_start`).
The room plays the demo song's backing. The singer is not in what the room plays (a real singer
is not in the speakers, and the server removes whatever its speakers play as bleed): the
`room_air.py` process records the room's playback, follows where in the song it is, and writes
the air of the room into its own sink, left = playback + the demo's singer in time with it,
right = playback alone. A phone that hears `room_left` hears the singer with the backing
bleeding in, as a phone in a singing room does; one that hears `room_mix` hears only the
backing: a guest who does not sing. Chromium picks its PulseAudio source from PULSE_SOURCE.
"""
import base64
import bisect
import json
import math
import os
import pathlib
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from conftest import PIN, ROOT, TINY_SONG, Server, karaoke_binary, screenshot, wait
from test_security import Client

DEMO = ROOT / "songs" / "demo"


def pactl(*arguments):
    return subprocess.run(["pactl", *arguments], check=True, capture_output=True, text=True).stdout.strip()


def demo_tracks():
    """The demo song's backing and singer at the room's rate (48 kHz), scaled as the test song
    plays them: (backing, singer)."""
    import numpy as np
    import soundfile as sf

    backing, rate = sf.read(str(DEMO / "backing.ogg"), dtype="float32")
    vocals, vrate = sf.read(str(DEMO / "vocals.ogg"), dtype="float32")
    assert rate == vrate
    if rate != 48000:  # the room's rate: the server need not resample at load (slow in a debug build)
        from scipy.signal import resample_poly
        backing, vocals = (resample_poly(x, 48000 // 300, rate // 300).astype("float32") for x in (backing, vocals))
    n = min(len(backing), len(vocals))
    scale = 0.45 / max(1e-6, float(np.max(np.abs(backing[:n])) + np.max(np.abs(vocals[:n]))))
    return backing[:n] * scale, vocals[:n] * scale


@pytest.fixture(scope="module")
def singing_song():
    """The demo song as the room plays it: its backing alone (the singer is in the air, not in
    the song; see the module docstring)."""
    import numpy as np
    import soundfile as sf

    backing, _ = demo_tracks()
    with tempfile.TemporaryDirectory(prefix="karaoke-phone-songs-") as directory:
        folder = pathlib.Path(directory) / "sung"
        folder.mkdir()
        text = (DEMO / "demo.txt").read_text(encoding="utf-8")
        text = text.replace("#MP3:backing.ogg", "#MP3:backing.wav").replace("#VOCALS:vocals.ogg\n", "")
        (folder / "sung.txt").write_text(text, encoding="utf-8")
        sf.write(str(folder / "backing.wav"), np.stack([backing, backing], axis=1), 48000, subtype="FLOAT")
        yield pathlib.Path(directory)


@pytest.fixture(scope="module")
def room_audio():
    """The room's air (see the module docstring): sink `air`, sources `room_left` (a singer's
    phone) and `room_mix` (a guest who does not sing); sink `phones_out` for the pages' output."""
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    import numpy as np

    # The sound server at the priority a desktop gives it (high-priority=yes: nice -11), not the
    # test daemon's default 0, where three browser pages beside it starved the room's sink.
    if os.environ.get("PA_PID"):
        renice_threads(int(os.environ["PA_PID"]), -11)
    modules = [pactl("load-module", "module-null-sink", "sink_name=air", "rate=48000", "channels=2"),
               pactl("load-module", "module-null-sink", "sink_name=phones_out", "rate=48000", "channels=2")]
    for name, channel in (("room_left", "front-left"), ("room_mix", "front-right")):
        modules.append(pactl("load-module", "module-remap-source", f"source_name={name}", "master=air.monitor",
                             "channels=1", "channel_map=mono", f"master_channel_map={channel}", "remix=no"))
    with tempfile.TemporaryDirectory(prefix="karaoke-room-air-") as directory:
        backing, singer = demo_tracks()
        np.save(f"{directory}/backing.npy", backing)
        np.save(f"{directory}/singer.npy", singer)
        log = open(f"{directory}/air.log", "w")
        air = subprocess.Popen([sys.executable, str(pathlib.Path(__file__).with_name("room_air.py")),
                                f"{directory}/backing.npy", f"{directory}/singer.npy", "air"],
                               stdout=log, stderr=subprocess.STDOUT)
        # Keep the new sources running (a suspended source delivers nothing at first).
        keepalives = [subprocess.Popen(["parecord", "--raw", "--latency-msec=10", "-d", s, "/dev/null"])
                      for s in ("room_left", "room_mix")]
        try:
            yield
        finally:
            for process in (*keepalives, air):
                process.terminate()
                process.wait()
            log.close()
            print("room air:", pathlib.Path(f"{directory}/air.log").read_text())
            for module in reversed(modules):
                subprocess.run(["pactl", "unload-module", module], check=False)


def renice_threads(pid, nice):
    """Sets every thread of process `pid` to `nice` (on Linux a nice value is per thread)."""
    for task in pathlib.Path(f"/proc/{pid}/task").glob("*"):
        try:
            os.setpriority(os.PRIO_PROCESS, int(task.name), nice)
        except OSError:
            pass


def descendants(pid):
    children = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def keep_off_the_room(driver):
    """Every thread of the page's browser at nice 19: Chromium raises its own audio threads
    (nice -8), which on this box then outran the room's playback (see `chromium`)."""
    for pid in descendants(driver.service.process.pid):
        renice_threads(pid, 19)


def phone_browser():
    """Chromium kept off the room's CPU (see `chromium`): on the last core only, niced."""
    cores = os.cpu_count() or 1
    pin = f"taskset -c {cores - 1} " if cores > 1 and shutil.which("taskset") else ""
    path = pathlib.Path(tempfile.gettempdir()) / f"karaoke-test-phone-chromium-{cores}"
    path.write_text(f'#!/bin/sh\nexec {pin}nice -n 10 /usr/bin/chromium "$@"\n')
    path.chmod(0o755)
    return str(path)


def chromium(source, width=520, height=844, fake_file=None):
    """Headless Chromium capturing the PulseAudio source `source` (or a fake-device file)."""
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    # A guest's phone does not share the room's CPU: here it does, so the pages run on one core
    # and the room keeps the other (three pages beside it starved the room's playback into
    # ~100 underruns of 10-130 ms per song on this 2-core box, which no real room has; Chromium
    # re-nices its renderers, so nice alone did not help).
    options.binary_location = phone_browser()
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
        # A phone's own loudspeaker is not the room's: the page's audio graph (silent, but a
        # stream) goes to a sink of its own. On the room's sink, every page opening or closing
        # its stream made PulseAudio rewind and re-render the room's sink, so what the room's
        # air carried jumped by up to 45 ms against what the server played.
        env["PULSE_SINK"] = "phones_out"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver", env=env))


def start_phone(driver, server, name, extra="", button=False):
    """Opens the singer page as a phone mic: by its button, or by the `#mic&name=` fragment."""
    # Generous bounds: they tell "never came" from "came"; how fast a page starts is not judged
    # (a loaded CI box took over 10 s to start Chromium's audio).
    if button:
        driver.get(server.url(f"/#name={name}{extra}"))
        wait(driver, lambda d: d.execute_script("return !!window.phoneMic"), timeout=30)
        driver.find_element("id", "use-phone-mic").click()
    else:
        driver.get(server.url(f"/#mic&name={name}{extra}"))
        wait(driver, lambda d: d.execute_script("return !!window.phoneMic"), timeout=30)
    wait(driver, lambda d: d.execute_script("return window.phoneMic.seat !== null && window.phoneMic.offset !== null"),
         timeout=45)
    keep_off_the_room(driver)


class Host:
    """A host WebSocket that plays the song and collects totals."""

    def __init__(self, server):
        self.client = Client(server.port, timeout=10)
        self.client.wait_for("hello", timeout=10)
        self.client.send({"type": "hello", "role": "host", "pin": PIN})
        hello = self.client.wait_for("hello", timeout=10, where=lambda m: m.get("role") == "host")
        assert hello
        # The room's state as of the hello: a room that is not playing sends the next `state` only
        # when something changes, so waiting for one could wait for ever (it did on a starved box).
        self.events = [{"type": "state", **hello["state"]}] if hello.get("state") else []
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


def sing_song(server, host, timeout=240, already_playing=False):
    """Plays the loaded song to its end; returns the final totals by singer."""
    if not already_playing:
        host.send({"type": "play"})
    started = time.time()
    while time.time() < started + timeout:
        time.sleep(0.5)
        state = host.state()
        if state and state["transport"] == "stopped" and host.finals() and time.time() > started + 10:
            break
    time.sleep(1.5)
    return host.finals()


def stored(scores_dir, singer):
    out = subprocess.run([karaoke_binary(), "scores", "--singer", singer, "--json",
                          "--store", str(pathlib.Path(scores_dir) / "karaoke.sqlite")],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def room_server(songs, scores, options):
    return Server(songs, options=["--song", "sung", "--scores", str(scores), *options]).start()


def calibrate_pulse(host, singer):
    """The remote's Calibrate for a PulseAudio mic singer; returns its measured delay (ms)."""
    errors_before = len([e for e in host.events if e.get("type") == "error"])
    host.send({"type": "calibrate", "singer": singer})
    deadline = time.time() + 30
    while time.time() < deadline:
        time.sleep(0.3)
        state = host.state()
        seat = next((s for s in state["singers"] if s["singer"] == singer), None) if state else None
        if state and state.get("calibratingSinger") is None and seat and seat.get("micDelaySource") == "calibrated":
            return seat["effectiveMicDelayMs"]
        errors = [e for e in host.events if e.get("type") == "error"][errors_before:]
        if errors:
            raise AssertionError(f"calibrating singer {singer}: {errors}")
    raise AssertionError(f"singer {singer} was not calibrated: {host.state()}")


def calibrate_phone(driver):
    """Presses the page's Calibrate button; returns the delay the phone shows (ms)."""
    driver.execute_script("window.calibrated = null; window.karaoke.on('phoneMicCalibrated', m => { window.calibrated = m; });")
    driver.find_element("id", "calibrate-phone-mic").click()
    result = wait(driver, lambda d: d.execute_script("return window.calibrated"), timeout=30)
    assert result.get("delayMs") is not None, result
    shown = driver.find_element("id", "phone-mic-delay").text
    assert f"{math.floor(result['delayMs'] + 0.5)} ms" in shown, shown  # JS Math.round
    return result["delayMs"]


def click_places(signal, rate):
    """Sample positions of the calibration clicks in a recording or a phone's stream: peaks
    above half the clicks' level, at least 0.4 s apart (a phone's clicks are 0.6–1.08 s apart).
    The clicks' level is the (1 + n/4)-th loudest of the n bursts above a tenth of the loudest
    sample, as the server's calibrator takes it: one louder burst anywhere in a long stream
    must not hide the clicks."""
    import numpy as np

    magnitude = np.abs(signal)

    def peaks_over(threshold):
        places, at = [], 0
        while True:
            over = np.flatnonzero(magnitude[at:] > threshold)
            if len(over) == 0:
                return places
            start = at + int(over[0])
            places.append(start + int(np.argmax(magnitude[start:start + rate // 100])))
            at = start + int(0.4 * rate)

    bursts = sorted((float(magnitude[p]) for p in peaks_over(0.1 * float(magnitude.max()))), reverse=True)
    if not bursts:
        return []
    return peaks_over(0.5 * bursts[len(bursts) // 4])


def click_pairs(played, sent, rate, near=None, tolerance=0.04):
    """One calibration's clicks as the speakers played them, paired with the phone stream's:
    the shift that pairs the most played clicks with a sent one within `tolerance` seconds (no
    two click-to-click distances are within 60 ms, so another shift pairs one or two), searched within 0.4 s
    of `near` (samples) if given, else among the first 12 sent clicks (the first calibration's).
    Returns [(played sample, stream sample)]."""
    import numpy as np

    sent = np.asarray(sent)
    candidates = sent if near is not None else sent[:12]
    best = []
    for p in played:
        for d in candidates - p:
            if near is not None and abs(d - near) > 0.4 * rate:
                continue
            pairs = [(x, int(sent[np.argmin(np.abs(sent - (x + d)))])) for x in played]
            pairs = [(x, y) for x, y in pairs if abs(y - x - d) <= tolerance * rate]
            if len(pairs) > len(best):
                best = pairs
    return best


def frame_starts_of(blob, first_index, frame_count):
    """Each sent frame's first sample in the stream (16-byte header + 240 samples per frame)."""
    return [struct.unpack_from("<Q", blob, k * 496 + 4)[0] - first_index for k in range(frame_count)]


def clock_offset_at(stream_sample, frame_starts, sent_times, offsets):
    """The clock offset the server held when the frame holding `stream_sample` came: the last
    one the page sent before that frame."""
    frame = max(0, bisect.bisect_right(frame_starts, stream_sample) - 1)
    sent_at = sent_times[min(frame, len(sent_times) - 1)]
    return max((o for o in offsets if o[0] <= sent_at), key=lambda o: o[0], default=offsets[0])[1]


def test_calibration_measures_a_known_phone_delay(room_audio, singing_song, tmp_path):
    """The same phone page calibrated three times: as it is, made 150 ms slower (its capture
    DelayNode), then back. The true change between calibrations is measured outside the server,
    click by click: where each click sits in the frames the page sent against PulseAudio's own
    recording of the speakers (the test's air, the page's capture and its DelayNode moving it),
    plus the clock offset the page had sent for that frame (its stamps moving). Each calibration
    must land within 10 ms of the first plus that true change. (The path really moves: by
    13–21 ms between calibrations in some runs, which the old check, "back equals the first",
    counted as the calibration's error.)"""
    import numpy as np
    from test_phone_stream import KEEP_SENT_AUDIO, READ_SENT_AUDIO, frames_to_stream

    server = room_server(singing_song, tmp_path, ["--no-mic"])
    page = chromium("room_left")
    recorder = None
    rate = 24000
    try:
        page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_SENT_AUDIO})
        start_phone(page, server, "Ann", button=True)
        host = Host(server)
        host.read_in_background()
        time.sleep(10)  # a fresh capture's browser buffering settles first (docs/phone-mics.md)
        # What the room's speakers played, as PulseAudio records it (a long buffer: nothing dropped).
        recording_started = time.monotonic()
        recorder = subprocess.Popen(["parecord", "--raw", "--format=float32le", f"--rate={rate}", "--channels=1",
                                     "--latency-msec=500", "-d", "speaker.monitor", str(tmp_path / "played.raw")])
        time.sleep(1)
        measured, spans = [], []
        for node_delay in (0, 0.15, 0):
            page.execute_script(f"window.phoneMic.delay.delayTime.value = {node_delay}")
            began = time.monotonic()
            measured.append(calibrate_phone(page))
            spans.append((began - recording_started, time.monotonic() - recording_started))
        time.sleep(1)
        recorder.terminate()
        recorder.wait()
        recorder = None
        blob = base64.b64decode(page.execute_script(READ_SENT_AUDIO))
        sent_times = page.execute_script("return window.sentTimes")
        offsets = page.execute_script("return window.sentOffsets")
        load = os.getloadavg()[0]
        host.close()
    finally:
        if recorder:
            recorder.terminate()
            recorder.wait()
        page.quit()
        server.stop()
    first, slow, again = measured
    first_index, stream, frame_count, jumps = frames_to_stream(blob)
    frame_starts = frame_starts_of(blob, first_index, frame_count)
    played = np.fromfile(tmp_path / "played.raw", dtype="<f4")
    played_clicks, sent_clicks = click_places(played, rate), click_places(stream, rate)

    # Per click, as the calibrator sees it: where the click sits in the stream against where the
    # speakers played it (the air, the page's capture, its DelayNode), plus the clock offset the
    # server held when that click's frame came (the last one the page sent before the frame).
    # Per calibration, the median of its clicks, as the calibrator takes; only changes count
    # (the recording's start is arbitrary).
    def offset_for(stream_sample):
        return clock_offset_at(stream_sample, frame_starts, sent_times, offsets)

    lags, held, stamp_lags, near = [], [], [], None
    for start, end in spans:
        clicks = [p for p in played_clicks if start - 0.7 <= p / rate <= end + 0.5]
        pairs = click_pairs(clicks, sent_clicks, rate, near)
        assert len(pairs) >= 5, (
            f"calibration {len(lags) + 1}: {len(pairs)} of {len(clicks)} played clicks found in the stream "
            f"(played at {[round(c / rate, 2) for c in clicks]} s of the recording; the stream holds {len(sent_clicks)} "
            f"clicks in {frame_count} frames, at {[round(c / rate, 2) for c in sent_clicks]} s; index jumps {jumps})")
        near = float(np.median([y - x for x, y in pairs]))
        lags.append(near / rate)
        held.append(float(np.median([offset_for(y) for _, y in pairs])))
        stamp_lags.append(float(np.median([(y - x) / rate + offset_for(y) for x, y in pairs])))
    truth = [first + 1000 * (stamp_lags[k] - stamp_lags[0]) for k in range(3)]
    errors = [measured[k] - truth[k] for k in range(3)]
    print(f"phone delays: {first:.1f} ms, 150 ms slower {slow:.1f} ms (+{slow - first:.1f}), back {again:.1f} ms; "
          f"true (first + the audio's and the offset's moves): {truth[1]:.1f} / {truth[2]:.1f} ms "
          f"(the stream against the speakers moved {1000 * (lags[1] - lags[0]):+.1f} / {1000 * (lags[2] - lags[0]):+.1f} ms, offset "
          f"{1000 * (held[1] - held[0]):+.1f} / {1000 * (held[2] - held[0]):+.1f} ms); errors {errors[1]:+.1f} / "
          f"{errors[2]:+.1f} ms; index jumps {jumps}; load average {load:.1f}")
    # The DelayNode's 150 ms is in the stream (the outside measurement sees it, give or take
    # what the path itself moved), and the calibration measures the step.
    assert abs((lags[1] - lags[0]) * 1000 - 150) <= 40, lags
    assert abs(slow - first - 150) <= 25 + abs(truth[1] - first - 150)
    assert max(abs(e) for e in errors[1:]) <= 25, errors
    # Issue 17: within 10 ms of the true value.
    if load > 4 and max(abs(e) for e in errors[1:]) > 10:
        pytest.xfail(f"calibration {errors[1]:+.1f} / {errors[2]:+.1f} ms off the true change at load average {load:.1f}")
    assert max(abs(e) for e in errors[1:]) <= 10, errors


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
        # The host's first state may come a while after it joined on a starved box.
        state = wait_for_state(host, lambda st: len([s for s in st["singers"] if s.get("source") == "phone"]) == 3, 30)
        seats = {s["name"]: s["singer"] for s in (state or host.state() or {"singers": []})["singers"]
                 if s.get("source") == "phone"}
        assert set(seats) == {"Ann", "Late", "Bob"}, host.state()
        # What the browser says it does to the captured audio: processing bends pitch and hides
        # the backing from the reference (the page asks for all of it off).
        settings = bob_page.execute_script(
            "const t = window.phoneMic.stream && window.phoneMic.stream.getAudioTracks()[0]; return t ? t.getSettings() : null")
        print("Bob's capture settings:", settings)
        assert settings and not settings.get("echoCancellation") and not settings.get("noiseSuppression") \
            and not settings.get("autoGainControl"), settings
        pulse_delay = calibrate_pulse(host, 0)
        ann_delay, late_delay = calibrate_phone(ann_page), calibrate_phone(late_page)
        finals = sing_song(server, host)
        screenshot(ann_page, "phone-mic-singing-390x844")
        totals = {}
        for event in host.events:
            if event.get("type") == "total":
                totals[event["singer"]] = (event["score"], event["final"])
        print("last totals by singer:", totals, "seats:", seats)
        pulse, ann, late, bob = (finals[s]["score"] for s in (0, seats["Ann"], seats["Late"], seats["Bob"]))
        sent = ann_page.execute_script("return [window.phoneMic.sentFrames, window.phoneMic.sentBytes, window.phoneMic.droppedFrames]")
        print(f"delays: pulse {pulse_delay:.1f} ms, Ann {ann_delay:.1f} ms, Late {late_delay:.1f} ms; totals: pulse {pulse:.0f}, "
              f"Ann {ann:.0f}, Late {late:.0f}, Bob (silent) {bob:.0f}; Ann sent {sent[0]} frames, {sent[1]} bytes, dropped {sent[2]}")
        # The song ended: the pages stopped their microphones and gave their seats back (after the
        # room's automatic re-calibration of a seat whose timing was flagged: ~12 s of clicks per
        # phone, one phone after the other; docs/phone-mics.md).
        wait(ann_page, lambda d: d.execute_script("return window.phoneMic.stream === null"), timeout=45)
        host.close()
    finally:
        for page in (ann_page, late_page, bob_page):
            page.quit()
        server.stop()
        log = "".join(line for line in server.output().splitlines(True) if "phone" in line or "calibrat" in line)
        print("server log:", log)
    stored_ann = stored(tmp_path, "Ann")
    print("stored:", json.dumps(stored_ann)[:600])
    status = stored_ann["history"][0]["status"]
    lost = re.search(r"phone singer Ann gave up seat \d+ \([^)]*\): .*audio lost (\d+) times", log)
    assert lost, log
    print(f"Ann's page dropped {sent[2]} frames; the server counted {lost[1]} lost spans")
    assert pulse >= 8000, pulse
    dropped_share = sent[2] / max(sent[0] + sent[2], 1)
    if dropped_share > 0.01:
        # A starved box made her page drop audio (its send queue past ~1 s; 15 % of it in one CI
        # run): the room scored what arrived, and the loss is not silent. The same-audio
        # comparisons below need (nearly) the same audio, at most 1 % dropped (a quiet box drops
        # ~0.6 %, at the start); here what must hold is that the run is stored and she is still
        # heard: at least half the mic's score (15 % dropped gave 73-75 %), above the silent phone.
        assert status in ("complete", "interrupted"), stored_ann["history"][0]
        assert ann >= 0.5 * pulse and ann > bob, (ann, pulse, bob)
        print(f"Ann's audio was not all delivered ({sent[2]} frames dropped): {ann:.0f} against the mic's {pulse:.0f}, not compared")
        return
    # Issue 17: the phone scores within 5 % of the same audio through a PulseAudio mic, >= 8000.
    assert ann >= 8000, (ann, pulse)
    # Unless the box stalled mid-song and moved Ann's capture path: the room sees the backing
    # arrive that much later in her stream, flags the seat once the move has held 3 s, follows it
    # in the scoring from then on and calibrates again after the song (docs/phone-mics.md); the
    # lines between the move and the flag are scored on the old delay.
    moved = re.search(r"phone singer Ann: the music arrives ([+-][0-9.]+) ms off where it did after its calibration", log)
    if moved and abs(float(moved[1])) >= 40 and abs(ann - pulse) > 0.05 * pulse:
        assert re.search(r"automatic re-calibration of singer \d+'s phone: mic delay", log), log
        pytest.xfail(f"Ann's capture path moved {moved[1]} ms mid-song (a stall of this box): {ann:.0f} vs {pulse:.0f}; "
                     "re-calibrated after the song")
    assert abs(ann - pulse) <= 0.05 * pulse
    load = os.getloadavg()[0]
    # Two browsers: each calibration also carries its own browser's capture latency at that
    # moment, which a starved CPU moves by tens of ms (docs/phone-mics.md).
    if load > 4 and abs(late - ann) > 0.05 * ann:
        pytest.xfail(f"the late phone scored {late:.0f} vs {ann:.0f} at load average {load:.1f}")
    assert abs(late - ann) <= 0.05 * ann
    # A whole song sung through the phone is stored complete: lines are marked lost only when
    # judged without their audio (docs/phone-mics.md "Lines sung without audio"), so a stall of
    # this box shorter than the 2.5 s a line waits for a phone (PhoneMicSlot.lineWait) no longer marks them.
    # Audio that really never came is another matter: a box starved for over ~0.7 s makes the page
    # drop audio, and the server counts the lost spans when the seat is
    # given up. Then "interrupted" is the truth; without any loss the run must be complete.
    if sent[2] == 0 and lost[1] == "0":
        assert status == "complete", stored_ann["history"][0]
    else:
        assert status in ("complete", "interrupted"), stored_ann["history"][0]
    # The silent phone hears only the backing: 183, 263 and 286 with the room's air apparatus at
    # low load, 649 once at load 11 (docs/phone-mics.md); asserted where the box is not starved.
    if bob > 300 and load > 4:
        pytest.xfail(f"silent phone scored {bob:.0f} > 300 at load average {load:.1f} (docs/phone-mics.md)")
    assert bob <= 300, bob


class LogTail:
    """The server's log as it grows, each line with the wall time the test read it (every
    50 ms): the log's own stamps are whole seconds, too coarse for where a reading stood."""

    def __init__(self, server):
        self.path = pathlib.Path(server.log.name)
        self.lines = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self):
        offset, partial = 0, b""
        while not self._stop.wait(0.05):
            with open(self.path, "rb") as log:
                log.seek(offset)
                data = log.read()
            offset += len(data)
            *complete, partial = (partial + data).split(b"\n")
            now = time.time()
            self.lines.extend((now, line.decode("utf-8", "replace")) for line in complete)

    def stop(self):
        self._stop.set()
        self._thread.join()


def held_value(timeline, begin, end, step=0.1):
    """The median over wall times `begin`…`end` of a value that holds from each stamped
    statement in `timeline` [(wall time, value)] to the next; None where nothing was stated yet."""
    import numpy as np
    samples = []
    for k in range(int(round((end - begin) / step)) + 1):
        at = begin + k * step
        stated = [value for when, value in timeline if when <= at]
        if stated:
            samples.append(stated[-1])
    return float(np.median(samples)) if samples else None


def path_lags(later, earlier, rate, start_lag, begin, end, window=0.2, search=0.15, quality=0.9):
    """Where each window of the recording `earlier` (from sample `begin` to `end`, every 0.1 s)
    sits in `later`, which carries the same sound further down the path: [(earlier sample,
    later - earlier)]. Each window is searched within `search` seconds of the last match (the
    demo's bars repeat a beat or more apart) and counts if it matches to `quality`."""
    import numpy as np
    from test_phone_stream import best_match

    track, lag, size = [], start_lag, int(window * rate)
    for at in range(max(0, begin), min(end, len(earlier)) - size, rate // 10):
        segment = earlier[at:at + size]
        if float(np.dot(segment, segment)) < 1e-4 * size:
            continue
        found, r = best_match(later, segment, at + lag - int(search * rate), at + lag + int(search * rate))
        if found is not None and r >= quality:
            lag = found - at
            track.append((at, lag))
    return track


def onset_lag(later, earlier, start, rate):
    """How far `later` carries `earlier`'s song start (sample `start`), found from half a second
    of silence and the first two seconds of the song: the one place its repeating bars do not hide."""
    from test_phone_stream import best_match

    begin = max(0, start - rate // 2)
    onset = earlier[begin:start + 2 * rate]
    place, r = best_match(later, onset, 0, len(later) - len(onset))
    assert r > 0.9, f"the song's start is not found further down the path (r {r:.2f})"
    return place - begin


def test_a_phone_whose_capture_path_grows_mid_song_is_scored_where_its_audio_now_is(room_audio, singing_song, tmp_path):
    """Ann's phone is calibrated; 25 s into the song its capture path grows by 120 ms (the page's
    measurement aid shifts its stamps, as a browser's buffering or a stall of the box did in a
    fresh-clone run: +79.6 ms, Ann 9136 against 10000). The room hears the backing arrive that
    much later in her stream, follows the move in her scoring once it has held 3 s, and calibrates
    her again after the song: she still scores like the PulseAudio mic hearing the same air.

    The path's real move is measured outside the server: the speakers' playback as PulseAudio
    records it, found window by window in the test's air, and the air found in the frames the page sent. On a loaded box Chromium's
    capture drops whole chunks (21.3 ms at 48 kHz) by itself, so the move is not always the
    page's 120 ms (a CI run: +76.4 ms, the step less two chunks), and the room must state what
    really happened."""
    import numpy as np
    import soundfile as sf
    from scipy.signal import resample_poly
    from test_phone_stream import KEEP_SENT_AUDIO, READ_SENT_AUDIO, best_match, frames_to_stream

    moved_ms = 120
    rate = 24000
    server = room_server(singing_song, tmp_path, ["--mic", "room_left", "--singer", "Pulse"])
    tail = LogTail(server)
    ann_page = chromium("room_left")
    recorders = []
    try:
        ann_page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_SENT_AUDIO})
        start_phone(ann_page, server, "Ann")
        host = Host(server)
        host.read_in_background()
        state = wait_for_state(host, lambda st: any(s.get("source") == "phone" for s in st["singers"]), 30)
        assert state, host.state()
        ann_seat = next(s["singer"] for s in state["singers"] if s.get("source") == "phone")
        pulse_delay = calibrate_pulse(host, 0)
        ann_delay = calibrate_phone(ann_page)
        recording_started = time.monotonic()
        # What the room's speakers played and the air her phone hears (left; right: the playback
        # alone), as PulseAudio records them (long buffers: nothing dropped).
        recorders = [subprocess.Popen(["parecord", "--raw", "--format=float32le", f"--rate={rate}",
                                       f"--channels={channels}", "--latency-msec=500", "-d", source,
                                       str(tmp_path / f"{name}.raw")])
                     for name, source, channels in (("played", "speaker.monitor", 1), ("air", "air.monitor", 2))]
        time.sleep(1)
        host.send({"type": "play"})
        assert wait_for_state(host, lambda st: st["transport"] == "playing" and st["position"] >= 25, 60), host.state()
        ann_page.execute_script(f"window.phoneMic.delay.delayTime.value = {moved_ms / 1000}")
        stepped_at, stepped_wall = time.monotonic() - recording_started, time.time()
        # Once the room follows the move, her page says so beside her delay.
        shown_on_phone = wait(ann_page, lambda d: "moved since" in d.find_element("id", "phone-mic-delay").text and
                              d.find_element("id", "phone-mic-delay").text, timeout=30)
        screenshot(ann_page, "phone-mic-timing-followed-520x844")
        finals = sing_song(server, host, already_playing=True)
        for recorder in recorders:
            recorder.terminate()
            recorder.wait()
        recorders = []
        followed = [s for e in host.events if e.get("type") == "state" for s in e["singers"]
                    if s["singer"] == ann_seat and s.get("needsCalibration")]
        # The page stops its microphone after the room's re-calibration of her flagged seat.
        wait(ann_page, lambda d: d.execute_script("return window.phoneMic.stream === null"), timeout=45)
        blob = base64.b64decode(ann_page.execute_script(READ_SENT_AUDIO))
        sent_times = ann_page.execute_script("return window.sentTimes")
        offsets = ann_page.execute_script("return window.sentOffsets")
        host.close()
    finally:
        for recorder in recorders:
            recorder.terminate()
            recorder.wait()
        ann_page.quit()
        server.stop()
        tail.stop()
        log = "".join(line for line in server.output().splitlines(True) if "phone" in line or "calibrat" in line)
        print("server log:", log)
    pulse, ann = finals[0]["score"], finals[ann_seat]["score"]
    shown = [s.get("effectiveMicDelayMs") for s in followed]
    load = os.getloadavg()[0]
    print(f"phone page: {shown_on_phone!r}")
    print(f"delays: pulse {pulse_delay:.1f} ms, Ann {ann_delay:.1f} ms, shown while flagged {shown[:3]}; "
          f"totals: pulse {pulse:.0f}, Ann {ann:.0f}; load average {load:.1f}")

    # Her path outside the server, in two parts: the speakers' playback into the air (the test's
    # room, found in the air's right channel), and the air she hears (left) into what her page
    # sent, with the clock offset the page had sent for each frame (the server maps her stream
    # through it). Each part has the very same sound at both ends, so its windows match closely.
    first_index, stream, frame_count, jumps = frames_to_stream(blob)
    frame_starts = frame_starts_of(blob, first_index, frame_count)
    played = np.fromfile(tmp_path / "played.raw", dtype="<f4")
    air = np.fromfile(tmp_path / "air.raw", dtype="<f4")
    heard, alone = air[0::2], air[1::2]
    stereo, _ = sf.read(str(singing_song / "sung" / "backing.wav"), dtype="float32")
    backing = resample_poly(stereo.mean(axis=1), 1, 2).astype("float32")
    for second in (1, 5, 10):
        song_start, r = best_match(played, backing[second * rate:(second + 1) * rate], 0, (second + 20) * rate)
        if r > 0.9:
            song_start -= second * rate
            break
    assert r > 0.9, f"the song is not in PulseAudio's recording (r {r:.2f})"
    # The song's start found down each part of the path; on a loaded box the page's stream may
    # not carry it cleanly enough (r 0.88 in one run), and the outside measure is then lost.
    try:
        into_air = onset_lag(alone, played, song_start, rate)
        into_stream = onset_lag(stream, heard, song_start + into_air, rate)
    except AssertionError as lost:
        print(f"outside measure: {lost}")
        into_air = into_stream = None

    def offset_for(stream_sample):
        return clock_offset_at(stream_sample, frame_starts, sent_times, offsets)

    step = int(stepped_at * rate)
    # Before the step: 4 s up to a quarter second short of it; after: from half a second to 6 s
    # (the room's readings take a block or two to move, and longer on a loaded box).
    before_window, after_window = (-4, -0.25), (0.5, 6)
    span = (step - 4 * rate, step + 6 * rate)
    found = into_air is not None
    room_track = path_lags(alone, played, rate, into_air, *span) if found else []
    page_track = path_lags(stream, heard, rate, into_stream, span[0] + into_air, span[1] + into_air) if found else []

    def across_step(track, shift, to_ms):
        before = [to_ms(at, lag) for at, lag in track
                  if step + before_window[0] * rate <= at - shift <= step + before_window[1] * rate]
        after = [to_ms(at, lag) for at, lag in track
                 if step + after_window[0] * rate <= at - shift <= step + after_window[1] * rate]
        # Too few windows matched: the outside measure lost the path (a loaded box: Chromium's
        # stream full of gaps), which says nothing of the room.
        if len(before) < 10 or len(after) < 10:
            return None, (len(before), len(after))
        return float(np.median(after) - np.median(before)), (len(before), len(after))

    room_move, room_windows = across_step(room_track, 0, lambda at, lag: 1000 * lag / rate)
    page_move, page_windows = across_step(page_track, into_air or 0, lambda at, lag: 1000 * (lag / rate + offset_for(at + lag)))
    print(f"her path outside the server across the page's {moved_ms} ms step: the room's air {room_move} ms "
          f"({room_windows} windows before/after matched), the page {page_move} ms ({page_windows}); "
          f"index jumps {jumps[:10]}")

    flagged = re.search(r"phone singer Ann: the music arrives ([+-][0-9.]+) ms off where it did after its calibration"
                        r".*its scoring follows the move", log)
    assert flagged, log
    # The state shows the delay in effect while it is followed.
    assert followed and abs(shown[0] - ann_delay - float(flagged[1])) <= 25, (ann_delay, shown)
    # Every move the room followed, in order. The box moves her path by itself too: once by
    # -20.6 ms before the page's step (then +99.4 ms), and by another 70-100 ms when her stream
    # stalled about 67 s in (+119.4 then +198.2 ms); the page's 120 ms is one step between two of them.
    # (Read from every line that states where her timing is: flagged, moved on, back.)
    moves = [float(next(v for v in found if v)) for found in re.findall(
        r"phone singer Ann: (?:the music arrives ([+-][0-9.]+) ms off where|its timing moved on \(([+-][0-9.]+) ms\)"
        r"|timing back within 20 ms of its calibration \(([+-][0-9.]+) ms\))", log)]
    # The log states each move of her lag once; the one across the page's step is the move her
    # path really made there, as measured outside (the page's 120 ms, and whatever chunks
    # Chromium dropped in the same moment). A quiet box makes it the page's 120 ms itself.
    stated = [(float(a), float(b), float(c)) for a, b, c in re.findall(
        r"phone singer Ann: the music now arrives ([0-9.]+) ms late in its stream "
        r"\(([+-][0-9.]+) ms since the last move, ([+-][0-9.]+) ms since its calibration\)", log)]
    # The flag is where the music then arrived, against her calibration's lag.
    assert any(abs(since - float(flagged[1])) <= 0.15 for _, _, since in stated), (stated, flagged[1])
    # The re-calibration after the song finds the last move.
    recalibrated = re.search(r"automatic re-calibration of singer \d+'s phone: mic delay ([0-9.]+) ms", log)
    assert recalibrated and abs(float(recalibrated[1]) - ann_delay - moves[-1]) <= 40, (ann_delay, moves, log)
    # Issue 17's bound, kept through the move: within 5 % of the PulseAudio mic.
    assert pulse >= 8000, pulse
    assert abs(ann - pulse) <= 0.05 * pulse, (ann, pulse)
    # Last, what the room stated against the path's real move outside (the user-facing checks
    # above hold whatever the load).
    if room_move is None or page_move is None:
        if load > 4:
            pytest.xfail(f"the outside measure lost her path at load average {load:.1f} (windows matched before/after: "
                         f"air {room_windows}, page {page_windows}); Ann {ann:.0f} against {pulse:.0f}")
        raise AssertionError(f"the outside measure lost her path on a quiet box: air {room_windows}, page {page_windows}")
    real_move = room_move + page_move
    print(f"the path's move across the page's {moved_ms} ms step, measured outside: {real_move:+.1f} ms; "
          f"stated by the room: {[change for _, change, _ in stated]}")
    assert real_move >= moved_ms / 2, (room_move, page_move)
    # The room's side over the same seconds: where its stated lag stood (each statement holds
    # until the next), as a median, after the step against before it. Under load its readings
    # reach a new lag in a few stated moves (+98.8, -10.2, +9.6, +20 for a real +119.3 ms) and
    # wobble by 10-20 ms between moves; a median over seconds is what they say. The after
    # window starts a second later than outside: a reading needs its blocks of audio analysed.
    timeline = [(when, float(lag)) for when, line in tail.lines for lag in re.findall(
        r"phone singer Ann: the music (?:now )?arrives ([0-9.]+) ms late in its stream", line)]
    held_before = held_value(timeline, stepped_wall + before_window[0], stepped_wall + before_window[1])
    held_after = held_value(timeline, stepped_wall + after_window[0] + 1, stepped_wall + after_window[1])
    assert held_before is not None and held_after is not None, (timeline, stepped_wall)
    print(f"the room's stated lag before the step {held_before:.1f} ms, after it {held_after:.1f} ms "
          f"({held_after - held_before:+.1f} ms)")
    assert abs(held_after - held_before - real_move) <= 20, (real_move, timeline, stepped_wall)


def test_a_phone_dropping_off_mid_song_is_marked_lost_and_one_joining_mid_song_is_scored(room_audio, singing_song, tmp_path):
    server = room_server(singing_song, tmp_path, ["--no-mic"])
    cat_page, dan_page = chromium("room_left"), chromium("room_left")
    eve_page = None
    try:
        start_phone(cat_page, server, "Cat")
        start_phone(dan_page, server, "Dan")
        host = Host(server)
        host.read_in_background()
        state = wait_for_state(host, lambda st: len([s for s in st["singers"] if s.get("source") == "phone"]) == 2, 30)
        seats = {s["name"]: s["singer"] for s in (state or host.state() or {"singers": []})["singers"]
                 if s.get("source") == "phone"}
        assert set(seats) == {"Cat", "Dan"}, host.state()
        # Cat is calibrated once, as the acceptance has it: her score then measures the
        # room's handling of Dan leaving and Eve joining, not the default delay's guess (an
        # uncalibrated Cat scored 7955-8634 in that one respect).
        calibrate_phone(cat_page)
        host.send({"type": "play"})
        wait_position(host, 25)
        # The phone is gone mid-song (out of the Wi-Fi, the screen locked): no more frames and no
        # goodbye. A page that closes says goodbye and frees its seat at once
        # (test_phone_leaving.py), so the page is frozen instead: its socket open and silent.
        dan_page.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
        dropped = time.time()
        lost = wait_for_state(host, lambda st: any(s.get("name") == "Dan" and s.get("phoneStatus") == "lost"
                                                   for s in st["singers"]), timeout=5)
        lost_after = time.time() - dropped
        eve_page = chromium("room_left")
        start_phone(eve_page, server, "Eve")
        eve_seat = wait_for_state(host, lambda st: any(s.get("name") == "Eve" for s in st["singers"]), timeout=10)
        eve = next(s["singer"] for s in eve_seat["singers"] if s.get("name") == "Eve")
        finals = sing_song(server, host, already_playing=True)
        totals = {}
        for event in host.events:
            if event.get("type") == "total":
                totals[event["singer"]] = event["score"]
        print(f"Dan marked lost {lost_after:.2f} s after his page vanished; totals {totals}; finals {finals}")
        host.close()
    finally:
        for page in (cat_page, dan_page, eve_page):
            if page:
                page.quit()
        server.stop()
    assert lost is not None and lost_after <= 2.5
    # Eve's practice run from where she joined was judged (a total for her seat).
    assert eve in totals
    # Dan's lines after his phone vanished are stored marked micLost (not as a silent singer's),
    # and his run is not a complete performance.
    import sqlite3
    with sqlite3.connect(tmp_path / "karaoke.sqlite") as db:
        rows = db.execute("SELECT l.lineIndex, l.micLost, p.status FROM lineResult l JOIN performance p "
                          "ON p.id = l.performanceId WHERE p.singer = 'Dan' ORDER BY l.lineIndex").fetchall()
    print("Dan's stored lines (index, micLost, run status):", rows)
    assert rows and all(status != "complete" for _, _, status in rows)
    after_drop = [lost for index, lost, _ in rows if index >= 5]  # line 5 starts after 25 s
    assert after_drop and all(after_drop)
    # Cat sang the whole song through her phone.
    assert finals[seats["Cat"]]["score"] >= 8000, finals


def wait_position(host, seconds, timeout=60):
    return wait_for_state(host, lambda st: st["transport"] == "playing" and st["position"] >= seconds, timeout)


def wait_for_state(host, predicate, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = host.state()
        if state and predicate(state):
            return state
        time.sleep(0.05)
    return None


# ------------------------------------------------------------- eight phones at once (measured)

FRAME = 240  # 10 ms at 24 kHz, as the page sends


class FakePhone:
    """A phone page's network behaviour without a browser: takes a seat, syncs its clock (it
    runs on this machine, so its steady clock is the server's host clock: offset 0), and streams
    20 ms frames paced in real time, each stamped with the host time of its first sample."""

    def __init__(self, port, name, signal):
        self.client = Client(port, timeout=10)
        # browsers send without Nagle (Chromium sets TCP_NODELAY on every socket); so does the fake
        self.client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.client.wait_for("hello", timeout=10)
        self.client.send({"type": "phoneMic", "name": name})
        seat = self.client.wait_for("phoneMicSeat", timeout=10)
        assert seat, f"{name} got no seat"
        self.slot, self.singer = seat["slot"], seat["singer"]
        self.client.send({"type": "phoneClockOffset", "offset": 0.0, "rtt": 0.0})
        self.signal = signal
        self.received = 0
        self.sent = 0
        self.running = True
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while self.running:
            frame = self.client._frame()
            if frame:
                opcode, payload = frame
                self.received += len(payload)
                if opcode == 9:
                    self.client.send_frame(10, payload)
                continue
            try:
                self.client.sock.settimeout(0.2)
                chunk = self.client.sock.recv(1 << 16)
            except (socket.timeout, OSError):
                continue
            if not chunk:
                return
            self.client.buffer += chunk

    def send_frame(self, index, samples):
        import numpy as np
        header = struct.pack("<2sBBQI", b"KM", 1, self.slot, index, 24000)
        payload = header + samples.astype("<i2").tobytes()
        n = len(payload)
        head = bytes([0x82]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        mask = os.urandom(4)
        masked = (np.frombuffer(payload, dtype=np.uint8) ^ np.resize(np.frombuffer(mask, dtype=np.uint8), n)).tobytes()
        self.client.sock.sendall(head + mask + masked)
        self.sent += len(head) + 4 + n

    def close(self):
        self.running = False
        self.reader.join(2)
        self.client.close()


def burst_signal(seconds, rate=24000, period=3.0, tone=1.0, hz=220.0):
    """Tone bursts (a steady sung note) every `period` s, silence between: clear onsets to time."""
    import numpy as np
    t = np.arange(int(seconds * rate)) / rate
    on = (t % period) < tone
    return (on * 0.3 * np.sin(2 * np.pi * hz * t) * 32767).astype("int16"), on


def process_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stream_phones(phones, seconds, host):
    """Streams every phone's bursts for `seconds`; returns each burst onset's host time per singer."""
    start = round(time.monotonic() * 24000)
    onsets = {}
    frames = int(seconds * 24000 / FRAME)
    for k in range(frames):
        first = start + k * FRAME
        due = (first + FRAME) / 24000  # the frame's last sample has been "captured"
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        for phone in phones:
            samples = phone.signal[0][k * FRAME:(k + 1) * FRAME]
            on = phone.signal[1]
            if on[k * FRAME] and (k == 0 or not on[k * FRAME - 1]):
                onsets.setdefault(phone.singer, []).append(first / 24000)
            phone.send_frame(first, samples)
    return onsets


def onset_latencies(host, onsets):
    """Glass-to-event: from a burst's first sample to the first voiced `pitch` event for it."""
    arrivals = {}
    for event, arrived in host.timed_pitch:
        if event.get("hz", 0) > 0:
            arrivals.setdefault(event["singer"], []).append(arrived)
    latencies = []
    for singer, times in onsets.items():
        heard = sorted(arrivals.get(singer, []))
        for onset in times:
            later = [a for a in heard if a >= onset]
            if later and later[0] - onset < 1.0:
                latencies.append(later[0] - onset)
    return latencies


def record_output(path):
    return subprocess.Popen(["parecord", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
                             "--latency-msec=20", "-d", "speaker.monitor", str(path)])


def output_gaps(path):
    """Runs of exact silence >= 5 ms inside the recorded music: playback underruns (the demo
    backing never rests that long)."""
    import numpy as np
    audio = np.frombuffer(pathlib.Path(path).read_bytes(), dtype="<i2").reshape(-1, 2)[:, 0]
    playing = np.flatnonzero(audio != 0)
    if not len(playing):
        return 0
    inner = audio[playing[0]:playing[-1]]
    zero = np.concatenate([[0], (inner == 0).astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(zero))
    return int(np.sum(edges[1::2] - edges[0::2] >= 240))


def test_eight_phones_at_once(room_audio, singing_song, tmp_path):
    """Measured (docs/phone-mics.md): server CPU per phone, bandwidth, glass-to-event latency,
    playback underruns, each beside the same room playing with no phone."""
    import numpy as np

    server = room_server(singing_song, tmp_path, ["--no-mic"])
    phones = []
    seconds = 20
    try:
        host = Host(server)
        host.timed_pitch = []
        original = host.client.receive

        def timed_receive(timeout=5):
            message = original(timeout)
            if message and message.get("type") == "pitch":
                host.timed_pitch.append((message, time.monotonic()))
            return message
        host.client.receive = timed_receive
        host.read_in_background()
        host.send({"type": "play"})
        wait_position(host, 1)
        recorder = record_output(tmp_path / "alone.raw")
        cpu0 = process_cpu_seconds(server.process.pid)
        time.sleep(seconds)
        idle_cpu = (process_cpu_seconds(server.process.pid) - cpu0) / seconds
        recorder.terminate()
        recorder.wait()
        signal = burst_signal(seconds)
        phones = [FakePhone(server.port, f"Load{i}", signal) for i in range(8)]
        recorder = record_output(tmp_path / "phones.raw")
        cpu0 = process_cpu_seconds(server.process.pid)
        wall0 = time.monotonic()
        onsets = stream_phones(phones, seconds, host)
        wall = time.monotonic() - wall0
        busy_cpu = (process_cpu_seconds(server.process.pid) - cpu0) / wall
        recorder.terminate()
        recorder.wait()
        time.sleep(1)
        latencies = onset_latencies(host, onsets)
        up = sum(p.sent for p in phones) / len(phones) / wall
        down = sum(p.received for p in phones) / len(phones) / wall
        host.send({"type": "stop"})
        host.close()
    finally:
        for phone in phones:
            phone.close()
        server.stop()
    load = os.getloadavg()[0]
    gaps_alone, gaps_phones = output_gaps(tmp_path / "alone.raw"), output_gaps(tmp_path / "phones.raw")
    # What the server itself says: its playback thread's priority and the underruns it counted.
    said = server.output()
    priority = re.search(r"playback thread: (.*)", said)
    counted = re.findall(r"the speakers went silent .* \(([0-9]+) since start\)", said)
    print(f"\nserver: playback thread {priority[1] if priority else '(not stated)'}; "
          f"underruns it reported: {counted[-1] if counted else 0}")
    lat = np.array(latencies) * 1000
    print(f"\n8 phones: server CPU {idle_cpu * 100:.1f} % of a core playing with no phone, {busy_cpu * 100:.1f} % with 8 "
          f"-> {(busy_cpu - idle_cpu) / 8 * 100:.1f} % per phone; up {up / 1000:.1f} kB/s, down {down / 1000:.1f} kB/s per phone; "
          f"glass-to-event over {len(lat)} onsets: median {np.median(lat):.0f} ms, p95 {np.percentile(lat, 95):.0f} ms, "
          f"max {lat.max():.0f} ms; playback gaps >= 5 ms in {seconds} s: {gaps_alone} alone, {gaps_phones} with 8 phones; "
          f"load average {load:.1f}")
    # Every burst of every phone was heard as pitch.
    assert len(lat) >= 8 * (seconds // 3) - 8
    if load > 4:
        pytest.xfail(f"timing acceptance (no underrun, every event within 60 ms) not judged at load average {load:.1f} "
                     "on 2 cores; figures above and in docs/phone-mics.md")
    assert gaps_phones == 0
    # Issue 17: every phone's pitch events within 60 ms of its sound. Measured 2026-11-25 (release,
    # load 0.7-8.9): median 31-34, p95 33-38, max 33-40 ms, of which 29.65 ms are the 10 ms frames
    # and the detector's lookahead (docs/phone-mics.md, "Glass-to-event").
    assert lat.max() <= 60, f"glass-to-event max {lat.max():.0f} ms (p95 {np.percentile(lat, 95):.0f} ms) > 60 ms"


def test_the_phone_mic_bar_fits_every_screen(server, browser):
    """The singer page's "Sing with this phone" bar at a phone's, a laptop's and a TV's size."""
    for width, height in ((390, 844), (1366, 768), (1920, 1080)):
        driver = browser(max(width, 520), height)
        # Headless Chromium opens no window under 500 px: a phone's viewport is emulated.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
        driver.get(server.url("/"))
        button = wait(driver, lambda d: d.find_element("id", "use-phone-mic"))
        screenshot(driver, f"phone-mic-bar-{width}x{height}")
        assert button.is_displayed()
        for element_id in ("use-phone-mic", "phone-mic-name"):
            box = driver.execute_script("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                                        "return [r.left, r.top, r.right, r.bottom];", element_id)
            assert 0 <= box[0] and box[2] <= width and box[3] <= height, (element_id, width, box)
        # Nothing squeezed: the name box shows its whole placeholder, the level its whole choice
        # (its natural width), the button its label on one line (at 390 px they once read
        # "Your nam", "Room'" and a two-line button).
        fit = driver.execute_script('''
            const name = document.getElementById('phone-mic-name');
            const level = document.getElementById('phone-mic-difficulty');
            const button = document.getElementById('use-phone-mic');
            const ctx = document.createElement('canvas').getContext('2d');
            const css = getComputedStyle(name);
            ctx.font = css.font;
            const inner = name.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
            const placeholder = ctx.measureText(name.placeholder).width;
            const shown = level.getBoundingClientRect().width;
            level.style.flex = 'none'; level.style.maxWidth = 'none';
            const natural = level.getBoundingClientRect().width;
            level.style.flex = ''; level.style.maxWidth = '';
            const range = document.createRange();
            range.selectNodeContents(button);
            const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
            return {inner, placeholder, shown, natural, lines};''')
        assert fit["inner"] >= fit["placeholder"], (width, fit)
        assert fit["shown"] >= fit["natural"] - 1, (width, fit)
        assert fit["lines"] == 1, (width, fit)
        assert driver.find_element("id", "calibrate-phone-mic").is_displayed() is False


def test_the_phone_mic_bar_is_not_offered_for_a_song_without_notes(tmp_path, browser):
    """A lyrics-only song (LRC) has no notes to judge a voice against: no "Sing with this phone";
    a song with notes offers it again."""
    lyrics_only = tmp_path / "words"
    lyrics_only.mkdir()
    (lyrics_only / "words.lrc").write_text("[ti:Only Words]\n[ar:Browser Tests]\n[00:01.00]Words without notes\n"
                                           "[00:04.00]Sung as you like\n[00:08.00]\n", encoding="utf-8")
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "tiny.txt").write_text(TINY_SONG, encoding="utf-8")
    server = Server(tmp_path, options=["--no-audio", "--song", "words"]).start()
    try:
        driver = browser(1366, 768)
        driver.get(server.url("/"))
        wait(driver, lambda d: d.execute_script("return window.karaoke && window.karaoke.song && window.karaoke.song.title") == "Only Words")
        wait(driver, lambda d: not d.find_element("id", "phone-mic-panel").is_displayed())
        screenshot(driver, "phone-mic-bar-lyrics-only-song")
        remote = browser(420, 900)
        remote.get(server.url(f"/remote#pin={PIN}"))
        wait(remote, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state && window.karaoke.role === 'host')"))
        remote.execute_script("window.karaoke.send('queueAdd', {songId: 'tiny', playNow: true})")
        wait(driver, lambda d: d.execute_script("return window.karaoke.song.title") == "Tiny Test Song")
        wait(driver, lambda d: d.find_element("id", "use-phone-mic").is_displayed())

        # A phone (390x844) singing when a lyrics-only song comes keeps its bar, to stop; once it
        # stops, the bar goes as for any phone (it came back until the next song event).
        tone = tmp_path / "tone.wav"
        write_tone(tone)
        phone = chromium(None, 520, 844, fake_file=tone)
        try:
            phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            # A --no-audio room seats no phone (no live session); the page's Stop path is the same
            # with or without a seat: the microphone is open and Stop is offered.
            phone.get(server.url("/#name=Ana"))
            wait(phone, lambda d: d.execute_script("return !!window.phoneMic"))
            phone.find_element("id", "use-phone-mic").click()
            wait(phone, lambda d: d.execute_script("return window.phoneMic.stream !== null"), timeout=15)
            remote.execute_script("window.karaoke.send('queueAdd', {songId: 'words', playNow: true})")
            wait(phone, lambda d: d.execute_script("return window.karaoke.song.title") == "Only Words")
            time.sleep(0.5)
            assert phone.find_element("id", "stop-phone-mic").is_displayed()
            phone.find_element("id", "stop-phone-mic").click()
            wait(phone, lambda d: d.execute_script("return window.phoneMic.stream === null"))
            time.sleep(0.5)
            screenshot(phone, "phone-mic-bar-lyrics-only-after-stop-390x844")
            assert not phone.find_element("id", "phone-mic-panel").is_displayed()
            assert not phone.find_element("id", "use-phone-mic").is_displayed()
        finally:
            phone.quit()
    finally:
        server.stop()


def write_tone(path, seconds=3, rate=48000, hz=220.0):
    """A mono 16-bit WAV tone for Chromium's fake microphone."""
    import wave
    import numpy as np
    samples = (0.3 * np.sin(2 * np.pi * hz * np.arange(int(seconds * rate)) / rate) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
