"""MP3+G: a .cdg beside an .mp3 plays with its graphics drawn from the room clock. The CDG is
made by a small test writer (cdg_writer.py) whose reference model says which pixels a correct
decoder draws; the page's decoder (public/js/cdg.js) must draw exactly those, and the singer
view must show a tile drawn at t = 1.0 s within 100 ms of the room clock reaching it."""
import pathlib
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

import cdg_writer as w
from conftest import Server, open_host_remote as host, screenshot, send_command as command, wait

PALETTE = [(0, 0, 0), (15, 0, 0), (0, 15, 0), (0, 0, 15), (15, 15, 15), (15, 15, 0), (0, 15, 15), (8, 8, 8)]
SOLID = [0x3F] * 12
STRIPES = [0b101010 if y % 2 == 0 else 0b010101 for y in range(12)]
SECONDS = 10
NAME = "Test Artist - Graphics Song"


def build_cdg():
    """Packets and the reference picture after each drawing time."""
    packets = [w.empty() for _ in range(SECONDS * 300)]
    ref = w.Reference()
    frames = {}
    packets[0] = w.colours(0, PALETTE)
    packets[1] = w.memory_preset(0)
    # (the border preset needs no reference beyond the fill: colour 0 everywhere)
    packets[2] = w.border_preset(0)
    frames[0.5] = [row[:] for row in ref.pixels]
    packets[300] = w.tile(0, 1, 5, 10, SOLID)            # 1.0 s: a red tile
    packets[301] = w.tile(2, 4, 5, 11, STRIPES)          # and a green/white striped one beside it
    ref.tile(0, 1, 5, 10, SOLID)
    ref.tile(2, 4, 5, 11, STRIPES)
    frames[1.5] = [row[:] for row in ref.pixels]
    packets[600] = w.tile(0, 3, 5, 10, SOLID, xor=True)  # 2.0 s: XOR with blue: red (1) ^ 3 = green (2)
    ref.tile(0, 3, 5, 10, SOLID, xor=True)
    frames[2.5] = [row[:] for row in ref.pixels]
    packets[900] = w.scroll(0, 2, 0, copy=True)          # 3.0 s: everything a tile to the left, wrapped
    ref.scroll_left_copy()
    frames[3.5] = [row[:] for row in ref.pixels]
    return b"".join(packets), frames


@pytest.fixture(scope="module")
def cdg_songs():
    if not shutil.which("ffmpeg"):
        pytest.skip("ffmpeg not installed (scripts/setup --test installs it)")
    data, frames = build_cdg()
    with tempfile.TemporaryDirectory(prefix="karaoke-cdg-") as directory:
        folder = pathlib.Path(directory) / "mp3g"
        folder.mkdir()
        (folder / f"{NAME}.cdg").write_bytes(data)
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo",
                        "-t", str(SECONDS), "-c:a", "libmp3lame", "-b:a", "32k", str(folder / f"{NAME}.mp3")], check=True, timeout=60)
        yield pathlib.Path(directory), frames


@pytest.fixture
def cdg_server(cdg_songs):
    server = Server(cdg_songs[0], options=["--no-audio", "--song", "mp3g"]).start()
    yield server
    server.stop()


def open_view(browser, server, path, size=(1280, 800)):
    driver = browser(*size)
    driver.get(server.url(path))
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    wait(driver, lambda d: d.execute_script("return !!(window.cdgView && window.cdgView.bytes)"), timeout=15)
    return driver


DECODE = """
const [seconds, done] = [arguments[0], arguments[arguments.length - 1]];
import('/js/cdg.js').then(({ CDGDecoder }) => {
  const decoder = new CDGDecoder();
  decoder.seek(window.cdgView.bytes, Math.floor(seconds * 300));
  const rgba = new Uint8ClampedArray(300 * 216 * 4);
  decoder.render(rgba);
  done({ pixels: Array.from(decoder.pixels), red: [rgba[(66 * 300 + 63) * 4], rgba[(66 * 300 + 63) * 4 + 1]] });
});
"""


def test_decoder_draws_what_the_reference_model_says(cdg_server, cdg_songs, browser):
    frames = cdg_songs[1]
    driver = open_view(browser, cdg_server, "/")
    song = driver.execute_script("return window.karaoke.song")
    assert song["title"] == "Graphics Song" and song["artist"] == "Test Artist"
    assert song["hasNotes"] is False and song["cdg"].startswith("/media/")
    for seconds, reference in sorted(frames.items()):
        decoded = driver.execute_async_script(DECODE, seconds)
        expected = [c for row in reference for c in row]
        wrong = sum(1 for a, b in zip(decoded["pixels"], expected) if a != b)
        assert wrong == 0, f"at {seconds} s: {wrong} of {len(expected)} pixels differ from the reference"
    decoded = driver.execute_async_script(DECODE, 1.5)
    assert decoded["red"] == [255, 0], "palette entry 1 is (15, 0, 0) → RGB 255, 0, 0"


SAMPLER = """
const done = arguments[arguments.length - 1], until = arguments[0];
const canvas = window.cdgView.canvas, context = canvas.getContext('2d'), samples = [];
function step() {
  const [r, g, b] = context.getImageData(63, 66, 1, 1).data;
  samples.push([window.karaoke.position(), r, g, b]);
  if (window.karaoke.position() < until && samples.length < 5000) requestAnimationFrame(step); else done(samples);
}
requestAnimationFrame(step);
"""


def pixel(driver):
    return driver.execute_script("return Array.from(window.cdgView.canvas.getContext('2d').getImageData(63, 66, 1, 1).data)")[:3]


def test_singer_view_draws_the_tile_when_the_clock_reaches_it(cdg_server, browser):
    singer = open_view(browser, cdg_server, "/")
    assert singer.execute_script("return document.body.classList.contains('cdg-song')")
    remote = host(browser, cdg_server)
    command(remote, "seek", position=0.6)
    wait(singer, lambda d: d.execute_script("return window.karaoke.position()") > 0.59)
    command(remote, "play")
    samples = singer.execute_async_script(SAMPLER, 1.4)
    red = [s for s in samples if s[1] > 200 and s[2] < 50]
    assert red, f"the red tile never appeared (last sample {samples[-1]})"
    assert all(s[0] >= 1.0 for s in red), f"drawn before its time: {red[0]}"
    first = red[0][0]
    assert first - 1.0 <= 0.1, f"the tile drawn at 1.0 s appeared at {first:.3f} s of the room clock"
    screenshot(singer, "cdg-sing-1280x800")
    # Seeks: back before the tile (replayed from the start), then past the XOR.
    command(remote, "pause")
    command(remote, "seek", position=0.5)
    wait(singer, lambda d: pixel(d) == [0, 0, 0])
    command(remote, "seek", position=2.5)
    wait(singer, lambda d: pixel(d) == [0, 255, 0])


def test_seeking_back_replays_four_minutes_to_the_same_picture(cdg_server, browser):
    """Seeking back replays from the first packet (the format has no keyframes): on a 4-minute file
    (72,000 packets), a seek back from the end to the middle shows what a straight decode shows there.
    The replay's time is printed, not judged (a figure for a benchmark, not a test)."""
    driver = open_view(browser, cdg_server, "/")
    result = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('/js/cdg.js').then(({ CDGDecoder }) => {
        const one = window.cdgView.bytes, long = new Uint8Array(one.length * 24);
        for (let i = 0; i < 24; i += 1) long.set(one, i * one.length);
        // The last packet of the 13th copy: the test file's whole picture is drawn there.
        const per = one.length / 24, middle = 12 * per + per - 1;
        const straight = new CDGDecoder();
        straight.seek(long, middle);
        const replayed = new CDGDecoder();
        replayed.seek(long, long.length / 24);
        const start = performance.now();
        replayed.seek(long, middle);
        const ms = performance.now() - start;
        const same = replayed.position === straight.position
          && replayed.pixels.every((v, i) => v === straight.pixels[i])
          && replayed.palette.every((v, i) => v === straight.palette[i]);
        const drawn = straight.pixels.some((v) => v !== straight.pixels[0]);
        done({ ms, same, drawn, position: replayed.position });
      });""")
    print(f"CDG replay of {result['position']} packets: {result['ms']:.1f} ms")
    assert result["drawn"], "the middle of the file shows no picture to compare"
    assert result["same"], result


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1920, 1080)])
def test_screens_with_graphics(cdg_server, browser, size):
    for path, name in (("/display", "display"), ("/", "sing")):
        driver = open_view(browser, cdg_server, path, size)
        remote = host(browser, cdg_server)
        if name == "display":
            # Before the song starts the display shows its join screen, not the graphics.
            wait(driver, lambda d: d.execute_script("return getComputedStyle(window.cdgView.box).display") == "none")
            assert driver.find_element(By.ID, "join-screen").is_displayed()
        command(remote, "seek", position=1.5)
        wait(driver, lambda d: d.execute_script("return getComputedStyle(window.cdgView.box).display") != "none")
        wait(driver, lambda d: pixel(d) != [0, 0, 0])
        screenshot(driver, f"cdg-{name}-{size[0]}x{size[1]}")


def test_song_list_says_the_mp3g_song_is_not_scored(cdg_server, browser):
    remote = host(browser, cdg_server)
    remote.find_element(By.ID, "tabbtn-songs").click()
    wait(remote, lambda d: d.find_element(By.ID, "tab-songs").is_displayed())
    wait(remote, lambda d: "MP3+G graphics · not scored" in d.find_element(By.ID, "tab-songs").text)
    assert "Graphics Song" in remote.find_element(By.ID, "tab-songs").text
