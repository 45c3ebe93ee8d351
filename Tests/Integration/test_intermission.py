"""The pause between songs: after a song ends with another queued, the room waits (host
setting), the TV display and the remote count down, and the host's ▶ starts the song at once."""
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Server, screenshot, wait
from test_remote import open_remote, phone, state, tab


@pytest.fixture
def room(songs_dir):
    server = Server(songs_dir, options=["--no-audio"]).start()
    yield server
    server.stop()


def end_first_song(host, pause):
    host.execute_script(f"""
        const k = window.karaoke;
        k.send('pauseBetweenSongs', {{seconds: {pause}}});
        k.send('queueAdd', {{songId: 'tiny', requestedBy: 'Ann'}});
        k.send('queueAdd', {{songId: 'second', requestedBy: 'Bob'}});
        k.send('play');""")
    wait(host, lambda d: (state(d) or {}).get("transport") == "playing" and state(d).get("songId") == "tiny")
    duration = state(host)["duration"]
    host.execute_script(f"window.karaoke.send('seek', {{position: {duration - 0.3}}})")



def open_display(browser, room, width, height):
    """The TV display at `width`×`height` (a phone-sized one as a phone), once it has the state."""
    display = browser(width, height)
    display.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
    display.get(room.url("/display"))
    wait(display, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state)"))
    return display

@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768), (1920, 1080)])
def test_display_counts_down_the_pause_and_the_host_starts_the_song(room, browser, width, height):
    host = open_remote(phone(browser), room, host=True)
    display = open_display(browser, room, width, height)
    end_first_song(host, 30)
    text = wait(display, lambda d: re.fullmatch(r"Next song in (\d+) s", d.find_element(By.ID, "countdown").text), timeout=10)
    assert 20 <= int(text.group(1)) <= 30, text.group(0)
    assert state(host)["songId"] == "second" and state(host)["transport"] == "stopped"
    # The remote counts down too, and says ▶ starts it.
    tab(host, "now")
    wait(host, lambda d: re.fullmatch(r"Next song in \d+ s — ▶ starts it now", d.find_element(By.ID, "intermission").text))
    first = int(text.group(1))
    wait(display, lambda d: int(re.search(r"\d+", d.find_element(By.ID, "countdown").text).group(0)) < first, timeout=3)
    screenshot(display, f"display-intermission-{width}x{height}")
    if width == 390:
        screenshot(host, "remote-intermission-390x844")
        tab(host, "settings")
        pause = host.find_element(By.ID, "pause-between")
        host.execute_script("arguments[0].scrollIntoView({block: 'center'})", pause)
        assert pause.get_attribute("value") == "30"
        screenshot(host, "remote-settings-pause-390x844")
        tab(host, "now")
    # The queue's confirmation toasts fade first (they sit over the transport for 3 s).
    wait(host, lambda d: "show" not in d.find_element(By.ID, "toast").get_attribute("class"), timeout=6)
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: state(d)["transport"] == "playing" and state(d)["songId"] == "second" and not state(d).get("intermission"),
         timeout=3)
    wait(display, lambda d: not d.find_element(By.ID, "countdown").text.startswith("Next song"), timeout=3)
    assert host.find_element(By.ID, "intermission").get_attribute("hidden") is not None


def test_the_hosts_tv_text_size_reaches_every_display_unless_one_sets_its_own(room, browser):
    """Large print is a host setting (Settings → "TV text size"); a display opened with its own
    `#scale=` keeps it (a small second screen beside a big TV)."""
    host = open_remote(phone(browser), room, host=True)
    tv, small = browser(1920, 1080), browser(1366, 768)
    tv.get(room.url("/display"))
    small.get(room.url("/display#scale=80"))
    scale = "return getComputedStyle(document.documentElement).getPropertyValue('--print-scale').trim()"
    for page in (tv, small):
        wait(page, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state)"))
    host.execute_script("window.karaoke.send('queueAdd', {songId: 'tiny', requestedBy: 'Ann', playNow: true})")
    line_height = "const l = document.querySelector('#lyrics .line'); return l ? l.getBoundingClientRect().height : 0"
    before = wait(tv, lambda d: d.execute_script(line_height))
    tab(host, "settings")
    Select(host.find_element(By.ID, "display-scale")).select_by_value("150")
    wait(tv, lambda d: d.execute_script(scale) == "1.5")
    assert small.execute_script(scale) == "0.8"
    wait(host, lambda d: (state(d) or {}).get("displayScale") == 150)
    wait(tv, lambda d: d.execute_script(line_height) > 1.3 * before)
    screenshot(tv, "display-large-print-1920x1080")


HELD = "singer 1's microphone is being calibrated"


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768), (1920, 1080)])
def test_a_countdown_held_by_a_calibration_says_why_and_fits(room, browser, width, height):
    """A --no-audio room cannot calibrate (RoomIntermissionTests covers the room's side with a
    fake live session): the state the room sends then (`intermission.heldBy`, `endsIn` 0) is
    given to the pages as it arrives, and they say why the song waits, on the screen."""
    host = open_remote(phone(browser), room, host=True)
    display = open_display(browser, room, width, height)
    end_first_song(host, 60)
    wait(display, lambda d: d.find_element(By.ID, "countdown").text.startswith("Next song in"), timeout=10)
    held = """
        const k = window.karaoke;
        const s = Object.assign({}, k.state, {intermission: Object.assign({}, k.state.intermission, {endsIn: 0, heldBy: arguments[0]})});
        k.state = s; k.emit('state', s);"""
    display.execute_script(held, HELD)
    wait(display, lambda d: d.find_element(By.ID, "countdown").text.replace("\n", " ") == f"Next song waits: {HELD}", timeout=3)
    box = display.execute_script("const r = document.getElementById('countdown').getBoundingClientRect();"
                                 "return [r.left, r.top, r.right, r.bottom];")
    assert 0 <= box[0] and box[2] <= width and box[3] <= height, box
    screenshot(display, f"display-intermission-held-{width}x{height}")
    if width == 390:
        tab(host, "now")
        host.execute_script(held, HELD)
        wait(host, lambda d: d.find_element(By.ID, "intermission").text == f"Next song waits: {HELD}", timeout=3)
        screenshot(host, "remote-intermission-held-390x844")


def test_results_and_the_score_card_stay_on_the_song_just_sung_until_the_next_one_plays(room, browser):
    """Right after a song, the next one is already loaded (the pause counts down): /results and
    the TV's score card still name the song just sung and show its lines, /results says what
    comes next, and /results follows the next song once it plays."""
    host = open_remote(phone(browser), room, host=True)
    results = browser(1366, 768)
    results.get(room.url("/results"))
    wait(results, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state)"))
    display = open_display(browser, room, 1920, 1080)
    end_first_song(host, 30)
    wait(results, lambda d: d.execute_script("return window.karaoke.song && window.karaoke.song.id") == "second", timeout=15)
    wait(results, lambda d: d.find_element(By.ID, "title").text == "Results — Tiny Test Song", timeout=10)
    assert results.find_element(By.ID, "artist").text == "Browser Tests · next: Second Song"
    screenshot(results, "results-song-just-sung-1366x768")
    card = wait(display, lambda d: d.find_element(By.ID, "score-screen").is_displayed()
                and d.find_element(By.CSS_SELECTOR, "#score-screen .score-heading").text, timeout=10)
    assert card == "Scores — Tiny Test Song"
    assert display.find_element(By.CSS_SELECTOR, "#score-screen .score-artist").text == "Browser Tests"
    screenshot(display, "display-score-card-next-song-loaded-1920x1080")
    # ▶ ends the pause: the next song plays, and /results is about it.
    wait(host, lambda d: "show" not in d.find_element(By.ID, "toast").get_attribute("class"), timeout=6)
    host.find_element(By.ID, "play").click()
    wait(results, lambda d: d.find_element(By.ID, "title").text == "Results — Second Song", timeout=10)
    assert results.find_element(By.ID, "artist").text == "Queue Tests"
    assert results.find_element(By.ID, "totals").text == "No scores yet"


def test_results_say_when_the_saved_scores_cannot_be_read_and_give_run_times_to_the_second(room, browser):
    """What the page does with a `results` answer: a run's time to the second (two tries a
    minute apart are told apart), and a database that cannot be read said as such, not shown as
    "no saved results"."""
    results = browser(1366, 768)
    results.get(room.url("/results"))
    wait(results, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state)"))
    results.execute_script("""
        window.karaoke.receive({type: 'results', v: 1, songId: 'tiny', lines: [], totals: [], leaderboard: [],
          runs: [{songId: 'tiny', songTitle: 'Tiny Test Song', singer: 'Ann', part: 0, total: 5120, status: 'complete',
                  mode: 'ultrastar', difficulty: 'medium', key: 0, tempo: 1,
                  startedAt: '2026-12-07T21:05:09Z', finishedAt: '2026-12-07T21:05:40Z'}]});""")
    run = wait(results, lambda d: d.find_element(By.CSS_SELECTOR, "#full-runs .who").text)
    assert re.search(r"\d{2}:\d{2}:\d{2}", run), run
    results.execute_script("""
        window.karaoke.receive({type: 'results', v: 1, songId: 'tiny', lines: [], totals: [], leaderboard: [],
          storedUnreadable: "The saved scores can't be read right now."});""")
    for list_id in ("leaderboard", "full-runs", "practice-runs"):
        assert results.find_element(By.ID, list_id).text == "The saved scores can't be read right now.", list_id
    screenshot(results, "results-store-unreadable-1366x768")


def test_the_now_tab_says_what_play_starts_when_nothing_is_loaded(room, browser):
    """Songs wait but none is loaded yet: the host's Now tab names the first queued song and its
    singer and says ▶ starts it; ▶ then loads and plays that song."""
    host = open_remote(phone(browser), room, host=True)
    assert host.execute_script("return window.karaoke.song") is None, "the room starts with a song loaded"
    assert host.find_element(By.ID, "title").text == "No song"
    host.execute_script("""
        window.karaoke.send('queueAdd', {songId: 'second', requestedBy: 'Bob'});
        window.karaoke.send('queueAdd', {songId: 'tiny', requestedBy: 'Ann'});""")
    tab(host, "now")
    wait(host, lambda d: d.find_element(By.ID, "title").text == "Next: Second Song")
    assert host.find_element(By.ID, "artist").text == "Queue Tests · Bob sings"
    assert host.find_element(By.CSS_SELECTOR, "#lyrics .line.empty").text == "▶ starts “Second Song”"
    screenshot(host, "remote-now-up-next-390x844")
    wait(host, lambda d: "show" not in d.find_element(By.ID, "toast").get_attribute("class"), timeout=6)
    host.find_element(By.ID, "play").click()
    wait(host, lambda d: (state(d) or {}).get("songId") == "second" and d.find_element(By.ID, "title").text == "Second Song")
