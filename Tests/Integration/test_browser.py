"""Browser tests: every view against a real `karaoke serve --no-audio`, driven through the remote."""
import json
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import PIN, Server, screenshot, wait

LINE_STARTS = [0.5 + 1.5 * k for k in range(6)]



def current_line(driver):
    value = driver.execute_script(
        "const e = document.querySelector('#lyrics .line.current'); return e ? Number(e.dataset.index) : null")
    return value


def room_state(driver):
    return driver.execute_script("return window.karaoke && window.karaoke.state")


def open_live(driver, url):
    driver.get(url)
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    wait(driver, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.song)"))


def open_host_remote(browser, server):
    remote = browser(420, 900)
    open_live(remote, server.url(f"/remote#pin={PIN}"))
    wait(remote, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    return remote


def sent(driver, command_type):
    frames = [json.loads(f) for f in driver.execute_script("return window.sentFrames")]
    return [f for f in frames if f.get("type") == command_type]


def test_every_view_loads_and_shows_the_song(server, browser):
    driver = browser()
    for path, name in (("/", "sing"), ("/sing", "sing-route"), ("/display", "display"), ("/results", "results")):
        open_live(driver, server.url(path))
        assert "Tiny Test Song" in driver.find_element(By.ID, "title").text
        screenshot(driver, f"view-{name}")
    lines = driver.execute_script("return window.karaoke.song.parts[0].lines.length")
    assert lines == 6
    remote = browser(420, 900)
    open_live(remote, server.url("/remote"))
    assert remote.find_element(By.ID, "role").text.lower() == "guest"
    assert not remote.find_element(By.ID, "play").is_displayed()  # host controls hidden for guests
    screenshot(remote, "view-remote-guest")


def test_highlighted_line_follows_playback(server, browser):
    singer = browser()
    open_live(singer, server.url("/"))
    remote = open_host_remote(browser, server)
    assert current_line(singer) == 0  # before the first line, the coming one is in focus
    remote.find_element(By.ID, "play").click()
    wait(singer, lambda d: room_state(d)["transport"] == "playing")
    seen = []
    deadline = time.time() + 8
    while time.time() < deadline and (not seen or seen[-1] < 3):
        line = current_line(singer)
        if line is not None and (not seen or seen[-1] != line):
            seen.append(line)
        time.sleep(0.05)
    assert seen[:4] == [0, 1, 2, 3], seen
    # The highlighted line is vertically centred in the lyrics area.
    offset = singer.execute_script("""
        const box = document.getElementById('lyrics'), e = box.querySelector('.line.current');
        const a = box.getBoundingClientRect(), b = e.getBoundingClientRect();
        return Math.abs((b.top + b.height / 2) - (a.top + a.height / 2));""")
    wait(singer, lambda d: d.execute_script("""
        const box = document.getElementById('lyrics'), e = box.querySelector('.line.current');
        const a = box.getBoundingClientRect(), b = e.getBoundingClientRect();
        return Math.abs((b.top + b.height / 2) - (a.top + a.height / 2)) < 40;"""), timeout=3)
    screenshot(singer, "sing-playing")
    screenshot(remote, "remote-playing")
    assert offset is not None


def test_tapping_a_line_seeks_there(server, browser):
    singer = browser()
    open_live(singer, server.url("/"))
    remote = open_host_remote(browser, server)
    target = remote.find_element(By.CSS_SELECTOR, "#lyrics .line[data-index='4']")
    remote.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    time.sleep(0.6)  # let the scroll settle so it is not taken for a scrub
    target.click()
    wait(singer, lambda d: current_line(d) == 4)
    assert abs(room_state(singer)["position"] - LINE_STARTS[4]) < 0.05
    assert sent(remote, "seekLine")[-1]["line"] == 4
    wait(remote, lambda d: current_line(d) == 4)
    screenshot(remote, "remote-after-tap")


def test_key_buttons_change_the_key_everywhere(server, browser):
    singer = browser()
    open_live(singer, server.url("/"))
    remote = open_host_remote(browser, server)
    remote.find_element(By.ID, "tabbtn-settings").click()  # the remote's key buttons are under Settings
    assert remote.find_element(By.ID, "key-value").text == "0"
    remote.find_element(By.ID, "key-up").click()
    wait(remote, lambda d: d.find_element(By.ID, "key-value").text == "+1")
    remote.find_element(By.ID, "key-up").click()
    wait(remote, lambda d: d.find_element(By.ID, "key-value").text == "+2")
    wait(singer, lambda d: d.find_element(By.ID, "key").text == "key +2")
    assert [c["semitones"] for c in sent(remote, "key")] == [1, 2]
    for _ in range(3):
        remote.find_element(By.ID, "key-down").click()
        time.sleep(0.15)
    wait(singer, lambda d: room_state(d)["key"] == -1)
    assert remote.find_element(By.ID, "key-value").text == "-1"
    assert [c["semitones"] for c in sent(remote, "key")][-1] == -1
    screenshot(remote, "remote-key")


def test_display_is_read_only(server, browser):
    display = browser()
    open_live(display, server.url("/display"))
    assert display.find_elements(By.CSS_SELECTOR, "button, input, select, textarea") == []
    assert display.execute_script("return window.sentFrames.length") == 0
    # Even a hand-made command from the display's connection is refused by the server.
    display.execute_script("""
        window.errors = []; window.karaoke.on('error', (e) => window.errors.push(e.code));
        window.karaoke.send('play');""")
    wait(display, lambda d: d.execute_script("return window.errors.length") > 0)
    assert display.execute_script("return window.errors") == ["forbidden"]
    assert room_state(display)["transport"] == "stopped"
    screenshot(display, "display-read-only")


def test_guest_queues_and_every_view_stays_in_sync(server, browser):
    guest = browser(420, 900)
    open_live(guest, server.url("/remote"))
    wait(guest, lambda d: d.find_element(By.ID, "name-dialog").is_displayed())  # asked once; this guest gives none
    guest.execute_script("document.getElementById('name-dialog').close()")
    host = open_host_remote(browser, server)
    button = guest.find_element(By.CSS_SELECTOR, "#library button[data-song-id='second']")
    guest.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    for driver in (guest, host):
        driver.find_element(By.ID, "tabbtn-queue").click()
        wait(driver, lambda d: "Second Song" in d.find_element(By.ID, "queue").text)
    host.find_element(By.ID, "tabbtn-now").click()
    host.find_element(By.ID, "next").click()
    for driver in (guest, host):
        wait(driver, lambda d: d.find_element(By.ID, "title").text == "Second Song")
    screenshot(guest, "remote-queue")


def test_browser_reconnects_without_reload(songs_dir, browser):
    server = Server(songs_dir).start()
    try:
        singer = browser()
        open_live(singer, server.url("/"))
        singer.execute_script("window.notReloaded = true")
        port = server.port
        server.stop()
        wait(singer, lambda d: d.find_element(By.ID, "status").text != "live")
        server = Server(songs_dir, port=port).start()
        wait(singer, lambda d: d.find_element(By.ID, "status").text == "live", timeout=20)
        assert singer.execute_script("return window.notReloaded") is True
        assert "Tiny Test Song" in singer.find_element(By.ID, "title").text
    finally:
        server.stop()


def test_server_stops_cleanly_on_sigterm(server):
    assert server.stop() == 0
    assert "Room PIN: " + PIN in "".join(server.banner)


def test_singer_view_shows_pitch_trail_ratings_and_scores(server, browser):
    """Live results arrive as events (audio pipeline in production); feed them to the page's
    connection the way the socket would and check what the singer sees."""
    singer = browser()
    open_live(singer, server.url("/"))
    remote = open_host_remote(browser, server)
    remote.find_element(By.ID, "play").click()
    wait(singer, lambda d: current_line(d) == 1, timeout=6)
    # Paused inside line 1: the lane stands still, so the trail fed below stays on it however
    # long a loaded machine takes to read the canvas (lines here last 1.5 s).
    remote.find_element(By.ID, "play").click()
    wait(singer, lambda d: room_state(d)["transport"] == "paused")
    singer.execute_script("""
        const k = window.karaoke, t = k.position();
        for (let i = 0; i < 40; i++) {
          k.receive({type: 'pitch', v: 1, singer: 0, time: t - 0.4 + i * 0.01, hz: 330, midi: 64.1, target: 64, hit: true});
        }
        k.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 0, score: 800, maxScore: 1000, rating: 'great'});
        k.receive({type: 'total', v: 1, singer: 0, name: 'Alice', score: 1234, final: false});""")
    wait(singer, lambda d: "Great!" in d.find_element(By.ID, "popups").text, timeout=2)
    assert "1,234" in singer.find_element(By.ID, "scores").text
    assert "Alice" in singer.find_element(By.ID, "scores").text
    # The trail is drawn: the note lane has pixels in the first singer's colour (#4fd1ff).
    coloured = singer.execute_script("""
        const c = document.getElementById('notes'), g = c.getContext('2d');
        const data = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] < 110 && data[i+1] > 180 && data[i+2] > 230) n++;
        return n;""")
    assert coloured > 50
    singer.execute_script("""window.karaoke.receive({type: 'device', v: 1, device: 'playback', status: 'lost',
        message: 'output device (default) disappeared: playback paused'})""")
    wait(singer, lambda d: "disappeared" in d.find_element(By.ID, "device").text, timeout=2)
    screenshot(singer, "sing-live-results")


def test_views_show_a_song_that_is_loading(server, browser):
    """While the server decodes a song (`state.loading`, too quick to catch with --no-audio), feed
    the state the socket would carry and check every view says so, and that the remote's play
    button then cancels the pending start instead of sending another play."""
    singer, display = browser(), browser()
    open_live(singer, server.url("/"))
    open_live(display, server.url("/display"))
    remote = open_host_remote(browser, server)
    feed = """const k = window.karaoke;
        k.receive({...k.state, type: 'state', v: 1, position: 0, transport: 'stopped',
                   loading: arguments[0], playWhenLoaded: arguments[0]});"""
    for driver in (singer, display, remote):
        assert not driver.find_element(By.ID, "loading").is_displayed()
        driver.execute_script(feed, True)
        wait(driver, lambda d: d.find_element(By.ID, "loading").is_displayed(), timeout=2)
        assert driver.find_element(By.ID, "loading").text == "Loading…"
        assert driver.find_element(By.ID, "status").text == "loading…"
    play = remote.find_element(By.ID, "play")
    assert play.get_attribute("aria-label") == "pause"
    assert "pending" in play.get_attribute("class")
    screenshot(singer, "sing-loading")
    screenshot(remote, "remote-loading")
    play.click()
    wait(remote, lambda d: len(sent(d, "pause")) == 1, timeout=2)
    assert sent(remote, "play") == []
    for driver in (singer, display, remote):
        driver.execute_script(feed, False)
        wait(driver, lambda d: not d.find_element(By.ID, "loading").is_displayed(), timeout=2)
        assert driver.find_element(By.ID, "status").text == "live"
