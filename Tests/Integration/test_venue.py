"""The venue page (issue 16): rooms announce themselves in the score store and /venue lists the
live ones with join links and the venue-wide boards. With SQLite a room is a venue of one; with
KARAOKE_TEST_POSTGRES (scripts/test starts one) two rooms share a PostgreSQL and each lists both.
Screenshots go to test-artifacts/ (gitignored)."""
import json
import os
import subprocess
import time
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, screenshot, wait

SIZES = [(390, 844), (1366, 768), (1920, 1080)]


def venue_json(server):
    with urllib.request.urlopen(server.url("/venue.json"), timeout=5) as response:
        return json.loads(response.read())


def wait_for_rooms(server, names, timeout=20):
    deadline = time.time() + timeout
    venue = None
    while time.time() < deadline:
        venue = venue_json(server)
        if sorted(room["name"] for room in venue["rooms"]) == sorted(names):
            return venue
        time.sleep(0.2)
    raise AssertionError(f"rooms {names} not listed: {venue}")


def test_a_room_lists_itself_on_its_venue_page(songs_dir, browser, tmp_path):
    server = Server(songs_dir, options=["--no-audio", "--song", "tiny", "--room", "Blue Room",
                                        "--scores", str(tmp_path / "scores")]).start()
    try:
        assert any("/venue (room Blue Room)" in line for line in server.banner), server.banner
        venue = wait_for_rooms(server, ["Blue Room"])
        assert venue["storeReachable"] is True
        assert venue["servedBy"] == "Blue Room"
        room = venue["rooms"][0]
        assert room["joinURL"].endswith("/remote") and room["busy"] is False
        assert room["nowPlaying"] == "Tiny Test Song – Browser Tests"
        for width, height in SIZES:
            driver = browser(width, height)
            driver.get(server.url("/venue"))
            wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
            tiles = driver.find_elements(By.CSS_SELECTOR, "#rooms li.room")
            assert [t.find_element(By.CSS_SELECTOR, ".room-name").text for t in tiles] == ["Blue Room"]
            assert tiles[0].find_element(By.CSS_SELECTOR, ".pill").text == "Free"
            join = tiles[0].find_element(By.CSS_SELECTOR, "a.join")
            assert join.get_attribute("href") == room["joinURL"]
            assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), \
                f"horizontal overflow at {width}x{height}"
            screenshot(driver, f"venue-{width}x{height}")
    finally:
        server.stop()


@pytest.mark.skipif(not os.environ.get("KARAOKE_TEST_POSTGRES"),
                    reason="KARAOKE_TEST_POSTGRES is not set (scripts/test starts a private PostgreSQL)")
def test_two_rooms_on_one_postgres_list_each_other(songs_dir, browser, tmp_path):
    base = os.environ["KARAOKE_TEST_POSTGRES"]
    schema = "venue_" + uuid.uuid4().hex[:8]
    url = base + ("&" if "?" in base else "?") + "schema=" + schema
    rooms = []
    try:
        for name in ("Blue", "Red"):
            rooms.append(Server(songs_dir, options=["--no-audio", "--song", "tiny", "--room", name, "--store", url,
                                                    "--scores", str(tmp_path / name)]).start())
        for server in rooms:
            venue = wait_for_rooms(server, ["Blue", "Red"])
            joins = {room["name"]: room["joinURL"] for room in venue["rooms"]}
            for name, other in zip(("Blue", "Red"), rooms):
                assert joins[name].endswith(f":{other.port}/remote"), joins
        driver = browser(1366, 768)
        driver.get(rooms[0].url("/venue"))
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rooms li.room")) == 2)
        screenshot(driver, "venue-two-rooms-1366x768")
    finally:
        for server in rooms:
            server.stop()
        # The test database stays small: the schema goes with the test.
        subprocess.run(["psql", "-X", "-q", "-d", base, "-c", f"DROP SCHEMA IF EXISTS {schema} CASCADE"],
                       capture_output=True, timeout=30)
