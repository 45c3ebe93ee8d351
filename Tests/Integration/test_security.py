"""Attacks on a `karaoke serve --no-audio` over loopback, each bounded in time, each ending with
a check that a normal client is still served: PIN guessing across reconnects, foreign Host and
Origin (DNS rebinding), a symlink out of public/, a guest queue flood, an idle-socket flood at
an open-file limit of 1024, malformed and oversize frames. Only the standard library is used
(a raw WebSocket client), so the suite runs without the browser test dependencies.

Several loopback source addresses (127.0.0.2 …) stand for several devices on the wifi."""
import base64
import collections
import json
import os
import pathlib
import re
import resource
import shutil
import socket
import struct
import subprocess
import tempfile
import time

import pytest

from conftest import PIN, ROOT, SECOND_SONG, TINY_SONG, free_port, karaoke_binary, write_song_folders

LOG_LIMIT = 2 * 1024 * 1024


# ---------------------------------------------------------------- server under test


class LoggedServer:
    """`karaoke serve --no-audio` with its output in a file (a flood must not block on a pipe
    and the log's size is part of what is checked), optionally at a lower open-file limit."""

    def __init__(self, songs, public=None, nofile=None, extra=()):
        self.port = free_port()
        self.log_path = pathlib.Path(tempfile.mkstemp(prefix="karaoke-security-", suffix=".log")[1])
        args = [karaoke_binary(), "serve", "--no-audio", "--song", "tiny", "--port", str(self.port),
                "--songs", str(songs), "--pin", PIN, "--public", str(public or ROOT / "public"), *extra]

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limit)
        deadline = time.time() + 20
        while time.time() < deadline:
            if "Listening on port" in self.text():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("karaoke serve did not start:\n" + self.text())

    def text(self):
        return self.log_path.read_text(errors="replace")

    def log_size(self):
        return self.log_path.stat().st_size

    def rss_mb(self):
        status = pathlib.Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        self.log_path.unlink(missing_ok=True)


@pytest.fixture
def many_songs():
    """The two conftest songs plus 60 more, so a queue flood has distinct songs to ask for."""
    with tempfile.TemporaryDirectory(prefix="karaoke-security-songs-") as directory:
        yield write_song_folders(directory, [("tiny", TINY_SONG)] + [
            (f"song{i:02}", SECOND_SONG.replace("Second Song", f"Song {i}")) for i in range(60)])


@pytest.fixture
def logged_server(many_songs):
    servers = []

    def start(**options):
        server = LoggedServer(many_songs, **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# ---------------------------------------------------------------- a minimal WebSocket client


class Rejected(Exception):
    pass


class Client:
    """One WebSocket from a chosen loopback source address; answers pings, reads JSON events."""

    def __init__(self, port, source="127.0.0.1", host=None, origin=None, timeout=5):
        self.sock = socket.socket()
        self.sock.settimeout(timeout)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET / HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if origin:
            request += f"Origin: {origin}\r\n"
        self.sock.sendall((request + "\r\n").encode())
        head = b""
        try:
            while b"\r\n\r\n" not in head:
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                head += chunk
        except (ConnectionResetError, socket.timeout):
            pass
        if not head.startswith(b"HTTP/1.1 101"):
            self.sock.close()
            raise Rejected(head.split(b"\r\n")[0].decode(errors="replace") or "connection closed")
        self.buffer = head.split(b"\r\n\r\n", 1)[1]
        self.close_code = None
        self.closed = False

    def send_frame(self, opcode, payload, final=True):
        header = bytes([(0x80 if final else 0) | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, message):
        self.send_frame(1, json.dumps(message).encode())

    def _frame(self):
        if len(self.buffer) < 2:
            return None
        length, offset = self.buffer[1] & 0x7F, 2
        if length == 126:
            if len(self.buffer) < 4:
                return None
            length, offset = struct.unpack(">H", self.buffer[2:4])[0], 4
        elif length == 127:
            if len(self.buffer) < 10:
                return None
            length, offset = struct.unpack(">Q", self.buffer[2:10])[0], 10
        if len(self.buffer) < offset + length:
            return None
        opcode, payload = self.buffer[0] & 0x0F, self.buffer[offset:offset + length]
        self.buffer = self.buffer[offset + length:]
        return opcode, payload

    def receive(self, timeout=5):
        """Next JSON event, or None on timeout or close."""
        deadline = time.time() + timeout
        while True:
            frame = self._frame()
            if frame:
                opcode, payload = frame
                if opcode == 1:
                    return json.loads(payload)
                if opcode == 9:
                    self.send_frame(10, payload)
                if opcode == 8:
                    self.closed = True
                    self.close_code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                    return None
                continue
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                return None
            except ConnectionResetError:
                self.closed = True
                return None
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk

    def wait_for(self, kind, timeout=5, where=lambda m: True):
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = self.receive(deadline - time.time())
            if message is None:
                if self.closed:
                    return None
                continue
            if message.get("type") == kind and where(message):
                return message
        return None

    def close(self):
        self.sock.close()


def http_get(port, path="/", host=None, origin=None):
    """Status code of a GET (0 when the server closed without answering) and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        request = f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nConnection: close\r\n"
        if origin:
            request += f"Origin: {origin}\r\n"
        sock.sendall((request + "\r\n").encode())
        data = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    match = re.match(rb"HTTP/1\.[01] (\d+)", data)
    return (int(match.group(1)) if match else 0), data.split(b"\r\n\r\n", 1)[-1]


# A new client is served while an attack lasts: within this many seconds, however loaded the
# machine (a server the attack blocked answers never: idle sockets and slow readers hold on).
# How fast it is served is a figure, printed here and measured in Benchmarks/, not judged.
SERVED_WITHIN = 5


def fresh_hello_delay(port, source="127.0.0.1"):
    """Seconds from connecting to a new client's `hello`."""
    start = time.time()
    client = Client(port, source=source, timeout=10)
    hello = client.wait_for("hello", timeout=10)
    client.close()
    assert hello is not None, "a normal client got no hello"
    return time.time() - start


# ---------------------------------------------------------------- who gets in


def test_pin_guessing_is_limited_per_address_however_many_connections(logged_server):
    server = logged_server()
    evaluated = locked = connections = 0
    guess = 0
    deadline = time.time() + 20
    while time.time() < deadline:
        # A new connection every 55 guesses (within the burst): connections buy the attacker nothing.
        attacker = Client(server.port, source="127.0.0.1")
        connections += 1
        attacker.wait_for("hello")
        for _ in range(55):
            guess += 1
            attacker.send({"type": "hello", "role": "host", "pin": f"{guess:06}"})
            error = attacker.wait_for("error", timeout=2)
            if error and error["code"] == "badPin":
                evaluated += 1
            elif error and error["code"] == "pinLocked":
                locked += 1
        attacker.close()
    print(f"\nPIN attack, 20 s from one address: {guess} guesses over {connections} connections, "
          f"{evaluated} evaluated, {locked} refused unevaluated (pinLocked)")
    assert evaluated <= 30, f"{evaluated} wrong PINs evaluated in 20 s from one address"
    assert locked > 0
    assert "wrong room PIN from 127.0.0.1" in server.text(), "wrong PINs are logged with the address"

    # The host, on another device, still gets in with the PIN, and back in with its token alone.
    host = Client(server.port, source="127.0.0.2")
    host.wait_for("hello")
    host.send({"type": "hello", "role": "host", "pin": PIN})
    hello = host.wait_for("hello", where=lambda m: m["role"] == "host")
    assert hello and len(hello["hostToken"]) == 32 and hello["hostTokenExpiresIn"] > 0
    token = hello["hostToken"]
    host.close()
    again = Client(server.port, source="127.0.0.2")
    again.wait_for("hello")
    again.send({"type": "hello", "role": "host", "token": token})
    assert again.wait_for("hello", where=lambda m: m["role"] == "host"), "the session token alone makes a host"
    again.send({"type": "hello", "role": "host", "token": "f" * 32})
    assert again.wait_for("error")["code"] == "badToken"
    again.close()
    assert server.log_size() < LOG_LIMIT


def test_foreign_host_or_origin_gets_no_page_and_no_websocket(logged_server):
    server = logged_server(extra=["--allow-host", "karaoke.lan"])
    port = server.port
    own = f"http://127.0.0.1:{port}"
    assert http_get(port, "/remote")[0] in (200, 301, 302, 303)
    assert http_get(port, "/", host=f"karaoke.lan:{port}")[0] == 200, "--allow-host names are served"
    status, body = http_get(port, "/", host=f"evil.com:{port}")
    assert status == 421 and b"<script" not in body, f"DNS-rebound page served: {status}"
    assert http_get(port, "/", origin=f"http://evil.com:{port}")[0] != 200
    for host, origin in ((f"evil.com:{port}", f"http://evil.com:{port}"),  # DNS rebinding
                         (None, f"http://evil.com:{port}"),                 # a foreign page
                         (None, f"http://127.0.0.1:{port + 1}")):            # another local port
        with pytest.raises(Rejected):
            Client(port, host=host, origin=origin)
    client = Client(port, origin=own)
    assert client.wait_for("hello")
    client.close()


def test_symlinks_out_of_public_are_not_followed(logged_server, tmp_path):
    public = tmp_path / "public"
    shutil.copytree(ROOT / "public", public)
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    (public / "leak.txt").symlink_to(secret)
    (public / "outside").symlink_to(tmp_path)
    (public / "inside.css").symlink_to(public / "css" / "app.css")
    server = logged_server(public=public)
    for path in ("/leak.txt", "/outside/secret.txt", "/%6ceak.txt", "/css/../leak.txt", "/remote/../leak.txt"):
        status, body = http_get(server.port, path)
        assert b"top secret" not in body and status != 200, f"{path} leaked the file outside public/"
    assert http_get(server.port, "/inside.css")[0] == 200, "a symlink inside public/ still works"
    assert http_get(server.port, "/js/remote.js")[0] == 200


# ---------------------------------------------------------------- what floods


def test_guest_queue_flood_keeps_the_queue_small_and_hello_fast(logged_server):
    server = logged_server()
    rss_before = server.rss_mb()
    guests = []
    for n in range(10):
        guest = Client(server.port, source=f"127.0.0.{n + 2}")
        guest.wait_for("hello")
        guest.send({"type": "hello", "role": "guest"})
        guests.append(guest)
    deadline = time.time() + 6
    sent = 0
    while time.time() < deadline:
        for n, guest in enumerate(guests):
            guest.send({"type": "queueAdd", "songId": f"song{(sent + n) % 60:02}", "requestedBy": "x" * 200})
            guest.buffer = b""  # what comes back is not read: a greedy, slow client
        sent += 1
        time.sleep(1 / 28)  # just within the per-connection rate limit
    delay = fresh_hello_delay(server.port, source="127.0.0.100")
    watcher = Client(server.port, source="127.0.0.101")
    hello = watcher.wait_for("hello")
    queue = hello["state"]["queue"]
    print(f"\nqueue flood, 10 guests x 6 s: {sent * 10} queueAdd sent, queue {len(queue)} songs, "
          f"new client's hello after {delay * 1000:.0f} ms, RSS {rss_before:.0f} -> {server.rss_mb():.0f} MB, "
          f"log {server.log_size()} bytes")
    assert len(queue) <= 50, f"the queue grew to {len(queue)}"
    assert all(len(item.get("requestedBy") or "") <= 40 for item in queue)
    assert delay < SERVED_WITHIN, f"a new client waited {delay:.2f} s for hello"
    # The host can empty it at once.
    watcher.send({"type": "hello", "role": "host", "pin": PIN})
    watcher.wait_for("hello", where=lambda m: m["role"] == "host")
    watcher.send({"type": "queueClear"})
    assert watcher.wait_for("queue", where=lambda m: m["queue"] == []) is not None
    for guest in guests:
        guest.close()
    watcher.close()
    assert server.log_size() < LOG_LIMIT


def test_idle_socket_flood_at_1024_open_files_does_not_lock_anyone_out(logged_server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1500:
        pytest.skip(f"this test process may open only {hard} files (needs 1,500)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1500) if hard == resource.RLIM_INFINITY else hard, hard))
    server = logged_server(nofile=1024)
    idle = []
    try:
        # 1,200 connections that never send a byte, from 40 addresses (30 each).
        for n in range(1200):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((f"127.0.1.{n // 30 + 2}", 0))
            try:
                sock.connect(("127.0.0.1", server.port))
            except BlockingIOError:
                pass
            idle.append(sock)
        time.sleep(1)
        delays = [fresh_hello_delay(server.port, source=f"127.0.2.{n + 2}") for n in range(3)]
        print(f"\nidle flood, 1,200 sockets from 40 addresses at 1024 open files: new clients' hello after "
              + ", ".join(f"{d * 1000:.0f} ms" for d in delays))
        assert max(delays) < SERVED_WITHIN, f"new clients waited {delays} s for hello"
        # One address cannot hold more than its share.
        crowd = []
        for _ in range(60):
            sock = socket.socket()
            sock.bind(("127.0.3.2", 0))
            sock.settimeout(2)
            sock.connect(("127.0.0.1", server.port))
            crowd.append(sock)
        time.sleep(0.5)
        closed = 0
        for sock in crowd:
            sock.settimeout(0.05)
            try:
                if sock.recv(1) == b"":
                    closed += 1
            except socket.timeout:
                pass
            except ConnectionResetError:
                closed += 1
            sock.close()
        print(f"60 connections from one address: {closed} refused at once")
        assert closed >= 60 - 32, f"only {closed} of 60 connections from one address were refused"
    finally:
        for sock in idle:
            sock.close()
    assert fresh_hello_delay(server.port) < SERVED_WITHIN
    log = server.text()
    print(f"log after the idle flood: {server.log_size()} bytes, {log.count(chr(10))} lines")
    if os.environ.get("SHOW_LOG"):
        print(log)
    assert server.log_size() < LOG_LIMIT, f"log grew to {server.log_size()} bytes"
    assert log.count("accept") < 50, "accept errors flood the log"


def test_malformed_and_oversize_frames_cost_only_their_sender(logged_server):
    server = logged_server()
    port = server.port
    bad = Client(port, source="127.0.0.5")
    bad.wait_for("hello")
    bad.send_frame(1, b"{not json")
    assert bad.wait_for("error")["code"] == "malformedJSON"
    bad.send_frame(1, b"\xff\xfe")
    bad.send_frame(2, b"\x00\x01")
    bad.send({"type": "queueAdd", "songId": "song01", "playNow": True})
    big = Client(port, source="127.0.0.6")
    big.wait_for("hello")
    big.send_frame(1, b'{"type":"library","x":"' + b"a" * 70_000 + b'"}')
    assert big.wait_for("never", timeout=3) is None and big.close_code == 1009
    fragments = Client(port, source="127.0.0.7")
    fragments.wait_for("hello")
    try:
        for n in range(40):  # a message growing in fragments past the limit
            fragments.send_frame(0 if n else 1, b"a" * 4000, final=False)
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed while the rest was still being sent
    assert fragments.wait_for("never", timeout=3) is None and fragments.closed
    assert fragments.close_code in (1009, None)
    # A flooder far above the limit is disconnected within seconds.
    flooder = Client(port, source="127.0.0.8")
    flooder.wait_for("hello")
    start = time.time()
    try:
        while time.time() - start < 10 and not flooder.closed:
            for _ in range(20):
                flooder.send({"type": "library"})
            while flooder.receive(timeout=0.001) is not None:
                pass
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass
    print(f"\na client sending 400 messages/s was disconnected after {time.time() - start:.2f} s "
          f"(close code {flooder.close_code})")
    assert time.time() - start < 10, "a client sending 400 messages/s was never disconnected"
    assert flooder.close_code in (1008, None)
    assert fresh_hello_delay(port) < SERVED_WITHIN
    assert server.log_size() < LOG_LIMIT


def test_the_remote_keeps_its_host_session_across_a_reload_without_the_pin(server, browser):
    pytest.importorskip("selenium")
    from conftest import wait
    from selenium.webdriver.common.by import By

    driver = browser()
    driver.get(server.url(f"/remote#pin={PIN}"))
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    assert "pin=" not in driver.current_url, "the PIN leaves the address bar"
    stored = json.loads(driver.execute_script("return localStorage.getItem('karaoke.hostToken')"))
    assert len(stored["token"]) == 32 and stored["expires"] > time.time() * 1000
    driver.get(server.url("/remote"))
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "host")
    hellos = [json.loads(f) for f in driver.execute_script("return window.sentFrames")]
    hellos = [f for f in hellos if f.get("type") == "hello"]
    assert hellos and all("pin" not in f and f.get("token") == stored["token"] for f in hellos)
    # An expired or unknown session falls back to a guest and asks for the PIN.
    driver.execute_script("localStorage.setItem('karaoke.hostToken', JSON.stringify({token: 'f'.repeat(32), expires: Date.now() + 60000}))")
    driver.get(server.url("/remote"))
    wait(driver, lambda d: d.find_element(By.ID, "role").text.lower() == "guest")
    assert "PIN" in driver.find_element(By.ID, "unlock-error").text


def test_a_huge_lyric_file_is_refused_and_never_sent(tmp_path):
    songs = tmp_path / "songs"
    songs.mkdir()
    write_song_folders(songs, [("tiny", TINY_SONG), ("second", SECOND_SONG)])
    lines = ["#TITLE:Huge", "#ARTIST:Flood", "#MP3:huge.ogg", "#BPM:300", "#GAP:0"]
    for i in range(100_000):
        lines += [f": {4 * i} 2 0 la", f"- {4 * i + 3}"]
    (songs / "huge").mkdir()
    (songs / "huge" / "huge.txt").write_text("\n".join(lines + ["E"]), encoding="utf-8")
    server = LoggedServer(songs)
    try:
        client = Client(server.port)
        raw_start = len(client.buffer)
        hello = client.wait_for("hello")
        size = len(json.dumps(hello))
        # The library comes page by page (hello no longer carries it); the huge song is listed with its problem.
        # The server reads the library in the background after it starts: ask until it is read.
        deadline = time.time() + 30
        while True:
            client.send({"type": "library", "query": "huge"})
            page = client.wait_for("library")
            if page.get("indexing") is None or time.time() > deadline:
                break
            time.sleep(0.2)
        listed = next(song for song in page["songs"] if song["id"] == "huge")
        print(f"\n100,000-line lyric file: hello {size} bytes; listed as: {listed['error']}")
        assert size < 100_000 and raw_start < 100_000
        # A guest or display reads only that it can't be played; the host reads why.
        assert listed["error"] == "can't be played right now"
        client.send({"type": "hello", "role": "host", "pin": PIN})
        client.wait_for("hello", where=lambda m: m["role"] == "host")
        client.send({"type": "library", "query": "huge"})
        listed = next(song for song in client.wait_for("library")["songs"] if song["id"] == "huge")
        assert "huge.txt: 100000 lyric lines" in listed["error"] and str(songs) not in listed["error"], listed
        client.send({"type": "queueAdd", "songId": "huge", "playNow": True})
        error = client.wait_for("error")
        assert error["code"] == "songTooLarge" and "at most 2000" in error["message"]
        assert client.wait_for("song", timeout=1) is None, "no song event for the refused song"
        client.close()
    finally:
        server.stop()


def test_slow_readers_of_a_large_file_at_1024_open_files_do_not_lock_anyone_out(many_songs, tmp_path):
    """Each connection being sent a file holds two descriptors (socket and file)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1000:
        pytest.skip(f"this test process may open only {hard} files (needs 1,000)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1000) if hard == resource.RLIM_INFINITY else hard, hard))
    public = tmp_path / "public"
    shutil.copytree(ROOT / "public", public)
    (public / "big.mp3").write_bytes(os.urandom(8_000_000))
    server = LoggedServer(many_songs, public=public, nofile=1024)
    readers = []
    try:
        for n in range(700):  # 28 addresses, 25 each; they ask for 8 MB and read nothing
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind((f"127.0.4.{n // 25 + 2}", 0))
            sock.settimeout(2)
            try:
                sock.connect(("127.0.0.1", server.port))
                sock.sendall(f"GET /big.mp3 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            except OSError:
                pass
            readers.append(sock)
        time.sleep(2)
        delays = [fresh_hello_delay(server.port, source=f"127.0.5.{n + 2}") for n in range(3)]
        print(f"\nslow readers, 700 x GET 8 MB at 1024 open files: new clients' hello after "
              + ", ".join(f"{d * 1000:.0f} ms" for d in delays) + f"; log {server.log_size()} bytes")
        assert max(delays) < SERVED_WITHIN, f"new clients waited {delays} s for hello"
        assert server.log_size() < LOG_LIMIT
        # Files count against the descriptors: beyond its share an address is answered 503 (no
        # file opened), so the process never runs out and `accept` never fails.
        assert "accept: errno" not in server.text(), server.text()[-600:]
        statuses = []
        for sock in readers:
            sock.settimeout(0.5)
            try:
                statuses.append(sock.recv(12, socket.MSG_PEEK))
            except OSError:
                statuses.append(b"")
        assert b"HTTP/1.1 503" in statuses, set(statuses)
        files = collections.Counter(n // 25 for n, status in enumerate(statuses) if status == b"HTTP/1.1 200")
        assert files and max(files.values()) <= 24, f"files being sent per address: {files}"
    finally:
        for sock in readers:
            sock.close()
        server.stop()


# ---------------------------------------------------------------- song packs that link out


def png_bytes(width=64, height=48, colour=(200, 30, 90)):
    """A real PNG (libgd reads it), so a cover that were followed would get a thumbnail."""
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(colour) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def wav_bytes(seconds=1.0, rate=8000):
    import io
    import wave

    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x10" * int(seconds * rate))
    return out.getvalue()


def library_page(client, query=""):
    """The whole library (one page), once the server has read it."""
    deadline = time.time() + 30
    while True:
        client.send({"type": "library", "query": query, "limit": 200})
        page = client.wait_for("library")
        if page.get("indexing") is None or time.time() > deadline:
            return page
        time.sleep(0.2)


def play_now(host, song_id):
    """The room's `song` after the host asks for `song_id` at once (None if it was refused)."""
    host.send({"type": "queueAdd", "songId": song_id, "playNow": True})
    return host.wait_for("song", timeout=15, where=lambda m: (m.get("song") or {}).get("id") == song_id)


def test_a_song_pack_unpacked_from_tar_cannot_publish_files_outside_the_library(tmp_path):
    """Issue 40: a song pack (an archive keeps symlinks) whose conventional `video.mp4`, cover,
    backing track and lyric file are links to files outside the song library. The server must
    serve none of the outside bytes: not at the song's /media URL, not as a cover thumbnail,
    and the linked lyric file's song is not in the list. A pack whose files are real (and one
    whose link stays inside the library) is the control: the same URLs do serve its files."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret_video = b"OUTSIDE-SECRET-VIDEO" * 64
    (outside / "secret.mp4").write_bytes(secret_video)
    (outside / "secret.png").write_bytes(png_bytes(colour=(10, 200, 10)))
    (outside / "secret.wav").write_bytes(wav_bytes())
    (outside / "secret.txt").write_text(TINY_SONG.replace("Tiny Test Song", "Outside Secret Song"), encoding="utf-8")

    # The pack, made as a song pack is: a tar archive holding links, unpacked with tar.
    pack = tmp_path / "pack"
    for folder in ("linked", "backlink", "lyriclink", "control"):
        (pack / folder).mkdir(parents=True)
    song = TINY_SONG.replace("#MP3:tiny.ogg", "#MP3:backing.wav")
    (pack / "linked" / "linked.txt").write_text(song.replace("Tiny Test Song", "Linked Pack"), encoding="utf-8")
    (pack / "linked" / "backing.wav").write_bytes(wav_bytes())
    (pack / "linked" / "video.mp4").symlink_to(outside / "secret.mp4")                      # absolute link out
    (pack / "linked" / "cover.png").symlink_to(pathlib.Path("../../../outside/secret.png"))  # relative link out
    (pack / "backlink" / "backlink.txt").write_text(
        TINY_SONG.replace("#MP3:tiny.ogg\n", "").replace("Tiny Test Song", "Backing Link"), encoding="utf-8")
    (pack / "backlink" / "backing.wav").symlink_to(outside / "secret.wav")
    (pack / "lyriclink" / "lyriclink.txt").symlink_to(outside / "secret.txt")
    (pack / "control" / "control.txt").write_text(song.replace("Tiny Test Song", "Control Pack"), encoding="utf-8")
    (pack / "control" / "backing.wav").write_bytes(wav_bytes())
    control_video = b"INSIDE-CONTROL-VIDEO" * 64
    (pack / "control" / "clip.bin").write_bytes(control_video)
    (pack / "control" / "video.mp4").symlink_to("clip.bin")                                  # a link that stays inside
    (pack / "control" / "cover.png").write_bytes(png_bytes())
    archive = tmp_path / "pack.tar"
    subprocess.run(["tar", "-cf", str(archive), "-C", str(pack), "."], check=True)
    songs = tmp_path / "library" / "songs"
    songs.mkdir(parents=True)
    write_song_folders(songs, [("tiny", TINY_SONG)])
    subprocess.run(["tar", "-xf", str(archive), "-C", str(songs)], check=True)
    assert (songs / "linked" / "video.mp4").is_symlink() and (songs / "lyriclink" / "lyriclink.txt").is_symlink()
    assert (songs / "linked" / "cover.png").read_bytes()[:4] == b"\x89PNG", "the relative link resolves outside"

    server = LoggedServer(songs, extra=["--scores", str(tmp_path / "scores")])
    try:
        host = Client(server.port)
        host.wait_for("hello")
        host.send({"type": "hello", "role": "host", "pin": PIN})
        assert host.wait_for("hello", where=lambda m: m["role"] == "host")
        listed = {entry["id"]: entry for entry in library_page(host)["songs"]}
        titles = [entry["title"] for entry in listed.values()]
        assert "Outside Secret Song" not in titles, "a lyric file linked out of the library was read"
        assert "control" in listed and "linked" in listed

        # The control: its video is published and served, its cover gets a thumbnail.
        control = play_now(host, "control")
        assert control and control["song"].get("video"), f"the control song has no video: {control}"
        status, body = http_get(server.port, control["song"]["video"]["url"])
        assert status in (200, 206) and body == control_video
        assert listed["control"].get("cover"), "the control song's cover is listed"

        # The pack with links out: the song plays, without the outside video or cover.
        linked = play_now(host, "linked")
        assert linked, "the song with a linked video still plays"
        assert not linked["song"].get("video"), f"a video outside the library was published: {linked['song'].get('video')}"
        assert not listed["linked"].get("cover"), f"a cover outside the library was listed: {listed['linked'].get('cover')}"
        for entry in listed.values():
            if entry.get("cover"):
                deadline = time.time() + 10
                while True:
                    status, body = http_get(server.port, entry["cover"])
                    if status != 503 or time.time() > deadline:
                        break
                    time.sleep(0.2)
                assert entry["id"] == "control", f"{entry['id']} got a cover thumbnail"

        # The backing track linked out: the library refuses the song (it cannot play without
        # it). A server with audio lists it with that error; this one runs --no-audio, which
        # opens no audio at all, so the library itself (`karaoke songs`, the same reader) shows it.
        listing = json.loads(subprocess.run([karaoke_binary(), "songs", "--dir", str(songs), "--json"], check=True,
                                            capture_output=True, text=True, timeout=60).stdout)
        by_id = {entry["id"]: entry for entry in listing}
        assert "outside the song library" in by_id["backlink"].get("error", ""), by_id["backlink"]
        assert "Outside Secret Song" not in [entry.get("title") for entry in listing]
        assert "error" not in by_id["control"], by_id["control"]

        # Nothing the server answers carries the outside bytes.
        for token_path in (linked["song"].get("background"), "/media/", "/media/secret.mp4"):
            if token_path:
                assert secret_video not in http_get(server.port, token_path)[1]
        log = server.text()
        for name in ("video.mp4", "cover.png", "lyriclink.txt"):
            assert re.search(rf"{name}.*outside the song library", log), f"no warning names the linked {name}:\n{log}"
        host.close()
    finally:
        server.stop()
