"""TV and singer screens (issue 13): connection state, the display's join screen and QR code,
score screen, singer view scale, results grouping, and a layout check at three sizes.
Screenshots go to test-artifacts/ (gitignored)."""
import json
import shutil
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, PIN, Server, screenshot, wait

SIZES = [(390, 844), (1366, 768), (1920, 1080)]


def open_live(driver, url):
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.online && window.karaoke.state)"))


def open_host_remote(browser, server):
    remote = browser(420, 900)
    open_live(remote, server.url(f"/remote#pin={PIN}"))
    wait(remote, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    return remote


def position(driver):
    return driver.execute_script("return window.karaoke.position()")


def test_every_page_says_plainly_when_the_server_is_gone_and_resumes(songs_dir, browser):
    server = Server(songs_dir).start()
    try:
        pages = {}
        for path in ("/", "/display", "/results"):
            driver = browser(1366, 768)
            open_live(driver, server.url(path))
            pages[path] = driver
        remote = open_host_remote(browser, server)
        pages["/remote"] = remote
        remote.find_element(By.ID, "play").click()
        wait(pages["/"], lambda d: d.execute_script("return window.karaoke.state.transport") == "playing")
        for driver in pages.values():
            driver.execute_script("window.notReloaded = true")
        port = server.port
        server.stop()
        for path, driver in pages.items():
            banner = wait(driver, lambda d: d.find_element(By.ID, "connection-banner"), timeout=5)
            wait(driver, lambda d: banner.is_displayed(), timeout=5)
            assert "can't reach the karaoke server" in banner.text.lower(), path
            assert banner.get_attribute("role") == "alert"
        # The clock stops: two readings a second apart are the same.
        for path in ("/", "/display"):
            before = position(pages[path])
            time.sleep(1.0)
            assert position(pages[path]) == before, path
        # Controls are disabled while nobody can act on them.
        assert not remote.find_element(By.ID, "play").is_enabled()
        assert not remote.find_element(By.ID, "key-up").is_enabled()
        for path, driver in pages.items():
            screenshot(driver, f"screens-offline{path.replace('/', '-') or '-sing'}")

        server = Server(songs_dir, port=port).start()
        for path, driver in pages.items():
            wait(driver, lambda d: not d.find_element(By.ID, "connection-banner").is_displayed(), timeout=20)
            assert driver.execute_script("return window.notReloaded") is True, path
        wait(remote, lambda d: d.find_element(By.ID, "play").is_enabled(), timeout=5)
        assert remote.find_element(By.ID, "key-up").is_enabled()
        # The restarted room is stopped at 0; the pages follow it again.
        wait(pages["/"], lambda d: d.execute_script("return window.karaoke.state.transport") == "stopped")
        assert position(pages["/"]) < 0.1
    finally:
        server.stop()


def fetch(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.headers.get("Content-Type"), response.read().decode()


def test_join_svg_is_a_qr_code_of_the_remote_address(server, browser):
    kind, svg = fetch(server.url("/join.svg"))
    assert kind.startswith("image/svg+xml")
    assert svg.startswith("<svg") and "<path" in svg
    _, join_url = fetch(server.url("/join.txt"))
    join_url = join_url.strip()
    # --host 127.0.0.1: the only address a phone could use is this one.
    assert join_url == server.url("/remote")
    if not shutil.which("zbarimg"):
        pytest.skip("zbarimg not installed (scripts/setup --test installs zbar-tools)")
    driver = browser(600, 600)
    driver.get(server.url("/join.svg"))
    ARTIFACTS.mkdir(exist_ok=True)
    png = ARTIFACTS / "join-qr.png"
    driver.save_screenshot(str(png))
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, timeout=20)
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.strip() == join_url
    # The address opens the remote.
    remote = browser(420, 900)
    open_live(remote, decoded.stdout.strip())
    assert remote.find_element(By.ID, "role").text.lower() == "guest"


def test_display_join_screen_between_songs_at_three_sizes(server, browser):
    guest = browser(420, 900)
    open_live(guest, server.url("/remote"))
    guest.execute_script("window.karaoke.send('queueAdd', {songId: 'second', requestedBy: 'Mia'})")
    _, join_url = fetch(server.url("/join.txt"))
    for width, height in SIZES:
        display = browser(width, height)
        open_live(display, server.url("/display"))
        wait(display, lambda d: d.find_element(By.ID, "join-screen").is_displayed())
        wait(display, lambda d: d.find_element(By.ID, "join-url").text == join_url.strip())
        qr = display.find_element(By.ID, "join-qr")
        assert qr.is_displayed()
        assert display.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", qr)
        box = qr.rect
        assert box["width"] >= min(width, height) * 0.3, box  # scannable across a room
        wait(display, lambda d: "Second Song — requested by Mia" in d.find_element(By.ID, "up-next").text)
        # The loaded song, not started yet, is named as what comes next.
        assert display.find_element(By.ID, "heading-label").text.lower() == "up next"
        assert "Tiny Test Song" in display.find_element(By.ID, "title").text
        assert "after that" in display.find_element(By.ID, "up-next").text.lower()
        assert not display.find_element(By.ID, "lyrics").is_displayed()
        screenshot(display, f"screens-display-join-{width}x{height}")
    # Once the host starts the song, the lyrics replace the join screen, with live scores in the sofa bar.
    remote = open_host_remote(browser, server)
    remote.find_element(By.ID, "play").click()
    wait(display, lambda d: not d.find_element(By.ID, "join-screen").is_displayed())
    assert display.find_element(By.ID, "lyrics").is_displayed()
    display.execute_script("window.karaoke.receive({type: 'total', v: 1, singer: 0, name: 'Alice', score: 4321, final: false})")
    wait(display, lambda d: "Alice" in d.find_element(By.ID, "score-corner").text)
    assert "4,321" in display.find_element(By.ID, "score-corner").text
    wait(display, lambda d: d.find_elements(By.CSS_SELECTOR, "#lyrics .line.current.active"), timeout=5)
    screenshot(display, "screens-display-singing-1920x1080")


@pytest.fixture
def duet_server(tmp_path):
    import pathlib
    songs = pathlib.Path(__file__).resolve().parents[2] / "songs"
    server = Server(songs, options=["--no-audio", "--song", "demo-duet", "--scores", str(tmp_path)]).start()
    yield server
    server.stop()


def play_part_two_solo(browser, server, page):
    """Seeks the duet to part 2's solo (a line of part 2 while part 1 has none), plays, and waits
    until `page` shows that line as the one being sung. Returns the song's parts."""
    parts = page.execute_script("return window.karaoke.song")["parts"]
    assert len(parts) == 2
    solo = next(line for line in parts[1]["lines"]
                if not any(p["start"] < line["end"] and line["start"] < p["end"] for p in parts[0]["lines"]))
    remote = open_host_remote(browser, server)
    remote.execute_script("window.karaoke.send('seek', {position: arguments[0]})", solo["start"] + 0.3)
    remote.execute_script("window.karaoke.send('play')")
    wait(page, lambda d: d.execute_script(
        "const e = document.querySelector('#lyrics2 .line.current.active'); return e && Number(e.dataset.index)") == solo["index"])
    return parts


def test_display_shows_both_duet_parts_and_part_two_solo(duet_server, browser):
    display = browser(1920, 1080)
    open_live(display, duet_server.url("/display"))
    play_part_two_solo(browser, duet_server, display)
    assert display.find_element(By.ID, "lyrics2").is_displayed()
    assert display.find_element(By.ID, "lyrics").is_displayed()
    assert display.find_elements(By.CSS_SELECTOR, "#lyrics .line.active") == []  # part 1 is silent
    labels = [display.find_element(By.ID, f"part-label-{i}").text for i in (0, 1)]
    assert all(labels), labels
    screenshot(display, "screens-display-duet-part2-solo")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_tv_names_the_song_and_shows_names_and_totals_from_the_sofa(duet_server, browser, size):
    """While a duet plays, the TV names the song once its heading has gone, shows each singer's
    name and total at 4.6 % of the screen's height (50 px on 1080p) under the lyrics, and no part
    label or lyric line runs into another or under that bar."""
    width, height = size
    display = browser(width, height)
    display.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    open_live(display, duet_server.url("/display"))
    play_part_two_solo(browser, duet_server, display)
    display.execute_script("""for (const [singer, name, score] of [[0, 'Alice', 4321], [1, 'Bartholomew', 10000]])
        window.karaoke.receive({type: 'total', v: 1, singer, name, score, final: false});""")
    wait(display, lambda d: "Bartholomew" in d.find_element(By.ID, "score-corner").text)
    song = display.execute_script("return window.karaoke.song")
    wait(display, lambda d: d.find_element(By.ID, "now-title").is_displayed()
         and d.find_element(By.ID, "now-title").text == song["title"])
    assert display.find_element(By.ID, "now-artist").text == song["artist"]
    figures = display.execute_script("""
        const px = (e) => parseFloat(getComputedStyle(e).fontSize);
        const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
        const seen = (e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden';
        return {
          names: [...document.querySelectorAll('#score-corner .name')].map(px),
          points: [...document.querySelectorAll('#score-corner .points')].map(px),
          title: px(document.getElementById('now-title')),
          bar: box(document.getElementById('sofa-bar')),
          labels: [0, 1].map((i) => box(document.getElementById('part-label-' + i))),
          lines: [...document.querySelectorAll('#lyrics .line, #lyrics2 .line')].filter(seen).map((e) => {
            const r = box(e), c = box(e.closest('.lyrics'));
            // What shows of a line: the part inside its lyric box (the box clips and fades the rest).
            return {top: Math.max(r.top, c.top), bottom: Math.min(r.bottom, c.bottom)}; }).filter((r) => r.bottom > r.top),
        };""")
    print(f"TV {width}x{height}: names {figures['names']} px, totals {figures['points']} px, title {figures['title']} px")
    floor = 0.045 * height
    assert len(figures["names"]) == 2 and min(figures["names"] + figures["points"]) >= floor, (floor, figures)
    assert figures["title"] >= 0.03 * height, figures
    overlaps = lambda a, b: a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5
    for line in figures["lines"]:
        assert not overlaps(line, figures["bar"]), ("a lyric line runs under the sofa bar", line, figures["bar"])
        for label in figures["labels"]:
            assert not overlaps(line, label), ("a part label overlaps a lyric line", line, label)
    assert figures["bar"]["bottom"] <= height + 0.5, figures["bar"]
    screenshot(display, f"screens-display-sofa-{width}x{height}")


@pytest.mark.parametrize("size", SIZES)
def test_singer_view_shows_both_duet_parts_lyrics(duet_server, browser, size):
    """The singer view of a duet (no ?part=) shows part 1's and part 2's lyrics, each under a
    label naming who sings it; during part 2's solo part 2's line is the one being sung."""
    driver = browser(*size)
    open_live(driver, duet_server.url("/"))
    parts = play_part_two_solo(browser, duet_server, driver)
    assert driver.find_element(By.ID, "lyrics").is_displayed() and driver.find_element(By.ID, "lyrics2").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#lyrics .line.active") == []  # part 1 is silent
    labels = [driver.find_element(By.ID, f"part-label-{i}").text for i in (0, 1)]
    seats = driver.execute_script("return window.karaoke.state.singers")
    for index, label in enumerate(labels):
        names = [seat["name"] for seat in seats if seat.get("part") == index]
        assert label == " · ".join([" & ".join(names), parts[index]["name"]] if names else [parts[index]["name"]]), labels
    # Both halves keep their current line readable and inside the page. Measured once the
    # lyrics have stopped scrolling: a line change mid-measurement (CI, load ~5) caught part 1's
    # line on its way to the centre, half out of its box; a real overflow stays and still fails.
    def measure(d):
        return d.execute_script("""return ['lyrics', 'lyrics2'].map((id) => {
            const r = document.querySelector('#' + id + ' .line.current').getBoundingClientRect();
            const c = document.getElementById(id).getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, height: r.height, boxTop: c.top, boxBottom: c.bottom}; })""")

    def settled(d):
        first = measure(d)
        time.sleep(0.25)
        second = measure(d)
        return second if first == second else None

    boxes = wait(driver, settled, timeout=5)
    for box in boxes:
        assert box["height"] >= 0.025 * size[1], boxes
        assert box["boxTop"] - 2 <= box["top"] and box["bottom"] <= box["boxBottom"] + 2, boxes
    assert boxes[0]["boxBottom"] <= boxes[1]["boxTop"] + 1, boxes  # part 1 above part 2, not overlapping
    screenshot(driver, f"screens-sing-duet-lyrics-{size[0]}x{size[1]}")


def test_singer_view_for_one_part_shows_only_that_part(duet_server, browser):
    driver = browser(1366, 768)
    open_live(driver, duet_server.url("/?part=1"))
    parts = driver.execute_script("return window.karaoke.song")["parts"]
    assert not driver.find_element(By.ID, "part-2-box").is_displayed()
    first = driver.find_element(By.CSS_SELECTOR, "#lyrics .line").text
    assert first.replace(" ", "") == "".join(s["text"] for s in parts[1]["lines"][0]["syllables"]).replace(" ", "")


RESULTS = {
    "type": "results", "v": 1, "songId": "tiny",
    "lines": [
        {"singer": 0, "part": 0, "line": 0, "score": 1400, "maxScore": 1500, "rating": "great", "songId": "tiny",
         "notes": 1200, "golden": 0, "bonus": 200},
        {"singer": 0, "part": 0, "line": 3, "score": 900, "maxScore": 2000, "rating": "ok", "songId": "tiny",
         "notes": 400, "golden": 400, "bonus": 100},
        {"singer": 1, "part": 0, "line": 0, "score": 300, "maxScore": 1500, "rating": "poor", "songId": "tiny",
         "notes": 250, "golden": 0, "bonus": 50},
    ],
    "totals": [{"singer": 0, "name": "Alice", "score": 2300, "final": True, "songId": "tiny"},
               {"singer": 1, "name": "Bob", "score": 300, "final": True, "songId": "tiny"}],
    "leaderboard": [{"songId": "tiny", "singer": "Carol", "score": 9100, "date": "2026-11-20T20:00:00Z"},
                    {"songId": "tiny", "singer": "Alice", "score": 2300, "date": "2026-11-25T06:00:00Z"}],
}


@pytest.mark.parametrize("path", ["/", "/display"])
def test_score_screen_after_a_song(server, browser, path):
    for width, height in SIZES:
        driver = browser(width, height)
        open_live(driver, server.url(path))
        assert not driver.find_element(By.ID, "score-screen").is_displayed()
        driver.execute_script("window.karaoke.receive(arguments[0])", RESULTS)
        screen = wait(driver, lambda d: d.find_element(By.ID, "score-screen"))
        wait(driver, lambda d: screen.is_displayed(), timeout=2)
        cards = driver.find_elements(By.CSS_SELECTOR, "#score-screen .score-card")
        assert [c.find_element(By.CLASS_NAME, "score-name").text for c in cards] == ["Alice", "Bob"]
        alice = cards[0]
        assert alice.find_element(By.CLASS_NAME, "score-total").text == "2,300"
        assert alice.find_element(By.CLASS_NAME, "split-notes").text == "1,600"
        assert alice.find_element(By.CLASS_NAME, "split-golden").text == "400"
        assert alice.find_element(By.CLASS_NAME, "split-bonus").text == "300"
        assert alice.find_element(By.CLASS_NAME, "score-title").text == "Amateur"
        assert alice.find_element(By.CLASS_NAME, "score-rank").text == "#2 on this song's leaderboard"
        assert "One two" in alice.find_element(By.CLASS_NAME, "best").text
        assert "seven" in alice.find_element(By.CLASS_NAME, "worst").text.lower()
        assert "not in this song's top 2" == cards[1].find_element(By.CLASS_NAME, "score-rank").text
        screenshot(driver, f"screens-score{path.replace('/', '-') if path != '/' else '-sing'}-{width}x{height}")


# Text that sticks out: every text node's box must lie inside the viewport horizontally and
# inside every ancestor that clips (overflow other than visible) horizontally; an element that
# clips its own text without an ellipsis must not be wider inside than out; the page must not
# scroll sideways. Deliberate vertical scrolling (the lyric columns, long lists) is allowed.
OVERFLOW_CHECK = """
const problems = [];
const width = innerWidth;
if (document.documentElement.scrollWidth > width + 1) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
const describe = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
const visible = (e) => { for (let n = e; n; n = n.parentElement) { const s = getComputedStyle(n);
  if (s.display === 'none' || s.visibility === 'hidden' || n.hidden) return false; } return true; };
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim() || !visible(node.parentElement)) continue;
  const range = document.createRange(); range.selectNodeContents(node);
  const box = range.getBoundingClientRect();
  if (!box.width) continue;
  const text = node.textContent.trim().slice(0, 30);
  if (box.left < -1 || box.right > width + 1) problems.push(`"${text}" in ${describe(node.parentElement)} leaves the screen (${Math.round(box.left)}–${Math.round(box.right)})`);
  for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible') continue;
    if (s.textOverflow === 'ellipsis') break;
    const r = a.getBoundingClientRect();
    if (box.left < r.left - 1 || box.right > r.right + 1) { problems.push(`"${text}" sticks out of ${describe(a)}`); break; }
  }
}
for (const e of document.body.querySelectorAll('*')) {
  if (!visible(e)) continue;
  const s = getComputedStyle(e);
  if ((s.overflowX === 'hidden' || s.overflowX === 'clip') && s.textOverflow !== 'ellipsis' && e.scrollWidth > e.clientWidth + 1)
    problems.push(`${describe(e)} clips its content: ${e.scrollWidth} > ${e.clientWidth}`);
}
return problems;
"""


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def layout_states(server, browser):
    """Each page in the states a party sees: idle, playing with two singers' scores, score screen."""
    remote = open_host_remote(browser, server)
    remote.execute_script("window.karaoke.send('queueAdd', {songId: 'second', requestedBy: 'Somebody With A Long Name'})")
    return remote


def test_no_text_overflows_at_three_sizes(server, browser):
    remote = layout_states(server, browser)
    failures = {}
    pages = {path: browser(1366, 768) for path in ("/", "/display", "/results", "/remote")}
    for path, driver in pages.items():
        open_live(driver, server.url(path))
    states = [("idle", None)]
    checked = 0
    for state, _ in states + [("playing", None), ("scores", None)]:
        if state == "playing":
            remote.find_element(By.ID, "play").click()
            time.sleep(1.2)
        for path, driver in pages.items():
            if state == "playing":
                driver.execute_script("""const k = window.karaoke;
                    k.receive({type: 'total', v: 1, singer: 0, name: 'Alexandria', score: 7345, final: false});
                    k.receive({type: 'total', v: 1, singer: 1, name: 'Bartholomew', score: 12, final: false});""")
            if state == "scores":
                driver.execute_script("window.karaoke.receive(arguments[0])", RESULTS)
            for width, height in SIZES:
                set_viewport(driver, width, height)
                time.sleep(0.25)
                problems = driver.execute_script(OVERFLOW_CHECK)
                checked += 1
                name = f"layout-{state}{path.replace('/', '-') if path != '/' else '-sing'}-{width}x{height}"
                screenshot(driver, name)
                if problems:
                    failures[name] = problems[:6]
    summary = {"checked": checked, "failing": len(failures)}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "layout-check.json").write_text(json.dumps({"summary": summary, "failures": failures}, indent=2))
    assert not failures, json.dumps(failures, indent=2)


def test_singer_view_reads_at_three_metres_on_a_tv(server, browser):
    driver = browser(1366, 768)
    set_viewport(driver, 1920, 1080)
    open_live(driver, server.url("/"))
    remote = open_host_remote(browser, server)
    remote.find_element(By.ID, "play").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lyrics .line.current.active"), timeout=5)
    figures = driver.execute_script("""
        const line = document.querySelector('#lyrics .line.current.active');
        const box = line.getBoundingClientRect(), style = getComputedStyle(line);
        const span = line.querySelector('.syllable'), s = getComputedStyle(span);
        return {height: box.height, fontSize: parseFloat(style.fontSize), viewport: innerHeight,
                title: parseFloat(getComputedStyle(document.getElementById('title')).fontSize),
                sung: getComputedStyle(document.documentElement).getPropertyValue('--sung').trim(),
                unsung: getComputedStyle(document.documentElement).getPropertyValue('--unsung').trim()};""")
    print("singer view at 1920x1080:", figures)
    # The current line is at least 5 % of the screen's height, its letters (font size) too.
    assert figures["fontSize"] >= 0.05 * figures["viewport"], figures
    assert figures["height"] >= 0.05 * figures["viewport"], figures
    assert figures["title"] >= 0.02 * figures["viewport"], figures

    def luminance(hex_colour):
        channels = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    lighter, darker = sorted((luminance(figures["sung"]), luminance(figures["unsung"])), reverse=True)
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5, figures
    screenshot(driver, "screens-sing-playing-1920x1080")


def test_lead_in_counts_down_before_a_line_after_a_gap(server, browser):
    driver = browser(1366, 768)
    open_live(driver, server.url("/"))
    # Stopped at 0, the first line (0.5 s) is under a second away after a 0.5 s intro: the
    # lead-in shows when the gap before the line is 3 s or more, so shift the song's clock back.
    driver.execute_script("const k = window.karaoke; k.anchor = {position: -2.2, at: performance.now()}; k.position = () => -2.2;")
    wait(driver, lambda d: d.execute_script(
        "const e = document.querySelector('#lyrics .line.current'); return e && e.dataset.leadin") == "●●●", timeout=10)
    leadin = driver.execute_script("return document.querySelector('#lyrics .line.current').dataset.leadin")
    assert leadin == "●●●"
    assert "active" not in driver.find_element(By.CSS_SELECTOR, "#lyrics .line.current").get_attribute("class")


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1920, 1080)])
def test_two_singers_verdicts_stand_side_by_side_under_their_names(server, browser, size):
    """Two singers' lines end together: each verdict in its own place, named, none on top of the
    other (they were drawn at the same spot: "Perfect!" over "Great!" could not be read)."""
    driver = browser(*size)
    open_live(driver, server.url("/"))
    driver.execute_script("""const k = window.karaoke;
        k.receive({type: 'total', v: 1, singer: 0, name: 'Pulse', score: 2951, final: false});
        k.receive({type: 'total', v: 1, singer: 1, name: 'Ann', score: 2851, final: false});
        k.receive({type: 'lineScore', v: 1, singer: 1, part: 0, line: 0, score: 900, maxScore: 1000, rating: 'great'});
        k.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 0, score: 1000, maxScore: 1000, rating: 'perfect'});""")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#popups .popup")) == 2, timeout=2)
    time.sleep(0.4)  # the pop-in animation's scale settles
    screenshot(driver, f"screens-sing-two-verdicts-{size[0]}x{size[1]}")
    popups = driver.find_elements(By.CSS_SELECTOR, "#popups .popup")
    texts = [p.text.replace("\n", " ") for p in popups]
    assert texts == ["Pulse Perfect!", "Ann Great!"], texts  # in singer order, each under its name
    a, b = (p.rect for p in popups)
    assert a["x"] + a["width"] <= b["x"], (a, b)
    width = driver.execute_script("return window.innerWidth")
    assert 0 <= a["x"] and b["x"] + b["width"] <= width, (a, b, width)
    # A singer's next verdict takes the same place.
    driver.execute_script("""window.karaoke.receive({type: 'lineScore', v: 1, singer: 1, part: 0, line: 1, score: 500,
        maxScore: 1000, rating: 'good'})""")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#popups .popup")) == 3, timeout=2)
    slots = driver.execute_script("return [...document.querySelectorAll('#popups .popup-slot')].map(s => s.children.length)")
    assert slots == [1, 2], slots
    # The next song's singers get their places afresh: a lone verdict is centred again.
    driver.execute_script("""const k = window.karaoke;
        k.receive({type: 'song', v: 1, song: k.song});
        k.receive({type: 'lineScore', v: 1, singer: 1, part: 0, line: 0, score: 900, maxScore: 1000, rating: 'great'});""")
    slots = driver.execute_script("return [...document.querySelectorAll('#popups .popup-slot')].map(s => s.dataset.singer)")
    assert slots == ["1"], slots


def test_freestyle_line_gets_no_verdict_and_hits_fill_the_bars(server, browser):
    driver = browser(1366, 768)
    open_live(driver, server.url("/"))
    driver.execute_script("""window.karaoke.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 0, score: 0,
        maxScore: 0, rating: 'none'})""")
    time.sleep(0.3)
    assert driver.find_element(By.ID, "popups").text == ""
    remote = open_host_remote(browser, server)
    remote.find_element(By.ID, "play").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lyrics .line.current.active"), timeout=5)
    # Hit frames across the current line's first note: its bar fills in singer 2's colour (#ff6fb5).
    driver.execute_script("""
        const k = window.karaoke, line = k.song.parts[0].lines[Number(document.querySelector('#lyrics').dataset.current)];
        const note = line.syllables[0];
        for (let t = note.start; t < note.end; t += 0.02)
          k.receive({type: 'pitch', v: 1, singer: 1, time: t, hz: 0, midi: note.note.midi, target: note.note.midi, hit: true});""")
    time.sleep(0.3)
    pink = driver.execute_script("""
        const c = document.getElementById('notes'), g = c.getContext('2d');
        const data = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] > 230 && data[i+1] > 90 && data[i+1] < 130 && data[i+2] > 160 && data[i+2] < 200) n++;
        return n;""")
    assert pink > 300, pink
    screenshot(driver, "screens-sing-hit-fill")


@pytest.fixture
def demo_server(tmp_path):
    import pathlib
    songs = pathlib.Path(__file__).resolve().parents[2] / "songs"
    server = Server(songs, options=["--no-audio", "--song", "demo", "--scores", str(tmp_path)]).start()
    yield server
    server.stop()


def test_singer_view_animation_frame_times(demo_server, browser):
    """rAF deltas on the singer view at 1920×1080 over 20 s of playback with two singers' pitch
    frames arriving at 50 per second each (as `serve` publishes them). 60 fps means p95 ≤ 17 ms;
    that is asserted only on a quiet machine (load average below 1 per core), else recorded."""
    import os
    driver = browser(1366, 768)
    set_viewport(driver, 1920, 1080)
    # Time the page's own frame callbacks (script and canvas calls, not raster): the part of a
    # frame the page controls, which a loaded machine stretches least.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.originalRaf = window.requestAnimationFrame.bind(window);
        window.frameWork = [];
        window.requestAnimationFrame = (callback) => window.originalRaf((now) => {
          const start = performance.now(); callback(now); window.frameWork.push(performance.now() - start); });
    """})
    open_live(driver, demo_server.url("/"))
    remote = open_host_remote(browser, demo_server)
    remote.find_element(By.ID, "play").click()
    wait(driver, lambda d: d.execute_script("return window.karaoke.state.transport") == "playing")
    driver.execute_script("""
        const k = window.karaoke;
        window.frameDeltas = [];
        let last = null;
        const tick = (now) => { if (last !== null) window.frameDeltas.push(now - last); last = now;
                                if (window.frameDeltas.length < 100000) window.originalRaf(tick); };
        window.originalRaf(tick);
        window.frameWork = [];
        window.fakePitch = setInterval(() => {
          const t = k.position();
          for (const singer of [0, 1]) k.receive({type: 'pitch', v: 1, singer, time: t - 0.03, hz: 220,
            midi: 57 + 7 * Math.sin(t) + singer, target: 57, hit: Math.sin(t * 3) > 0});
        }, 20);""")
    load_before = os.getloadavg()[0]
    time.sleep(20)
    deltas = driver.execute_script("clearInterval(window.fakePitch); return window.frameDeltas")
    work = sorted(driver.execute_script("return window.frameWork"))
    load_after = os.getloadavg()[0]
    deltas.sort()
    figures = {
        "frames": len(deltas), "median_ms": round(deltas[len(deltas) // 2], 2),
        "p95_ms": round(deltas[int(len(deltas) * 0.95)], 2), "max_ms": round(deltas[-1], 2),
        "page_work_median_ms": round(work[len(work) // 2], 2), "page_work_p95_ms": round(work[int(len(work) * 0.95)], 2),
        "load_average": [round(load_before, 2), round(load_after, 2)], "cores": os.cpu_count(),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "raf-figures.json").write_text(json.dumps(figures, indent=2))
    print("rAF figures:", figures)
    screenshot(driver, "screens-sing-raf-1920x1080")
    if max(load_before, load_after) >= os.cpu_count():
        pytest.skip(f"machine not quiet (load average {figures['load_average']} on {os.cpu_count()} cores): measured {figures}")
    assert len(deltas) > 20 * 50, figures  # the page kept animating
    assert figures["p95_ms"] <= 17, figures


def test_results_page_groups_runs_with_titles_and_keeps_practice_apart(server, browser):
    driver = browser(1366, 768)
    open_live(driver, server.url("/results"))
    runs = [
        {"songId": "second", "songTitle": "Second Song", "singer": "Mia", "part": 0, "total": 2100, "status": "in-progress",
         "mode": "ultrastar", "difficulty": "medium", "key": 0, "tempo": 1, "startedAt": "2026-11-25T06:10:00Z"},
        {"songId": "tiny", "songTitle": "Tiny Test Song", "singer": "Alice", "part": 0, "total": 8400, "status": "complete",
         "mode": "ultrastar", "difficulty": "hard", "key": -2, "tempo": 0.9, "startedAt": "2026-11-25T06:00:00Z",
         "finishedAt": "2026-11-25T06:03:00Z"},
        {"songId": "tiny", "songTitle": "Tiny Test Song", "singer": "Bob", "part": 0, "total": 6100, "status": "complete",
         "mode": "practice", "difficulty": "easy", "key": 0, "tempo": 1, "startedAt": "2026-11-25T05:50:00Z",
         "finishedAt": "2026-11-25T05:53:00Z"},
    ]
    results = dict(RESULTS, runs=runs)
    # The page asks for the room's results on connect: let that answer land first.
    driver.execute_script("window.karaoke.on('results', () => { window.resultsSeen = true; }); window.karaoke.send('results')")
    wait(driver, lambda d: d.execute_script("return window.resultsSeen === true"))
    driver.execute_script("window.karaoke.receive(arguments[0])", results)
    wait(driver, lambda d: "Alice" in d.find_element(By.ID, "full-runs").text)
    full = driver.find_elements(By.CSS_SELECTOR, "#full-runs li")
    practice = driver.find_elements(By.CSS_SELECTOR, "#practice-runs li")
    assert len(full) == 1 and len(practice) == 2
    assert "Tiny Test Song" in full[0].text and "8,400" in full[0].text
    assert "hard · key -2 · tempo 90 %" in full[0].text
    assert "not sung to the end" in practice[0].text and "Second Song" in practice[0].text
    assert "practice mode" in practice[1].text
    # The leaderboard names songs by title, not id.
    board = driver.find_element(By.ID, "leaderboard").text
    assert "Tiny Test Song" in board and "tiny ·" not in board
    # One row per sung line: a line sung twice shows once (its latest score); freestyle is not judged.
    driver.execute_script("""const k = window.karaoke;
        k.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 1, score: 100, maxScore: 1000, rating: 'poor'});
        k.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 1, score: 900, maxScore: 1000, rating: 'great'});
        k.receive({type: 'lineScore', v: 1, singer: 0, part: 0, line: 2, score: 0, maxScore: 0, rating: 'none'});""")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tr")) == 2)
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#lines tr")]
    assert "900 (90 %)" in rows[0] and "Great" in rows[0]
    assert "—" in rows[1] and "not judged" in rows[1] and "Poor" not in rows[1]
    for width, height in SIZES:
        set_viewport(driver, width, height)
        time.sleep(0.25)
        assert driver.execute_script(OVERFLOW_CHECK) == []
        screenshot(driver, f"screens-results-runs-{width}x{height}")


def test_display_counts_down_to_the_first_line(demo_server, browser):
    display = browser(1366, 768)
    open_live(display, demo_server.url("/display"))
    first = display.execute_script("return window.karaoke.song.parts[0].lines[0].start")
    assert first > 3, "the demo song needs an intro for this test"
    remote = open_host_remote(browser, demo_server)
    remote.find_element(By.ID, "play").click()
    countdown = display.find_element(By.ID, "countdown")
    wait(display, lambda d: countdown.is_displayed() and "Singing starts in" in countdown.text)
    seconds = int(countdown.text.split("in ")[1].split(" ")[0])
    assert 1 <= seconds <= int(first) + 1
    screenshot(display, "screens-display-countdown")
    wait(display, lambda d: not countdown.is_displayed(), timeout=first + 5)


def test_singer_view_shows_a_duet_in_two_lanes(duet_server, browser):
    driver = browser(1366, 768)
    open_live(driver, duet_server.url("/"))
    wait(driver, lambda d: d.execute_script("return !!window.karaoke.song"))
    # Hit frames on each part's first note: singer 1 (cyan) sings part 1, singer 2 (pink) part 2.
    driver.execute_script("""
        const k = window.karaoke, [one, two] = k.song.parts;
        // A moment both parts sing: a second into the first overlap of a part-1 and a part-2 line.
        let at = null;
        for (const a of one.lines) for (const b of two.lines)
          if (at === null && a.start < b.end && b.start < a.end) at = Math.max(a.start, b.start) + 1;
        k.position = () => at;
        k.song.parts.forEach((part, singer) => {
          const line = part.lines.find((l) => l.start <= at && at < l.end);
          for (const s of line.syllables) if (s.note && s.start < at)
            for (let t = s.start; t < Math.min(s.end, at); t += 0.02)
              k.receive({type: 'pitch', v: 1, singer, time: t, hz: 0, midi: s.note.midi, target: s.note.midi, hit: true});
        });""")
    time.sleep(0.5)
    counts = driver.execute_script("""
        const c = document.getElementById('notes'), g = c.getContext('2d'), half = Math.floor(c.height / 2);
        const count = (y0, y1, test) => { const d = g.getImageData(0, y0, c.width, y1 - y0).data; let n = 0;
          for (let i = 0; i < d.length; i += 4) if (test(d[i], d[i+1], d[i+2])) n++; return n; };
        const cyan = (r, g, b) => r < 110 && g > 180 && b > 230, pink = (r, g, b) => r > 230 && g > 90 && g < 130 && b > 160 && b < 200;
        return {cyanTop: count(0, half, cyan), cyanBottom: count(half, c.height, cyan),
                pinkTop: count(0, half, pink), pinkBottom: count(half, c.height, pink)};""")
    screenshot(driver, "screens-sing-duet-lanes")
    assert counts["cyanTop"] > 100 and counts["pinkBottom"] > 100, counts
    assert counts["cyanBottom"] == 0 and counts["pinkTop"] == 0, counts
