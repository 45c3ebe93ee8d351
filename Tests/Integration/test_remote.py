"""The phone remote at 390×844: thumb-reach layout, read-ahead lyrics, the song library
(10,000 songs), fair queue with confirmations, practice loops, and the offline banner."""
import json
import os
import pathlib
import re
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

from conftest import PIN, Server, karaoke_binary, screenshot, wait, write_song_folders, TINY_SONG, ROOT

LINE_STARTS = [0.5 + 1.5 * k for k in range(6)]
WIDTH, HEIGHT = 390, 844


def phone(browser, name=None):
    """A browser with a 390×844 phone viewport; `name` is the guest's name already given once."""
    driver = browser(500, 900)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
    if name is not None:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f"""
            localStorage.setItem('karaoke.name', {json.dumps(name)});
            localStorage.setItem('karaoke.nameAsked', '1');"""})
    return driver


def open_remote(driver, server, host=False):
    driver.get(server.url(f"/remote#pin={PIN}" if host else "/remote"))
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == ("host" if host else "guest"))
    return driver


def state(driver):
    return driver.execute_script("return window.karaoke.state")


def sent(driver, command_type):
    frames = [json.loads(f) for f in driver.execute_script("return window.sentFrames")]
    return [f for f in frames if f.get("type") == command_type]


def tab(driver, name):
    driver.find_element(By.ID, f"tabbtn-{name}").click()
    wait(driver, lambda d: d.find_element(By.ID, f"tab-{name}").is_displayed())


def overflowing(driver):
    """Elements reaching past the screen's sides (nothing may scroll sideways)."""
    return driver.execute_script("""
        const width = window.innerWidth;
        const out = [...document.querySelectorAll('body *')].filter((e) => {
          const box = e.getBoundingClientRect();
          return box.width > 0 && (box.left < -0.5 || box.right > width + 0.5);
        }).map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().left)}..${Math.round(e.getBoundingClientRect().right)}`);
        if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}`);
        return out;""")


def no_horizontal_overflow(driver):
    problems = overflowing(driver)
    assert not problems, problems
    return True


def test_guest_starts_on_songs_and_is_asked_the_name_once(server, browser):
    guest = phone(browser)
    open_remote(guest, server)
    wait(guest, lambda d: d.find_element(By.ID, "name-dialog").is_displayed())
    screenshot(guest, "remote-guest-name")
    guest.find_element(By.ID, "name-first").send_keys("Ann")
    guest.find_element(By.ID, "name-ok").click()
    wait(guest, lambda d: not d.find_element(By.ID, "name-dialog").is_displayed())
    assert guest.find_element(By.ID, "tab-songs").is_displayed()
    wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "2 of 2 songs")
    # The guest's order of sections: Songs and Queue first.
    order = guest.execute_script("""return [...document.querySelectorAll('.tabbar button')]
        .filter((b) => b.offsetParent).sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
        .map((b) => b.dataset.tab)""")
    assert order[:2] == ["songs", "queue"]
    assert not guest.find_element(By.ID, "play").is_displayed()
    assert no_horizontal_overflow(guest)
    screenshot(guest, "remote-guest-songs")
    guest.refresh()
    wait(guest, lambda d: d.find_element(By.ID, "status").text == "live")
    time.sleep(0.5)
    assert not guest.find_element(By.ID, "name-dialog").is_displayed(), "asked only once"
    tab(guest, "settings")
    assert guest.find_element(By.ID, "name-input").get_attribute("value") == "Ann"


def test_transport_is_within_thumb_reach_and_nothing_overflows(server, browser):
    host = open_remote(phone(browser), server, host=True)
    assert host.find_element(By.ID, "tab-now").is_displayed()
    tops = host.execute_script("""
        return ['play', 'stop', 'previous', 'next', 'seek', 'loop-line', 'loop-lines'].map((id) => {
          const box = document.getElementById(id).getBoundingClientRect();
          return [id, box.top, box.bottom];
        })""")
    for name, top, bottom in tops:
        assert top >= HEIGHT * 0.55 and bottom <= HEIGHT, (name, top, bottom)
    play = host.find_element(By.ID, "play").rect
    stop = host.find_element(By.ID, "stop").rect
    assert play["width"] * play["height"] > 2 * stop["width"] * stop["height"], "Play is the big one"
    for name in ("now", "songs", "queue", "settings"):
        tab(host, name)
        assert no_horizontal_overflow(host), name
        screenshot(host, f"remote-host-{name}")


def test_stop_needs_a_long_press(server, browser):
    host = open_remote(phone(browser), server, host=True)
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: state(d)["transport"] == "playing")
    host.find_element(By.ID, "stop").click()  # a tap: only a hint
    wait(host, lambda d: d.find_element(By.ID, "stop-hint").is_displayed())
    assert sent(host, "stop") == []
    ActionChains(host).click_and_hold(host.find_element(By.ID, "stop")).pause(1.0).release().perform()
    wait(host, lambda d: state(d)["transport"] == "stopped")
    assert len(sent(host, "stop")) == 1


def test_swiping_the_lyrics_reads_ahead_and_only_the_marker_seeks(server, browser):
    host = open_remote(phone(browser), server, host=True)
    host.execute_script("""window.states = [];
        window.karaoke.on('state', (s) => window.states.push({at: performance.now(), position: s.position}));""")
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: state(d)["transport"] == "playing")
    box = host.find_element(By.ID, "lyrics")
    step = host.execute_script(
        "const l = document.querySelectorAll('#lyrics .line'); return l[1].offsetTop - l[0].offsetTop")
    before = host.execute_script("return window.karaoke.position()")
    ActionChains(host).scroll_from_origin(ScrollOrigin.from_element(box), 0, int(step * 4)).perform()
    wait(host, lambda d: d.find_element(By.ID, "play-here").is_displayed())
    time.sleep(1.0)
    # Reading ahead moved nothing: no seek was sent and the song played on.
    assert sent(host, "seekLine") == [] and sent(host, "seek") == []
    assert state(host)["transport"] == "playing"
    assert host.execute_script("return window.karaoke.position()") > before + 0.8
    marker = host.find_element(By.ID, "play-here")
    line = int(marker.get_attribute("data-line"))
    assert line >= 3
    centred = host.find_element(By.CSS_SELECTOR, "#lyrics .line.centred")
    assert int(centred.get_attribute("data-index")) == line
    assert marker.text.endswith(time.strftime("%-M:%S", time.gmtime(LINE_STARTS[line])))
    screenshot(host, "remote-reading-ahead")
    clicked = host.execute_script("return performance.now()")
    marker.click()
    wait(host, lambda d: sent(d, "seekLine"))
    assert sent(host, "seekLine")[-1]["line"] == line
    # The first state after the tap is the seek's: within 50 ms of the line's start.
    first = wait(host, lambda d: next((s for s in d.execute_script("return window.states") if s["at"] > clicked), None))
    assert abs(first["position"] - LINE_STARTS[line]) <= 0.05, first
    assert not marker.is_displayed()


def test_reading_ahead_returns_to_following_after_idle_seconds(server, browser):
    host = open_remote(phone(browser), server, host=True)
    box = host.find_element(By.ID, "lyrics")
    ActionChains(host).scroll_from_origin(ScrollOrigin.from_element(box), 0, 200).perform()
    wait(host, lambda d: d.find_element(By.ID, "play-here").is_displayed())
    wait(host, lambda d: not d.find_element(By.ID, "play-here").is_displayed(), timeout=8)
    assert sent(host, "seekLine") == []


def test_tapping_a_line_while_stopped_moves_the_start_point(server, browser):
    host = open_remote(phone(browser), server, host=True)
    assert state(host)["transport"] == "stopped"
    target = host.find_element(By.CSS_SELECTOR, "#lyrics .line[data-index='4']")
    host.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()
    wait(host, lambda d: abs(state(d)["position"] - LINE_STARTS[4]) < 0.05)
    assert state(host)["transport"] == "stopped"
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: state(d)["transport"] == "playing")
    assert abs(state(host)["position"] - LINE_STARTS[4]) < 0.3


def test_guest_line_tap_says_why_nothing_moved(server, browser):
    guest = open_remote(phone(browser, "Gus"), server)
    tab(guest, "now")
    guest.find_element(By.CSS_SELECTOR, "#lyrics .line[data-index='2']").click()
    wait(guest, lambda d: "Only the host" in d.find_element(By.ID, "toast").text)


def test_loop_this_line_shows_on_the_seek_bar_with_the_practice_badge(server, browser):
    host = open_remote(phone(browser), server, host=True)
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: d.execute_script("return window.karaoke.position()") > 2.2)  # in line 1 (2.0–3.0)
    host.find_element(By.ID, "loop-line").click()
    loop = wait(host, lambda d: state(d).get("loop"))
    focus = host.execute_script("return Number(document.getElementById('lyrics').dataset.current)")
    assert loop["start"] == pytest.approx(LINE_STARTS[focus] - 0.2, abs=0.01)
    ends = host.execute_script("return window.karaoke.song.parts[0].lines.map((l) => l.end)")
    assert loop["end"] == pytest.approx(ends[focus] + 0.3, abs=0.01)
    wait(host, lambda d: d.find_element(By.ID, "loop-band").is_displayed())
    wait(host, lambda d: d.find_element(By.ID, "practice-badge").is_displayed())
    assert "not on the leaderboard" in host.find_element(By.ID, "practice-badge").text
    screenshot(host, "remote-loop-line")
    # "Loop lines…": first line 1, last line 3.
    host.find_element(By.ID, "loop-lines").click()
    for index in (1, 3):
        line = host.find_element(By.CSS_SELECTOR, f"#lyrics .line[data-index='{index}']")
        host.execute_script("arguments[0].scrollIntoView({block: 'center'})", line)
        line.click()
    wait(host, lambda d: (state(d).get("loop") or {}).get("start") == pytest.approx(LINE_STARTS[1] - 0.2, abs=0.01)
         and state(d).get("loop")["end"] == pytest.approx(ends[3] + 0.3, abs=0.01))
    assert sent(host, "seekLine") == [], "tapping lines for a loop does not jump"
    host.find_element(By.ID, "loop-clear").click()
    wait(host, lambda d: state(d).get("loop") is None)


def test_key_and_speed_reset_in_settings(server, browser):
    host = open_remote(phone(browser), server, host=True)
    tab(host, "settings")
    host.find_element(By.ID, "key-up").click()
    wait(host, lambda d: state(d)["key"] == 1)
    host.find_element(By.ID, "tempo-down").click()
    wait(host, lambda d: state(d)["tempo"] == pytest.approx(0.95))
    host.find_element(By.ID, "key-reset").click()
    host.find_element(By.ID, "tempo-reset").click()
    wait(host, lambda d: state(d)["key"] == 0 and state(d)["tempo"] == 1)


def test_a_reconnect_keeps_the_hosts_tab(server, browser):
    # A reconnect is first answered as a display (the server's hello on connect), then as host:
    # the remote took that for two role changes and threw a host out of Settings onto Now.
    host = open_remote(phone(browser), server, host=True)
    tab(host, "settings")
    host.execute_script("window.karaoke.firstSocket = window.karaoke.ws; window.karaoke.ws.close()")
    wait(host, lambda d: d.execute_script(
        "return window.karaoke.ws !== window.karaoke.firstSocket && window.karaoke.role === 'host'"), timeout=15)
    # (the page ran the host hello's handlers before its role could be read as 'host')
    wait(host, lambda d: d.find_element(By.ID, "status").text == "live")
    assert host.find_element(By.ID, "tab-settings").is_displayed()
    assert not host.find_element(By.ID, "tab-now").is_displayed()
    assert host.find_element(By.ID, "role").text.lower() == "host"


SONGS = [(f"song{n}", TINY_SONG.replace("Tiny Test Song", f"Party Song {n}").replace("tiny.ogg", f"s{n}.ogg"))
         for n in range(1, 7)]


@pytest.fixture
def party_server():
    with tempfile.TemporaryDirectory(prefix="karaoke-party-") as directory:
        write_song_folders(directory, SONGS)
        server = Server(directory, options=["--no-audio"]).start()
        yield server
        server.stop()


def queue_song(driver, song_id):
    button = driver.find_element(By.CSS_SELECTOR, f"#library button[data-song-id='{song_id}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def test_three_guests_get_fair_turns_folded_duplicates_and_confirmations(party_server, browser):
    ann, bob, cy = (open_remote(phone(browser, name), party_server) for name in ("Ann", "Bob", "Cy"))
    for driver in (ann, bob, cy):
        wait(driver, lambda d: d.find_element(By.ID, "library-count").text == "6 of 6 songs")
    for driver, songs in ((ann, ["song1", "song2", "song3"]), (bob, ["song4", "song5"]), (cy, ["song6"])):
        for song in songs:
            queue_song(driver, song)
            wait(driver, lambda d, s=song: "Queued" in d.find_element(By.ID, "toast").text
                 and d.find_element(By.CSS_SELECTOR, f"#library button[data-song-id='{s}']").text == "Queued ✓")
    screenshot(ann, "remote-queued-toast")
    queue_song(ann, "song1")  # the same song again: folded
    wait(ann, lambda d: "already in your requests" in d.find_element(By.ID, "toast").text)
    wait(ann, lambda d: len(state(d)["queue"]) == 6)
    order = [item["requestedBy"] for item in state(ann)["queue"]]
    assert order == ["Ann", "Bob", "Cy", "Ann", "Bob", "Ann"], order
    starts = [item["startsIn"] for item in state(ann)["queue"]]
    assert starts == sorted(starts) and starts[0] == 0
    tab(ann, "queue")
    wait(ann, lambda d: "your requests: 3" in d.find_element(By.ID, "queue-summary").text)
    assert len(ann.find_elements(By.CSS_SELECTOR, "#queue li.mine")) == 3
    assert no_horizontal_overflow(ann)
    screenshot(ann, "remote-queue-mine")


def test_offline_banner_disables_the_controls(songs_dir, browser):
    server = Server(songs_dir).start()
    try:
        host = open_remote(phone(browser), server, host=True)
        port = server.port
        server.stop()
        wait(host, lambda d: d.find_element(By.ID, "offline-banner").is_displayed())
        assert not host.find_element(By.ID, "play").is_enabled()
        assert not host.find_element(By.ID, "next").is_enabled()
        screenshot(host, "remote-offline")
        # A command that still tries (a script, a control drawn meanwhile) is not silently lost.
        # Enabled and clicked in one script: a reconnect attempt in between would disable it again.
        host.execute_script("const play = document.getElementById('play'); play.disabled = false; play.click()")
        wait(host, lambda d: "Not sent" in d.find_element(By.ID, "toast").text)
        server = Server(songs_dir, port=port).start()
        wait(host, lambda d: not d.find_element(By.ID, "offline-banner").is_displayed(), timeout=20)
        wait(host, lambda d: d.find_element(By.ID, "next").is_enabled())
    finally:
        server.stop()


def generate_library(directory, count):
    """`count` song folders with accented artists; "Beyoncé – Halo" is the one searched for."""
    artists = ["Céline Dion", "Sigur Rós", "Björk", "Mötley Crüe", "Queen", "Nena", "Édith Piaf"]
    words = ["love", "night", "fire", "river", "heart", "city", "summer", "rain", "señorita", "café", "moon"]
    root = pathlib.Path(directory)
    for i in range(count):
        title = f"{words[i % len(words)].title()} {words[(i * 7 + 3) % len(words)].title()} {i}"
        folder = root / f"{i:05d}"
        folder.mkdir()
        (folder / "song.txt").write_text(f"#TITLE:{title}\n#ARTIST:{artists[i % len(artists)]}\n#MP3:a.ogg\n#BPM:300\n"
                                         ": 0 10 0 la\nE\n", encoding="utf-8")
    folder = root / "halo"
    folder.mkdir()
    (folder / "song.txt").write_text("#TITLE:Halo\n#ARTIST:Beyoncé\n#MP3:a.ogg\n#BPM:300\n: 0 10 0 la\nE\n", encoding="utf-8")


def test_ten_thousand_songs_start_fast_search_folded_and_show_the_count(browser, tmp_path):
    songs, scores = tmp_path / "songs", tmp_path / "scores"
    songs.mkdir()
    scores.mkdir()
    generate_library(songs, 10_000)
    options = ["--no-audio", "--scores", str(scores)]
    # The first start (no cache: every folder is read) answers at once and reads in the background.
    first = Server(songs, options=options)
    try:
        began = time.monotonic()
        first.start()
        with urllib.request.urlopen(first.url("/remote"), timeout=5) as answer:
            assert answer.status == 200
        answered = time.monotonic() - began
        print(f"first start (no cache) answered the remote page in {answered:.2f} s")
        assert answered <= 2.0, f"first start answered after {answered:.2f} s"
        guest = open_remote(phone(browser, "Ann"), first)
        counting = wait(guest, lambda d: re.fullmatch(r"Reading your songs… [\d,]+ so far",
                                                       d.find_element(By.ID, "library-count").text), timeout=10)
        assert counting
        screenshot(guest, "remote-10000-reading")
        wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "50 of 10,001 songs", timeout=180)
        print(f"first start: library read {time.monotonic() - began:.1f} s after start")
        guest.find_element(By.ID, "search").send_keys("beyonce halo")
        wait(guest, lambda d: d.find_element(By.CSS_SELECTOR, "#library li strong").text == "Halo")
        wait(guest, lambda d: (scores / "library-index.json").exists())
    finally:
        first.stop()
    second = Server(songs, options=options)
    try:
        began = time.monotonic()
        second.start()
        ready = time.monotonic() - began
        print(f"second start ready in {ready:.2f} s")
        assert ready <= 2.0, f"second start took {ready:.2f} s"
        guest = open_remote(phone(browser, "Ann"), second)
        wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "50 of 10,001 songs", timeout=20)
        screenshot(guest, "remote-10000-songs")
        # Browse: artists by letter, then one artist's songs with their count.
        guest.find_element(By.ID, "browse-artists").click()
        wait(guest, lambda d: d.find_elements(By.CSS_SELECTOR, "#letters button"))
        letters = [b.text for b in guest.find_elements(By.CSS_SELECTOR, "#letters button")]
        assert letters == ["B", "C", "E", "M", "N", "Q", "S"], letters
        next(b for b in guest.find_elements(By.CSS_SELECTOR, "#letters button") if b.text == "B").click()
        wait(guest, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#artists li strong")] == ["Beyoncé", "Björk"])
        screenshot(guest, "remote-10000-artists")
        guest.find_elements(By.CSS_SELECTOR, "#artists li button")[1].click()
        wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "50 of 1,429 matching songs (library: 10,001)")
        assert guest.find_element(By.ID, "artist-name").text == "Björk"
        guest.find_element(By.ID, "artist-clear").click()
        wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "50 of 10,001 songs")
        guest.execute_script("window.karaoke.on('library', (page) => { window.lastLibrary = page; })")
        guest.find_element(By.ID, "search").send_keys("beyonce halo")
        answer = wait(guest, lambda d: d.execute_script("""
            const s = window.lastLibrary; return s && s.query === 'beyonce halo' ? s : null"""), timeout=10)
        assert answer["songs"][0]["title"] == "Halo" and answer["songs"][0]["artist"] == "Beyoncé"
        # The search's own time is a figure (printed; Benchmarks/library), not judged here.
        print(f"search over 10,001 songs: {answer['elapsedMs']} ms in the server")
        wait(guest, lambda d: d.find_element(By.CSS_SELECTOR, "#library li strong").text == "Halo")
        screenshot(guest, "remote-10000-search")
    finally:
        second.stop()


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_the_remote_on_a_laptop_or_tv_screen(server, browser, width, height):
    host = browser(width, height)
    host.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    open_remote(host, server, host=True)
    play = host.find_element(By.ID, "play").rect
    assert play["y"] + play["height"] <= height and play["y"] >= height * 0.5
    for name in ("now", "songs"):
        tab(host, name)
        assert no_horizontal_overflow(host), name
        screenshot(host, f"remote-host-{name}-{width}x{height}")


def test_a_host_signs_out_the_other_host_devices(server, browser):
    """Settings → "Sign out other host devices": the other host phone becomes a guest at once and
    is asked for the PIN; a reload does not bring its host controls back (its token is dead);
    the host who asked keeps control."""
    keeper = open_remote(phone(browser, "Kim"), server, host=True)
    lost = open_remote(phone(browser, "Lou"), server, host=True)
    wait(lost, lambda d: d.execute_script("return !!localStorage.getItem('karaoke.hostToken')"))
    tab(keeper, "settings")
    button = keeper.find_element(By.ID, "sign-out-others")
    keeper.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    screenshot(keeper, "remote-sign-out-others-390x844")
    button.click()
    wait(keeper, lambda d: d.find_element(By.ID, "toast").text == "Signed out 1 other host device: they are guests now")
    wait(lost, lambda d: d.find_element(By.ID, "role").text.lower() == "guest")
    wait(lost, lambda d: "Another host signed this device out" in d.find_element(By.ID, "unlock-error").text)
    assert not lost.find_element(By.ID, "play").is_displayed()
    screenshot(lost, "remote-signed-out-390x844")
    lost.refresh()
    wait(lost, lambda d: d.find_element(By.ID, "status").text == "live")
    assert lost.find_element(By.ID, "role").text.lower() == "guest"
    assert keeper.find_element(By.ID, "role").text.lower() == "host"
