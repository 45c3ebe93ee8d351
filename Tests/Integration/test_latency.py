"""Measured latencies and where each singer's mic delay comes from: `serve`'s start-up lines, the
remote's line under each singer, and calibration from the remote. The audio tests need the private
PulseAudio daemon of scripts/lib/pulse-test-env.sh (scripts/test starts it); without it they are
skipped."""
import os
import re
import shutil
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PIN, Server, click, screenshot, wait

# "Output 31 ms · Mic 4 ms · Mic delay 140 ms (default — calibrate)"
FIGURES = re.compile(r"^Output (\d+) ms · Mic (\d+) ms · Mic delay (\d+) ms \((.+)\)$")



def figures(driver, singer):
    """The singer's figures line, parsed: (output ms, mic ms, mic delay ms, origin) or None."""
    match = FIGURES.match(driver.find_element(By.ID, f"mic-figures-{singer}").text)
    return (int(match[1]), int(match[2]), int(match[3]), match[4]) if match else None


def phone(browser):
    """A browser with a phone's viewport (headless Chromium will not open a window under 500 px)."""
    driver = browser(420, 900)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": 780, "deviceScaleFactor": 1, "mobile": True})
    return driver


def open_host_remote(driver, server):
    driver.get(server.url(f"/remote#pin={PIN}"))
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    driver.find_element(By.ID, "tabbtn-settings").click()  # singers and microphones are under Settings
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#singers .control")) >= 2)


def scroll_to(driver, element_id):
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return element


def set_mic_delay(driver, singer, text):
    def attempt(d):  # again if the field was replaced meanwhile (see `wait`)
        field = scroll_to(d, f"mic-delay-{singer}")
        field.send_keys(Keys.CONTROL, "a", Keys.BACKSPACE)
        field.send_keys(text, Keys.TAB)  # the remote sends `micDelay` on change
        return True
    wait(driver, attempt)


@pytest.fixture
def audio_server(songs_dir, tmp_path):
    """`serve` with audio on the test daemon: the stereo source `mic2` is two singers (split mode),
    calibrations kept in a fresh scores folder. No song is loaded (the test songs have no track)."""
    if not os.environ.get("PULSE_SERVER") or not shutil.which("pactl"):
        pytest.skip("needs the private PulseAudio daemon (. scripts/lib/pulse-test-env.sh; pa_test_start)")
    server = Server(songs_dir, options=["--mic", "mic2", "--scores", str(tmp_path)]).start()
    yield server
    server.stop()


def test_serve_prints_the_measured_latencies(audio_server):
    banner = "".join(audio_server.banner)
    output = re.search(r"output latency (\d+\.\d) ms on the default sink", banner)
    assert output and 1 < float(output[1]) < 500, banner
    for singer in (1, 2):
        line = re.search(rf"singer {singer} on mic2: input latency (\d+\.\d) ms, mic delay 140\.0 ms \(default", banner)
        assert line and 0 <= float(line[1]) < 200, banner


def test_remote_shows_the_latencies_and_where_each_mic_delay_comes_from(audio_server, browser):
    remote = phone(browser)
    open_host_remote(remote, audio_server)
    wait(remote, lambda d: figures(d, 0) and figures(d, 1))
    output, mic, delay, origin = wait(remote, lambda d: figures(d, 0))
    state = remote.execute_script("return window.karaoke.state")
    assert 1 <= output < 500 and 0 <= mic < 200 and (delay, origin) == (140, "default — calibrate")
    assert state["outputLatencyMs"] > 0 and [s["micDelaySource"] for s in state["singers"]] == ["default", "default"]
    # The unset room setting reads as the delay in use.
    assert remote.find_element(By.ID, "mic-delay-0").get_attribute("value") == ""
    assert remote.find_element(By.ID, "mic-delay-0").get_attribute("placeholder") == "140"
    # Tidy on a phone: each line fits its card, nothing scrolls sideways.
    scroll_to(remote, "mic-figures-1")
    assert remote.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    assert remote.execute_script("""
        const card = document.getElementById('singers').getBoundingClientRect();
        return [0, 1].every((i) => {
          const box = document.getElementById('mic-figures-' + i).getBoundingClientRect();
          return box.left >= card.left && box.right <= card.right + 0.5 && box.height < 60;
        });""")
    screenshot(remote, "remote-latency")

    set_mic_delay(remote, 1, "200")
    wait(remote, lambda d: (figures(d, 1) or ())[2:] == (200, "room setting"))
    assert wait(remote, lambda d: figures(d, 0))[2:] == (140, "default — calibrate")
    set_mic_delay(remote, 1, "")
    wait(remote, lambda d: (figures(d, 1) or ())[2:] == (140, "default — calibrate"))

    # A phone seat whose timing moved since its calibration, followed by the room (the server's
    # side: PhoneTimingFollowTests, test_phone_mic capture_path_grows): the row says by how much.
    line = remote.execute_script("""const k = window.karaoke, state = structuredClone(k.state);
        Object.assign(state.singers[1], {micDelaySource: 'calibrated', effectiveMicDelayMs: 264.4, micDelayMovedMs: 115.7});
        k.receive({type: 'state', v: 1, ...state});
        return document.getElementById('mic-figures-1').textContent""")
    assert "Mic delay 264 ms (calibrated, +116 ms moved since)" in line, line


def test_calibrating_from_the_remote_reports_failure_then_shows_the_calibrated_delay(audio_server, browser):
    remote = phone(browser)
    open_host_remote(remote, audio_server)
    wait(remote, lambda d: figures(d, 0))
    # Nothing reaches mic2 from the speaker: the asking remote is told why.
    click(remote, "calibrate-0")
    # While its clicks play: one calibration at a time, and the song waits.
    wait(remote, lambda d: d.find_element(By.ID, "calibrate-0").text == "Calibrating…")
    assert not remote.find_element(By.ID, "calibrate-1").is_enabled()
    wait(remote, lambda d: "no calibration clicks arrived at input 'mic2'" in d.find_element(By.ID, "toast").text, timeout=25)
    wait(remote, lambda d: d.find_element(By.ID, "calibrate-0").text == "Calibrate" and d.find_element(By.ID, "calibrate-1").is_enabled())
    assert wait(remote, lambda d: figures(d, 0))[3] == "default — calibrate"

    # A loopback from the speaker into mic2 is a real path: now it measures, for both singers of mic2.
    module = subprocess.run(["pactl", "load-module", "module-loopback", "source=speaker.monitor", "sink=mic2_sink",
                             "latency_msec=30"], capture_output=True, text=True, check=True).stdout.strip()
    try:
        click(remote, "calibrate-0")
        wait(remote, lambda d: all((figures(d, i) or ())[3:] == ("calibrated",) for i in (0, 1)), timeout=25)
        delay = wait(remote, lambda d: figures(d, 0))[2]
        assert 5 <= delay <= 150, delay
        assert remote.execute_script("return window.karaoke.state.singers[0].effectiveMicDelayMs") == pytest.approx(delay, abs=0.5)
        scroll_to(remote, "mic-figures-1")
        screenshot(remote, "remote-latency-calibrated")
    finally:
        subprocess.run(["pactl", "unload-module", module], check=True)


def test_no_latency_line_without_audio(server, browser):
    remote = phone(browser)
    open_host_remote(remote, server)
    assert [e.is_displayed() for e in remote.find_elements(By.CSS_SELECTOR, "#singers .mic-figures")] == [False, False]
    # Nothing to calibrate without a microphone.
    assert [e.is_displayed() for e in remote.find_elements(By.CSS_SELECTOR, "#singers [id^=calibrate-]")] == [False, False]
    state = remote.execute_script("return window.karaoke.state")
    assert "outputLatencyMs" not in state and all("micDelaySource" not in s for s in state["singers"])
