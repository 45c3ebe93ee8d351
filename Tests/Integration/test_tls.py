"""`karaoke serve --tls`: HTTPS and WSS beside plain HTTP, with the room's self-signed certificate
(made once in <scores>/tls/, reused, its key 0600) or the host's own (--cert/--key). Python's
ssl module verifies the server against the certificate file as its only CA, host name included,
so a wrong SAN fails the test. The same checks as on the plain port: foreign Host and Origin,
per-address connection limit, handshake timeout; plaintext or junk on the TLS port costs only
that client. Headless Chromium opens the remote over https, trusting exactly that certificate."""
import base64
import json
import os
import re
import socket
import ssl
import stat
import subprocess
import time

import pytest

from conftest import PIN, ROOT, Server, free_port, karaoke_binary

HANDSHAKE_TIMEOUT = 10  # EventServerConfiguration.handshakeTimeout's default


class TLSServer(Server):
    """A `Server` with --tls on a free TLS port and its scores (and certificate) in `scores`."""

    def __init__(self, songs_dir, scores, extra=()):
        super().__init__(songs_dir, options=["--no-audio", "--song", "tiny", "--tls", "--tls-port", "0",
                                             "--scores", str(scores), *extra])
        self.scores = scores

    def start(self):
        super().start()
        text = "".join(self.banner)
        match = re.search(r"Listening on TLS port (\d+)", text)
        assert match, text
        self.tls_port = int(match.group(1))
        return self

    @property
    def text(self):
        return "".join(self.banner)


def context_trusting(cafile):
    context = ssl.create_default_context(cafile=str(cafile))
    context.check_hostname = True
    context.verify_mode = ssl.CERT_REQUIRED
    return context


def https_get(port, path, cafile, name="localhost", host=None, origin=None):
    """(status, headers text, body, peer certificate) of one HTTPS request to 127.0.0.1, with
    `name` as the TLS server name the certificate must cover."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with context_trusting(cafile).wrap_socket(raw, server_hostname=name) as tls:
            request = f"GET {path} HTTP/1.1\r\nHost: {host or f'{name}:{port}'}\r\nConnection: close\r\n"
            if origin:
                request += f"Origin: {origin}\r\n"
            tls.sendall((request + "\r\n").encode())
            data = b""
            while len(data) < 1_000_000:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                data += chunk
            certificate = tls.getpeercert()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else None
    return status, head.decode(errors="replace").lower(), body, certificate


def wss_open(port, cafile, name="localhost", origin=None):
    """A WebSocket handshake over TLS; returns (status, tls socket, first frame's text or None)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    tls = context_trusting(cafile).wrap_socket(raw, server_hostname=name)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET / HTTP/1.1\r\nHost: {name}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: karaoke\r\n")
    if origin:
        request += f"Origin: {origin}\r\n"
    tls.sendall((request + "\r\n").encode())
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = tls.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionError, ssl.SSLError, socket.timeout):
        pass
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else None
    if status != 101:
        tls.close()
        return status, None, None
    return status, tls, read_text_frame(tls, rest)


def read_text_frame(sock, buffered=b""):
    data = buffered

    def need(count):
        nonlocal data
        while len(data) < count:
            chunk = sock.recv(65536)
            assert chunk, "connection closed before a whole frame arrived"
            data += chunk

    need(2)
    length = data[1] & 0x7F
    offset = 2
    if length == 126:
        need(4)
        length = int.from_bytes(data[2:4], "big")
        offset = 4
    elif length == 127:
        need(10)
        length = int.from_bytes(data[2:10], "big")
        offset = 10
    need(offset + length)
    assert data[0] & 0x0F == 1, "expected a text frame"
    return data[offset:offset + length].decode()


def refused_quickly(port, payload, limit=3.0):
    """Sends `payload` to `port` and returns (seconds until the server closed, bytes it sent)."""
    start = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=limit + 2) as sock:
        sock.sendall(payload)
        received = b""
        try:
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                received += chunk
        except ConnectionResetError:
            pass
    return time.time() - start, received


@pytest.fixture
def scores(tmp_path):
    return tmp_path / "scores"


@pytest.fixture
def tls_server(songs_dir, scores):
    server = TLSServer(songs_dir, scores).start()
    yield server
    server.stop()


def test_pages_and_websocket_over_https_with_the_self_signed_certificate(tls_server, scores):
    cert = scores / "tls" / "cert.pem"
    assert "made a new self-signed certificate" in tls_server.text and "first start" in tls_server.text
    status, headers, body, peer = https_get(tls_server.tls_port, "/remote/", cert)
    assert status == 200 and b"<html" in body.lower()
    # The certificate names what guests type: localhost, the loopback addresses, the host name.
    names = {value for kind, value in peer["subjectAltName"]}
    assert {"localhost", "127.0.0.1", socket.gethostname()} <= names, names
    assert "content-security-policy" in headers
    # No HSTS: it holds per host name, and would make the browser refuse the plain port.
    assert "strict-transport-security" not in headers
    # Verified by IP address too (the join URL of a LAN is an address).
    assert https_get(tls_server.tls_port, "/", cert, name="127.0.0.1")[0] == 200

    status, sock, first = wss_open(tls_server.tls_port, cert, origin=f"https://localhost:{tls_server.tls_port}")
    assert status == 101
    assert "type" in json.loads(first)
    sock.close()
    # Plain HTTP stays on for display screens; the join URL is the HTTPS one.
    assert f"join         https://127.0.0.1:{tls_server.tls_port}/remote" in tls_server.text
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=5) as plain:
        plain.sendall(f"GET /display HTTP/1.1\r\nHost: 127.0.0.1:{tls_server.port}\r\nConnection: close\r\n\r\n".encode())
        assert plain.recv(100).startswith(b"HTTP/1.")


def test_private_key_is_0600_and_the_second_start_reuses_the_certificate(songs_dir, scores):
    server = TLSServer(songs_dir, scores).start()
    server.stop()
    folder, key, cert = scores / "tls", scores / "tls" / "key.pem", scores / "tls" / "cert.pem"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    first = cert.read_bytes()

    again = TLSServer(songs_dir, scores).start()
    try:
        assert cert.read_bytes() == first
        assert "made a new self-signed certificate" not in again.text
        assert "(self-signed, reused)" in again.text
        assert https_get(again.tls_port, "/", cert)[0] == 200
    finally:
        again.stop()

    # An unreadable key: a new certificate, and the log says which file and why.
    key.write_text("not a key\n")
    third = TLSServer(songs_dir, scores).start()
    try:
        assert "made a new self-signed certificate" in third.text
        assert f"{key}: not a PEM private key" in third.text
        assert cert.read_bytes() != first
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert https_get(third.tls_port, "/", cert)[0] == 200
    finally:
        third.stop()


def make_own_certificate(directory, name):
    """A host's own certificate for `name` and 127.0.0.1, made with the openssl tool."""
    cert, key = directory / "own.crt", directory / "own.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "30", "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def test_own_certificate_from_cert_and_key(songs_dir, scores, tmp_path):
    cert, key = make_own_certificate(tmp_path, "karaoke.test")
    server = TLSServer(songs_dir, scores, extra=["--cert", str(cert), "--key", str(key),
                                                 "--allow-host", "karaoke.test"]).start()
    try:
        status, _, _, peer = https_get(server.tls_port, "/", cert, name="karaoke.test")
        assert status == 200
        assert ("DNS", "karaoke.test") in peer["subjectAltName"]
        assert f"join         https://karaoke.test:{server.tls_port}/remote" in server.text
        assert not (scores / "tls").exists()
        status, sock, _ = wss_open(server.tls_port, cert, name="karaoke.test",
                                   origin=f"https://karaoke.test:{server.tls_port}")
        assert status == 101
        sock.close()
    finally:
        server.stop()


def test_a_key_that_is_not_the_certificates_stops_serve_with_both_file_names(songs_dir, scores, tmp_path):
    cert, _ = make_own_certificate(tmp_path, "karaoke.test")
    (tmp_path / "other").mkdir()
    _, other_key = make_own_certificate(tmp_path / "other", "other.test")
    result = subprocess.run(
        [karaoke_binary(), "serve",
         "--no-audio", "--port", str(free_port()), "--songs", str(songs_dir), "--scores", str(scores),
         "--public", str(ROOT / "public"), "--cert", str(cert), "--key", str(other_key)],
        capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert f"{other_key} is not the private key of {cert}" in result.stderr + result.stdout


def test_plaintext_or_junk_on_the_tls_port_costs_only_that_client(tls_server, scores):
    cert = scores / "tls" / "cert.pem"
    seconds, received = refused_quickly(tls_server.tls_port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert seconds < 2 and not received.startswith(b"HTTP/"), received[:100]
    seconds, received = refused_quickly(tls_server.tls_port, b"\x16\x03\x01\x00\x05junkjunkjunk" + os.urandom(200))
    assert seconds < 2
    # Everyone else is still served, on both ports.
    assert https_get(tls_server.tls_port, "/", cert)[0] == 200
    status, sock, _ = wss_open(tls_server.tls_port, cert)
    assert status == 101
    sock.close()
    assert tls_server.process.poll() is None


def test_foreign_host_and_origin_are_refused_over_tls(tls_server, scores):
    cert = scores / "tls" / "cert.pem"
    port = tls_server.tls_port
    assert https_get(port, "/", cert, host="rebind.example")[0] == 421
    assert https_get(port, "/", cert, origin="https://evil.example")[0] == 403
    status, _, _ = wss_open(port, cert, origin="https://evil.example")
    assert status != 101
    # The plain listener's origin is not the TLS listener's.
    status, _, _ = wss_open(port, cert, origin=f"http://localhost:{tls_server.port}")
    assert status != 101
    status, sock, _ = wss_open(port, cert, origin=f"https://localhost:{port}")
    assert status == 101
    sock.close()


def test_per_address_limit_and_handshake_timeout_hold_on_the_tls_port(tls_server, scores):
    cert = scores / "tls" / "cert.pem"
    port = tls_server.tls_port
    idle = []
    try:
        # 32 connections per address (EventServerConfiguration.connectionsPerAddress) that never
        # start their TLS handshake.
        for _ in range(32):
            sock = socket.socket()
            sock.bind(("127.0.0.3", 0))
            sock.connect(("127.0.0.1", port))
            idle.append(sock)
        time.sleep(0.5)
        extra = socket.socket()
        extra.bind(("127.0.0.3", 0))
        extra.settimeout(3)
        extra.connect(("127.0.0.1", port))
        try:
            assert extra.recv(10) == b""  # closed at once: the address already holds 32
        except ConnectionResetError:
            pass
        extra.close()
        # Another device is served meanwhile.
        assert https_get(port, "/", cert)[0] == 200
        # Idle handshakes are dropped after the handshake timeout.
        start = time.time()
        for sock in idle:
            sock.settimeout(HANDSHAKE_TIMEOUT + 5 - (time.time() - start))
            try:
                assert sock.recv(10) == b""
            except ConnectionResetError:
                pass
        assert time.time() - start < HANDSHAKE_TIMEOUT + 5
    finally:
        for sock in idle:
            sock.close()


def spki_sha256(cert_path):
    """base64 SHA-256 of the certificate's public key: what Chromium's SPKI trust list takes."""
    der = subprocess.run(["openssl", "x509", "-in", str(cert_path), "-pubkey", "-noout"],
                         check=True, capture_output=True).stdout
    key_der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=der,
                             check=True, capture_output=True).stdout
    digest = subprocess.run(["openssl", "dgst", "-sha256", "-binary"], input=key_der,
                            check=True, capture_output=True).stdout
    return base64.b64encode(digest).decode()


def test_chromium_opens_the_remote_over_https_trusting_only_the_rooms_key(tls_server, scores):
    os.environ.setdefault("SE_OFFLINE", "true")
    pytest.importorskip("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from conftest import screenshot, wait

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=390,844",
                     # Trusts this one key, as a guest does by accepting the warning once; any
                     # other certificate still fails (not --ignore-certificate-errors).
                     f"--ignore-certificate-errors-spki-list={spki_sha256(scores / 'tls' / 'cert.pem')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.get(f"https://localhost:{tls_server.tls_port}/remote#pin={PIN}")
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", timeout=15)
        wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
        assert driver.execute_script("return window.isSecureContext") is True
        assert driver.execute_script("return location.protocol") == "https:"
        # Secure context: the microphone API a phone singer needs is there.
        assert driver.execute_script("return !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)")
        screenshot(driver, "tls-remote-390x844")
    finally:
        driver.quit()
    # Without that trust the same browser gets the certificate warning, not the page.
    options.arguments.remove(options.arguments[-1])
    untrusting = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        untrusting.get(f"https://localhost:{tls_server.tls_port}/remote")
        time.sleep(1)
        assert not untrusting.find_elements(By.ID, "role")
        assert "not private" in untrusting.page_source.lower() or "ERR_CERT" in untrusting.page_source
        screenshot(untrusting, "tls-warning-390x844")
    finally:
        untrusting.quit()


def test_the_tv_explains_the_certificate_warning_with_the_fingerprint_to_compare(tls_server, scores, browser):
    """With the room's own certificate, the TV's join screen (on plain http) tells guests before
    they scan that their phone will warn, and which SHA-256 fingerprint means it is this room;
    `serve` prints the same fingerprint; the plain-http remote says it where it sends a host to https."""
    from selenium.webdriver.common.by import By

    from conftest import screenshot, wait

    shown = subprocess.run(["openssl", "x509", "-in", str(scores / "tls" / "cert.pem"), "-noout", "-fingerprint", "-sha256"],
                           check=True, capture_output=True, text=True).stdout.strip().split("=", 1)[1]
    assert f"fingerprint  SHA-256 {shown}" in tls_server.text
    display = browser(1920, 1080)
    display.get(f"http://127.0.0.1:{tls_server.port}/display")
    note = wait(display, lambda d: d.find_element(By.ID, "join-certificate").is_displayed()
                and d.find_element(By.ID, "join-certificate").text)
    assert "Your phone may warn that the connection is not private" in note
    assert display.find_element(By.CSS_SELECTOR, "#join-certificate .fingerprint").text == ":".join(shown.split(":")[:6])
    screenshot(display, "tls-display-join-certificate-1920x1080")
    # A host on the plain port from another machine is sent to https (the `secure` event; from
    # this machine, loopback, the PIN is taken on the plain port, so the event is raised here).
    remote = browser(390, 844)
    remote.get(f"http://127.0.0.1:{tls_server.port}/remote")
    wait(remote, lambda d: d.execute_script("return !!(window.karaoke && window.karaoke.certificate)"))
    remote.execute_script("window.karaoke.emit('secure', {url: arguments[0]})", f"https://127.0.0.1:{tls_server.tls_port}/remote")
    hint = wait(remote, lambda d: "fingerprint starts with" in d.find_element(By.ID, "unlock-error").text
                and d.find_element(By.ID, "unlock-error").text)
    assert ":".join(shown.split(":")[:6]) in hint
    screenshot(remote, "tls-remote-plain-certificate-390x844")
