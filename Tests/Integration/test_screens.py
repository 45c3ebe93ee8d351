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
