"""A song's #BACKGROUND picture is shown (dimmed) behind the lyrics in the singer view and on the
display when the song has no video, fetched from the same confined /media/ route as videos.
The picture is written by the test (a small PNG); nothing binary is committed."""
import pathlib
import struct
import tempfile
import urllib.request
import zlib

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, open_host_remote as host, screenshot, send_command as command, wait

SONG = """#TITLE:{title}
#ARTIST:Picture Tests
#MP3:missing.ogg
{background}#BPM:300
#GAP:500
: 0 10 0 Words
: 10 10 2  on
- 25
: 30 10 4 a
: 40 10 5  picture
- 120
: 140 10 7 be
: 150 10 5 hind
E
"""


def png(width, height):
    """An RGB PNG: a sunset-like gradient with a bright disc, so a screenshot shows it plainly."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            inside = (x - width * 0.7) ** 2 + (y - height * 0.45) ** 2 < (height * 0.2) ** 2
            r, g, b = (255, 220, 120) if inside else (40 + 200 * y // height, 60 + 60 * x // width, 160 - 120 * y // height)
            row += bytes((r, g, b))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def picture_songs():
    with tempfile.TemporaryDirectory(prefix="karaoke-background-") as directory:
        root = pathlib.Path(directory)
        (root / "pic").mkdir()
        (root / "pic" / "pic.txt").write_text(SONG.format(title="Picture Song", background="#BACKGROUND:stage.png\n"))
        (root / "pic" / "stage.png").write_bytes(png(320, 180))
        (root / "plain").mkdir()
        (root / "plain" / "plain.txt").write_text(SONG.format(title="Plain Song", background=""))
        yield root


@pytest.fixture
def picture_server(picture_songs):
    server = Server(picture_songs, options=["--no-audio", "--song", "pic"]).start()
    yield server
    server.stop()


def open_view(browser, server, path, size):
    driver = browser(*size)
    driver.get(server.url(path))
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    return driver


STATE = """
const b = window.backgroundImage;
return {hidden: b.layer.hidden, url: b.url, image: getComputedStyle(b.picture).backgroundImage,
        body: document.body.classList.contains('has-background-image')};
"""


def test_the_picture_is_shown_behind_the_lyrics_and_served_from_media(picture_server, browser):
    singer = open_view(browser, picture_server, "/", (1280, 800))
    wait(singer, lambda d: d.execute_script(STATE)["url"] is not None)
    s = singer.execute_script(STATE)
    assert s["hidden"] is False and s["body"] is True
    assert s["url"].startswith("/media/") and s["url"].endswith(".png")
    assert s["url"] in s["image"]
    with urllib.request.urlopen(picture_server.url(s["url"]), timeout=5) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/png"
        assert response.read().startswith(b"\x89PNG")
    # The picture is loaded and laid out full-bleed behind the page.
    box = singer.execute_script(
        "const r = window.backgroundImage.picture.getBoundingClientRect(); return [r.width, r.height, innerWidth, innerHeight];")
    assert box[0] >= box[2] and box[1] >= box[3], f"picture {box[0]}x{box[1]} in a {box[2]}x{box[3]} viewport"

    # A song without a picture shows none.
    remote = host(browser, picture_server)
    command(remote, "queueAdd", songId="plain", playNow=True)
    wait(singer, lambda d: d.execute_script("return window.karaoke.song && window.karaoke.song.title") == "Plain Song")
    wait(singer, lambda d: d.execute_script(STATE)["hidden"] is True)
    assert singer.execute_script(STATE)["body"] is False


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1920, 1080)])
def test_lyrics_stay_readable_over_the_picture(picture_server, browser, size):
    for path, name in (("/", "sing"), ("/display", "display")):
        driver = open_view(browser, picture_server, path, size)
        wait(driver, lambda d: d.execute_script(STATE)["url"] is not None)
        remote = host(browser, picture_server)
        command(remote, "seek", position=1.1)
        wait(driver, lambda d: d.execute_script("return window.karaoke.position()") > 1.0)
        # The picture itself has loaded (an <img> probe of the same URL).
        driver.execute_script("""
            const probe = new Image(); window.__bgLoaded = false;
            probe.onload = () => { window.__bgLoaded = probe.naturalWidth === 320; };
            probe.src = window.backgroundImage.url;""")
        wait(driver, lambda d: d.execute_script("return window.__bgLoaded") is True)
        screenshot(driver, f"background-{name}-{size[0]}x{size[1]}")
