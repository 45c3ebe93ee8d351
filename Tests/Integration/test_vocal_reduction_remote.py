"""The host's "Lead vocal: keep / reduce" setting on the remote: it reaches the room (state) and
every host remote, and says when the loaded song's music has no vocal to reduce."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Server, screenshot, wait
from test_remote import open_remote, overflowing, state, tab


@pytest.fixture
def room(songs_dir):
    server = Server(songs_dir, options=["--no-audio", "--song", "tiny"]).start()
    yield server
    server.stop()


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768), (1920, 1080)])
def test_the_host_switches_vocal_reduction(room, browser, width, height):
    host = open_remote(browser(width, height), room, host=True)
    other = open_remote(browser(420, 900), room, host=True)
    tab(host, "settings")
    choice = Select(host.find_element(By.ID, "vocal-reduction"))
    assert choice.first_selected_option.get_attribute("value") == "off"
    choice.select_by_value("on")
    wait(host, lambda d: (state(d) or {}).get("vocalReduction") is True)
    # Another host's remote follows.
    wait(other, lambda d: d.execute_script("return document.getElementById('vocal-reduction').value") == "on")
    # The room plays nothing (--no-audio): nothing to reduce, and the remote says why.
    assert state(host).get("vocalReductionActive") is False
    wait(host, lambda d: d.find_element(By.ID, "vocal-reduction-note").is_displayed())
    # It says why: this room plays no sound at all, not "the song is instrumental".
    assert "--no-audio" in host.find_element(By.ID, "vocal-reduction-note").text
    assert not overflowing(host)
    host.execute_script("document.getElementById('vocal-reduction').scrollIntoView({block: 'center'})")
    screenshot(host, f"remote-vocal-reduction-{width}x{height}")
    choice.select_by_value("off")
    wait(host, lambda d: (state(d) or {}).get("vocalReduction") is False)
    assert not host.find_element(By.ID, "vocal-reduction-note").is_displayed()
