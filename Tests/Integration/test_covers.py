"""Cover thumbnails in the remote's song list: `/cover/<key>.jpg` answers only keys the server
handed out for covers its library index knows (no client path reaches the filesystem), scales
real JPEG and PNG covers with libgd, keeps them under <scores>/covers, and the list shows them."""
import base64
import http.client
import re

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, TINY_SONG, screenshot, wait, write_song_folders
from test_remote import no_horizontal_overflow, open_remote, phone

MAKE_IMAGE = """
const [width, height, type] = arguments;
const canvas = document.createElement('canvas');
canvas.width = width; canvas.height = height;
const g = canvas.getContext('2d');
const gradient = g.createLinearGradient(0, 0, width, height);
gradient.addColorStop(0, '#ff4f8b'); gradient.addColorStop(1, '#4fd1ff');
g.fillStyle = gradient; g.fillRect(0, 0, width, height);
g.fillStyle = '#fff'; g.font = `${Math.round(height / 3)}px sans-serif`; g.fillText('AB', width / 5, height / 1.6);
return canvas.toDataURL(type).split(',')[1];
"""


def get(server, path):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), body


@pytest.fixture
def cover_server(browser, tmp_path):
    maker = browser(400, 400)
    maker.get("about:blank")
    songs, scores = tmp_path / "songs", tmp_path / "scores"
    songs.mkdir()
    write_song_folders(songs, [
        (name, TINY_SONG.replace("Tiny Test Song", title))
        for name, title in (("jpgsong", "Cover Jpeg"), ("pngsong", "Cover Png"), ("plain", "No Cover"))])
    (songs / "jpgsong" / "cover.jpg").write_bytes(base64.b64decode(maker.execute_script(MAKE_IMAGE, 800, 600, "image/jpeg")))
    (songs / "pngsong" / "cover.png").write_bytes(base64.b64decode(maker.execute_script(MAKE_IMAGE, 300, 500, "image/png")))
    server = Server(songs, options=["--no-audio", "--scores", str(scores)]).start()
    yield server, scores
    server.stop()


def covers_on_page(driver):
    return driver.execute_script("""
        const out = {};
        for (const li of document.querySelectorAll('#library li')) {
          const img = li.querySelector('img.cover'), title = li.querySelector('strong');
          if (img && title) out[title.textContent] = {src: img.getAttribute('src'), width: img.naturalWidth, height: img.naturalHeight};
        }
        return out;""")


def test_covers_are_scaled_served_confined_and_shown(cover_server, browser):
    server, scores = cover_server
    guest = open_remote(phone(browser, "Ann"), server)
    wait(guest, lambda d: d.find_element(By.ID, "library-count").text == "3 of 3 songs")
    shown = wait(guest, lambda d: (lambda c: c if c.get("Cover Jpeg", {}).get("width") and c.get("Cover Png", {}).get("width")
                                   else None)(covers_on_page(d)), timeout=20)
    # Aspect kept, longest side 160 px.
    assert (shown["Cover Jpeg"]["width"], shown["Cover Jpeg"]["height"]) == (160, 120), shown
    assert (shown["Cover Png"]["width"], shown["Cover Png"]["height"]) == (96, 160), shown
    assert "No Cover" not in shown and guest.find_elements(By.CSS_SELECTOR, "#library li span.cover.none")
    assert no_horizontal_overflow(guest)
    screenshot(guest, "remote-covers-390x844")

    for width, height in ((1366, 768), (1920, 1080)):
        wide = browser(width, height)
        wide.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        wide.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            localStorage.setItem('karaoke.name', 'Bo'); localStorage.setItem('karaoke.nameAsked', '1');"""})
        open_remote(wide, server)
        wait(wide, lambda d: (covers_on_page(d).get("Cover Png") or {}).get("width") == 96, timeout=20)
        assert no_horizontal_overflow(wide)
        screenshot(wide, f"remote-covers-{width}x{height}")

    url = shown["Cover Jpeg"]["src"].split("?")[0]
    assert re.fullmatch(r"/cover/[0-9a-f]{16}\.jpg", url), url
    status, headers, body = get(server, url)
    assert status == 200 and body[:3] == b"\xff\xd8\xff", status
    assert headers.get("content-type", headers.get("Content-Type")) == "image/jpeg"
    assert "max-age=604800" in (headers.get("cache-control") or headers.get("Cache-Control") or "")
    assert len(body) < 20_000
    key = url.split("/")[-1]
    assert (scores / "covers" / key).read_bytes() == body

    # Only keys handed out answer; no path a client sends is opened.
    refused = ["/cover/0123456789abcdef.jpg", "/cover/" + key[:-4], "/cover/" + key + "x",
               "/cover/../karaoke.sqlite", "/cover/%2e%2e/karaoke.sqlite", "/cover/..%2fkaraoke.sqlite",
               "/cover/x/../../karaoke.sqlite", "/cover/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
               "/cover//etc/passwd", "/cover/jpgsong%2fcover.jpg", "/cover/"]
    for path in refused:
        status, _, body = get(server, path)
        assert status in (403, 404), (path, status)
        assert b"\xff\xd8\xff" != body[:3] and b"SQLite" not in body and b"root:" not in body, path
