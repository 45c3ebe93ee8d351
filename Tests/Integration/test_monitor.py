"""Mic monitoring ("hear myself") from the remote: the switches, the server's state, and what the
sound server then runs. The audio test needs the private PulseAudio daemon of
scripts/lib/pulse-test-env.sh (scripts/test starts it); without it, it is skipped."""
import json
import os
import shutil
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import PIN, Server, click, screenshot, wait



def loopbacks():
    """module-loopback rows of `pactl list short modules` on the test daemon."""
    out = subprocess.run(["pactl", "list", "short", "modules"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "module-loopback" in line]


def switches(driver):
    return [b.get_attribute("aria-pressed") for b in driver.find_elements(By.CSS_SELECTOR, "#singers button.toggle")]


def sent(driver, command_type):
    frames = [json.loads(f) for f in driver.execute_script("return window.sentFrames")]
    return [f for f in frames if f.get("type") == command_type]


def open_host_remote(driver, server):
    driver.get(server.url(f"/remote#pin={PIN}"))
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    driver.find_element(By.ID, "tabbtn-settings").click()  # singers and their monitors are under Settings
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#singers .control")) >= 2)


@pytest.fixture
def audio_server(songs_dir, tmp_path):
    """`serve` with audio on the test daemon: the stereo source `mic2` is two singers (split mode),
    monitored from the start. No song is loaded (the test songs have no backing track)."""
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    assert loopbacks() == [], "a loopback was left behind before this test"
    server = Server(songs_dir, options=["--mic", "mic2", "--monitor", "--monitor-latency", "25",
                                        "--scores", str(tmp_path)]).start()
    yield server
    server.stop()


def test_hear_myself_switches_reach_the_sound_server(audio_server, browser):
    assert "monitoring every microphone" in "".join(audio_server.banner)
    (row,) = loopbacks()
    assert "source=mic2 " in row and "latency_msec=25" in row
    remote = browser(420, 900)
    open_host_remote(remote, audio_server)
    # Both singers sing into mic2, so both switches show its one monitor.
    wait(remote, lambda d: switches(d) == ["true", "true"])
    assert [s["monitor"] for s in remote.execute_script("return window.karaoke.state.singers")] == [True, True]
    remote.execute_script("document.getElementById('monitor-1').scrollIntoView({block: 'center'})")
    screenshot(remote, "remote-monitor-on")
    click(remote, "monitor-1")
    wait(remote, lambda d: switches(d) == ["false", "false"])
    assert [{k: c[k] for k in ("singer", "on")} for c in sent(remote, "monitor")] == [{"singer": 1, "on": False}]
    assert loopbacks() == []
    screenshot(remote, "remote-monitor-off")

    click(remote, "monitor-0")
    wait(remote, lambda d: switches(d) == ["true", "true"])
    assert len(loopbacks()) == 1
    # Stopping the server takes its loopback away (PulseAudio would otherwise keep it).
    assert audio_server.stop() == 0
    assert loopbacks() == []


def pactl(*arguments):
    return subprocess.run(["pactl", *arguments], capture_output=True, text=True, check=True).stdout.strip()


def test_a_vanished_microphone_is_heard_again_when_it_returns(songs_dir, tmp_path, browser):
    """A USB microphone unplugged and plugged back in, played by a temporary null sink whose monitor
    is the microphone: the switch stays on and says it waits, and the loopback comes back alone."""
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    assert loopbacks() == [], "a loopback was left behind before this test"
    device = ["module-null-sink", "sink_name=usb_mic", "rate=48000", "channels=1"]
    module = pactl("load-module", *device)
    server = Server(songs_dir, options=["--mic", "usb_mic.monitor", "--mic-channels", "mono", "--monitor",
                                        "--scores", str(tmp_path)])
    try:
        server.start()
        remote = browser(420, 900)
        open_host_remote(remote, server)
        wait(remote, lambda d: switches(d) == ["true"])
        button = lambda d: d.find_element(By.ID, "monitor-0")

        pactl("unload-module", module)
        wait(remote, lambda d: "waiting" in button(d).get_attribute("class"))
        assert wait(remote, lambda d: button(d).get_attribute("aria-pressed")) == "true"
        assert "waiting for the mic" in wait(remote, lambda d: button(d).text)
        singer = remote.execute_script("return window.karaoke.state.singers")[0]
        assert (singer["monitor"], singer["monitorWaiting"]) == (True, True)
        assert loopbacks() == []
        remote.execute_script("document.getElementById('monitor-0').scrollIntoView({block: 'center'})")
        screenshot(remote, "remote-monitor-waiting")

        module = pactl("load-module", *device)
        wait(remote, lambda d: "waiting" not in button(d).get_attribute("class"))
        assert wait(remote, lambda d: button(d).get_attribute("aria-pressed")) == "true"
        (row,) = loopbacks()
        assert "source=usb_mic.monitor " in row
        assert sent(remote, "monitor") == [], "nobody touched the switch"
        assert server.stop() == 0
        assert loopbacks() == []
    finally:
        server.stop()
        subprocess.run(["pactl", "unload-module", module], capture_output=True)


def test_no_switch_without_audio(server, browser):
    remote = browser(420, 900)
    open_host_remote(remote, server)
    assert switches(remote) == []
    assert all("monitor" not in s for s in remote.execute_script("return window.karaoke.state.singers"))
    # A hand-made command is refused with a reason the remote shows.
    remote.execute_script("window.karaoke.send('monitor', {singer: 0, on: true})")
    wait(remote, lambda d: "mic monitoring needs audio" in d.find_element(By.ID, "toast").text)
