"""Per-seat difficulty on the remote's singer rows (issue 17): the host picks a seat's own
difficulty, the room's stays the default for the others; the rows fit a 390×844 phone."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait
from test_remote import WIDTH, HEIGHT, no_horizontal_overflow, open_remote, phone, sent, state, tab


def singer_difficulties(driver):
    return [s.get("difficulty") for s in state(driver)["singers"]]


def test_host_sets_a_seats_own_difficulty_on_its_singer_row(server, browser):
    host = open_remote(phone(browser), server, host=True)
    tab(host, "settings")
    first = Select(host.find_element(By.ID, "difficulty-0"))
    second = Select(host.find_element(By.ID, "difficulty-1"))
    # Both follow the room (medium) at first, and say so.
    assert singer_difficulties(host) == [None, None]
    assert first.first_selected_option.text == "Room (medium)"
    second.select_by_value("hard")
    wait(host, lambda d: singer_difficulties(d) == [None, "hard"])
    last = sent(host, "singerDifficulty")[-1]
    assert (last["singer"], last["level"]) == (1, "hard")
    assert state(host)["difficulty"] == "medium", "the room's own difficulty is unchanged"
    # The row re-rendered from the state keeps the choice; the room's label follows the room.
    wait(host, lambda d: Select(d.find_element(By.ID, "difficulty-1")).first_selected_option.get_attribute("value") == "hard")
    host.execute_script("window.karaoke.send('difficulty', {level: 'easy'})")
    wait(host, lambda d: Select(d.find_element(By.ID, "difficulty-0")).first_selected_option.text == "Room (easy)")
    assert singer_difficulties(host) == [None, "hard"]
    host.find_element(By.ID, "singers").location_once_scrolled_into_view
    assert no_horizontal_overflow(host)
    screenshot(host, f"remote-seat-difficulty-{WIDTH}x{HEIGHT}")
    # Back to the room's.
    Select(host.find_element(By.ID, "difficulty-1")).select_by_value("room")
    wait(host, lambda d: singer_difficulties(d) == [None, None])


def test_a_change_to_another_seat_leaves_the_row_being_edited_alone(server, browser):
    """The rows are updated in place: a state that changes singer 1's seat neither replaces
    singer 2's controls nor wipes the delay the host is typing into them."""
    host = open_remote(phone(browser), server, host=True)
    tab(host, "settings")
    field = host.find_element(By.ID, "mic-delay-1")
    figures = host.find_element(By.ID, "mic-figures-1")
    host.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.click()
    field.send_keys("85")  # typed, not yet sent (the remote sends on change)
    # Changes from elsewhere (another host's phone): sent on the connection, the field keeps focus.
    host.execute_script("window.karaoke.send('singerDifficulty', {singer: 0, level: 'hard'})")
    wait(host, lambda d: singer_difficulties(d) == ["hard", None])
    host.execute_script("window.karaoke.send('selectSinger', {singer: 0, part: 0, name: 'Ann'})")
    wait(host, lambda d: d.find_element(By.ID, "difficulty-0").get_attribute("aria-label") == "difficulty for Ann")
    # The same elements (a replaced one would be stale), and the typing is still there.
    assert field.get_attribute("value") == "85"
    assert host.execute_script("""return document.getElementById('mic-delay-1') === arguments[0]
                                  && document.getElementById('mic-figures-1') === arguments[1]""", field, figures)
    assert host.find_element(By.CSS_SELECTOR, "#singers .singer-name").get_attribute("value") == "Ann"
    assert sent(host, "micDelay") == []


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_seat_difficulty_rows_on_a_laptop_or_tv_screen(server, browser, width, height):
    host = browser(width, height)
    host.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    open_remote(host, server, host=True)
    tab(host, "settings")
    Select(host.find_element(By.ID, "difficulty-0")).select_by_value("easy")
    wait(host, lambda d: singer_difficulties(d)[0] == "easy")
    host.find_element(By.ID, "singers").location_once_scrolled_into_view
    assert no_horizontal_overflow(host)
    screenshot(host, f"remote-seat-difficulty-{width}x{height}")


def test_the_phone_page_offers_its_own_difficulty(server, browser):
    """The singer page's phone-mic bar: a difficulty choice beside the name (from the
    fragment, else the last one chosen), sent with `phoneMic` when the phone takes a seat."""
    guest = phone(browser)
    guest.get(server.url("/#difficulty=hard&name=Ann"))
    wait(guest, lambda d: d.find_element(By.ID, "use-phone-mic").is_displayed())
    choice = Select(guest.find_element(By.ID, "phone-mic-difficulty"))
    assert choice.first_selected_option.get_attribute("value") == "hard"
    assert [o.get_attribute("value") for o in choice.options] == ["", "easy", "medium", "hard"]
    bar = guest.find_element(By.CSS_SELECTOR, "#phone-mic-panel .phone-mic").rect
    assert bar["x"] >= 0 and bar["x"] + bar["width"] <= WIDTH
    assert no_horizontal_overflow(guest)
    screenshot(guest, f"phone-mic-difficulty-{WIDTH}x{HEIGHT}")


def test_the_score_screen_says_which_difficulty_each_singer_was_judged_on(server, browser):
    """Seats on different difficulties: each score card says its own (from the final `total`)."""
    guest = phone(browser)
    guest.get(server.url("/"))
    wait(guest, lambda d: d.find_element(By.ID, "use-phone-mic").is_displayed())
    guest.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/scorescreen.js').then(({ ScoreScreen }) => {
          const screen = new ScoreScreen(document.getElementById('score-screen'));
          screen.show({ songId: 'tiny', lines: [], leaderboard: [], totals: [
            { singer: 0, name: 'Ann', score: 8120, final: true, difficulty: 'hard' },
            { singer: 1, name: 'Bob', score: 9650, final: true, difficulty: 'easy' },
            { singer: 2, name: 'Cy', score: 5000, final: true } ] }, null, []);
          done();
        });""")
    cards = guest.find_elements(By.CSS_SELECTOR, "#score-screen .score-card")
    shown = {c.find_element(By.CLASS_NAME, "score-name").text: c.find_element(By.CLASS_NAME, "score-difficulty").text
             for c in cards}
    assert shown == {"Bob": "on easy", "Ann": "on hard", "Cy": ""}, shown
    screenshot(guest, f"score-screen-difficulty-{WIDTH}x{HEIGHT}")
