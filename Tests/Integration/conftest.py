"""Shared fixtures: a `karaoke serve --no-audio` on a free port with a small song, and headless Chromium."""
import os
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PIN = "246813"

# Six lines, 1.5 s apart: line k sings from 0.5 + 1.5k to 1.5 + 1.5k seconds
# (BPM 300 → one beat = 0.05 s; GAP 500 ms). Two syllables per line.
TINY_SONG = """#TITLE:Tiny Test Song
#ARTIST:Browser Tests
#MP3:tiny.ogg
#BPM:300
#GAP:500
: 0 10 0 One 
: 10 10 2 two
- 25
: 30 10 4 three 
: 40 10 5 four
- 55
: 60 10 7 five 
: 70 10 5 six
- 85
: 90 10 4 se
* 100 10 2 ven
- 115
: 120 10 0 eight 
: 130 10 2 nine
- 145
: 150 10 4 ten 
: 160 10 0 end
E
"""

SECOND_SONG = """#TITLE:Second Song
#ARTIST:Queue Tests
#MP3:second.ogg
#BPM:300
#GAP:0
: 0 20 0 Hel
: 20 20 2 lo
E
"""


def karaoke_binary():
    path = os.environ.get("KARAOKE_BIN") or str(ROOT / ".build" / "release" / "karaoke")
    if not os.access(path, os.X_OK):
        pytest.skip(f"karaoke binary not found at {path} (set KARAOKE_BIN)")
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`karaoke serve` on the test songs; `options` replaces the default `--no-audio --song tiny`."""

    def __init__(self, songs_dir, port=None, options=None):
        self.songs_dir = songs_dir
        self.port = port or free_port()
        self.options = ["--no-audio", "--song", "tiny"] if options is None else options
        self.process = None

    def start(self):
        # The server's output goes to a file, not a pipe: a pipe nobody reads until the end fills
        # at 64 KiB, and then every server thread that logs blocks on it (a stall of the room).
        self.log = tempfile.NamedTemporaryFile(prefix="karaoke-serve-", suffix=".log", delete=False)
        self.final_output = None
        self.process = subprocess.Popen(
            [karaoke_binary(), "serve", *self.options, "--port", str(self.port), "--songs", str(self.songs_dir),
             "--pin", PIN, "--public", str(ROOT / "public")],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        self.banner = []
        while time.time() < deadline:
            lines = self.output().splitlines(True)
            for count, line in enumerate(lines):
                match = re.match(r"Listening on port (\d+)", line)
                if match and line.endswith("\n"):
                    self.port = int(match.group(1))
                    self.banner = lines[:count + 1]
                    return self
            if self.process.poll() is not None:
                raise RuntimeError("karaoke serve exited:\n" + self.output())
            time.sleep(0.02)
        raise RuntimeError("karaoke serve did not start:\n" + self.output())

    def output(self):
        """Everything the server printed so far (all of it once stopped)."""
        if self.final_output is not None:
            return self.final_output
        return pathlib.Path(self.log.name).read_text(encoding="utf-8", errors="replace")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process and self.final_output is None:
            self.final_output = self.output()
            self.log.close()
            pathlib.Path(self.log.name).unlink(missing_ok=True)
        return self.process.returncode if self.process else None

    def url(self, path="/"):
        return f"http://127.0.0.1:{self.port}{path}"


def write_song_folders(directory, songs):
    """One folder per (name, UltraStar text) pair, the file named after the folder."""
    for folder, text in songs:
        path = pathlib.Path(directory) / folder
        path.mkdir()
        (path / f"{folder}.txt").write_text(text, encoding="utf-8")
    return pathlib.Path(directory)


@pytest.fixture(scope="session")
def songs_dir():
    with tempfile.TemporaryDirectory(prefix="karaoke-songs-") as directory:
        yield write_song_folders(directory, [("tiny", TINY_SONG), ("second", SECOND_SONG)])


@pytest.fixture
def server(songs_dir):
    server = Server(songs_dir).start()
    yield server
    server.stop()


@pytest.fixture
def browser():
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def open_browser(width=1280, height=800):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         f"--window-size={width},{height}"):
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        # Record every WebSocket frame the page sends, to check what controls send.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.sentFrames = [];
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) { window.sentFrames.push(data); return send.call(this, data); };
            // The last frames received, for a failed wait's message (see `page_story`).
            window.receivedFrames = [];
            const Native = window.WebSocket;
            window.WebSocket = class extends Native {
                constructor(...args) {
                    super(...args);
                    this.addEventListener('message', (event) => {
                        window.receivedFrames.push(String(event.data).slice(0, 400));
                        if (window.receivedFrames.length > 60) window.receivedFrames.shift();
                    });
                }
            };
        """})
        drivers.append(driver)
        return driver

    yield open_browser
    for driver in drivers:
        driver.quit()


def screenshot(driver, name):
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def wait(driver, condition, timeout=10):
    """Polls `condition` until it is truthy. A page that re-renders while it is being read (a
    stale element: a list the page rebuilt) is polled again. A timeout says what the page last
    showed, sent and received (`page_story`)."""
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(d))
    except TimeoutException as timeout_error:
        raise TimeoutException(f"waited {timeout} s in vain; {page_story(driver)}") from timeout_error


def page_story(driver):
    """What the page last did, for a failed wait: its address, role, toast, and the last frames
    it sent and received (recorded by the `browser` fixture)."""
    try:
        return driver.execute_script("""
            const text = (id) => document.getElementById(id)?.textContent?.trim() ?? null;
            const brief = (frames) => (frames || []).slice(-12).map((f) => String(f).slice(0, 160));
            return JSON.stringify({ url: location.pathname, status: text('status'), role: text('role'),
                                    toast: text('toast'), sent: brief(window.sentFrames),
                                    received: brief(window.receivedFrames) });""")
    except Exception as error:  # the page itself is gone: say so rather than hide the timeout
        return f"the page could not be read ({error.__class__.__name__})"


def click(driver, element_id):
    """Scrolls the element into view and clicks it; if the page replaced it meanwhile (the remote
    replaces a singer's "Hear myself" switch when its state changes), the new one is clicked."""
    def attempt(d):
        element = d.find_element("id", element_id)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True
    return wait(driver, attempt)


def open_host_remote(browser, server):
    """A remote at phone width, signed in as host through the PIN in its fragment."""
    remote = browser(420, 900)
    remote.get(server.url(f"/remote#pin={PIN}"))
    wait(remote, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    return remote


def send_command(remote, kind, **args):
    """Sends a room command over the page's own connection (as its buttons do)."""
    remote.execute_script("window.karaoke.send(arguments[0], arguments[1])", kind, args)
