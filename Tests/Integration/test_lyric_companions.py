"""A TTML song with Apple-style companions (issue 42): the sung line never carries its translation;
the translation (or romanisation, as the host chooses) shows under it and the background vocals
as a second, smaller line, on the singer view and the TV. Screenshots in the test output."""
import pathlib
import shutil

from selenium.webdriver.common.by import By

from conftest import PIN, Server, screenshot, send_command, wait

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "songs" / "formats" / "apple-roles.ttml"

CURRENT = """
const line = document.querySelector(arguments[0] + ' .line.current');
if (!line) return null;
const shown = (selector) => {
  const element = line.querySelector(selector);
  return element && getComputedStyle(element).display !== 'none' ? element.textContent.trim() : null;
};
return {
  index: Number(line.dataset.index),
  sung: [...line.children].filter((c) => c.classList.contains('syllable')).map((c) => c.textContent).join(''),
  translation: shown('.companion.translation'),
  romanization: shown('.companion.romanization'),
  background: shown('.background-vocals'),
  lineHeight: line.getBoundingClientRect().height,
  sungFont: parseFloat(getComputedStyle(line).fontSize),
  companionFont: line.querySelector('.companion') ? parseFloat(getComputedStyle(line.querySelector('.companion')).fontSize) : null,
};
"""


def current(driver, view):
    return driver.execute_script(CURRENT, view)


def test_translation_and_romanisation_show_under_the_sung_line_on_the_singer_view_and_the_tv(tmp_path, browser):
    folder = tmp_path / "kami"
    folder.mkdir()
    shutil.copy(FIXTURE, folder / "kami.ttml")
    server = Server(tmp_path, options=["--no-audio", "--song", "kami"]).start()
    try:
        singer = browser(1366, 768)
        singer.get(server.url("/"))
        tv = browser(1920, 1080)
        tv.get(server.url("/display"))
        remote = browser(420, 900)
        remote.get(server.url(f"/remote#pin={PIN}"))
        wait(remote, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state && window.karaoke.role === 'host')"))
        # Played, then held inside the first line (1.0-6.5 s) so every view shows it as long as
        # the test looks (a paused song is still on: the TV keeps its lyrics).
        send_command(remote, "play")
        wait(remote, lambda d: d.execute_script("return window.karaoke.state.transport") == "playing", timeout=15)
        send_command(remote, "pause")
        send_command(remote, "seek", position=3.0)
        for driver in (singer, tv):
            wait(driver, lambda d: (current(d, "#lyrics") or {}).get("index") == 0 and d.execute_script(
                "return window.karaoke.state.transport === 'paused' && Math.abs(window.karaoke.state.position - 3) < 0.1"),
                timeout=15)

        # The room's default: the translation under the line, the romanisation not shown.
        for driver, name in ((singer, "singer-1366x768"), (tv, "tv-1920x1080")):
            line = wait(driver, lambda d: (lambda c: c if c and c["translation"] else None)(current(d, "#lyrics")))
            assert line["sung"] == "紙の飛行機", line
            assert line["translation"] == "The paper plane", line
            assert line["romanization"] is None, line
            assert "tonde" in line["background"] and "yo)" in line["background"], line
            assert line["companionFont"] < line["sungFont"], line
            screenshot(driver, f"lyric-companions-translation-{name}")

        # The host's choice reaches every view: romanisation instead.
        assert remote.find_element(By.ID, "lyric-companions").get_attribute("value") == "translation"
        send_command(remote, "lyricCompanions", show="romanization")
        for driver, name in ((singer, "singer-1366x768"), (tv, "tv-1920x1080")):
            line = wait(driver, lambda d: (lambda c: c if c and c["romanization"] else None)(current(d, "#lyrics")))
            assert line["romanization"] == "kami no hikouki" and line["translation"] is None, line
            assert line["sung"] == "紙の飛行機", line
            screenshot(driver, f"lyric-companions-romanization-{name}")
        wait(remote, lambda d: d.find_element(By.ID, "lyric-companions").get_attribute("value") == "romanization")

        # Off: the sung line alone (background vocals stay: they are sung).
        send_command(remote, "lyricCompanions", show="off")
        line = wait(tv, lambda d: (lambda c: c if c and not c["romanization"] else None)(current(d, "#lyrics")))
        assert line["translation"] is None and line["romanization"] is None and line["background"], line
        # A view's own fragment wins over the room's setting.
        phone = browser(390, 844)
        phone.get(server.url("/#companions=translation"))
        line = wait(phone, lambda d: (lambda c: c if c and c["translation"] else None)(current(d, "#lyrics")))
        assert line["translation"] == "The paper plane", line
        screenshot(phone, "lyric-companions-own-choice-390x844")
    finally:
        server.stop()


def test_a_guest_cannot_change_what_the_tv_shows(server, browser):
    guest = browser(390, 844)
    guest.get(server.url("/remote"))
    wait(guest, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.state)"))
    send_command(guest, "lyricCompanions", show="off")
    wait(guest, lambda d: any('"forbidden"' in frame and "lyricCompanions" in frame
                              for frame in d.execute_script("return window.receivedFrames")))
    assert guest.execute_script("return window.karaoke.state.lyricCompanions") == "translation"
