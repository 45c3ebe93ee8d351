#!/usr/bin/env python3
"""Cover thumbnail benchmark: `karaoke serve` with N songs, each with a 1000×1000 cover made by
ffmpeg's test pattern (JPEG; every fourth one PNG). Asks for the first page of 50 songs and
fetches their `/cover/<key>.jpg` the way the remote does (a 503 "not made yet" is asked again
after 50 ms). Prints the time until all 50 thumbnails answered (cold: libgd makes them), the
per-request time once made (served from <scores>/covers), the same after a restart, and the
thumbnails' sizes; the load average with it.

    .venv/bin/python Benchmarks/library/cover_bench.py --bin .build/debug/karaoke
"""
import argparse
import http.client
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import websockets.sync.client as ws_client

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from library_bench import start, stop  # noqa: E402


def generate(directory, count):
    root = pathlib.Path(directory)
    images = root / "images"
    images.mkdir(parents=True)
    for name, extra in (("jpg", ["-q:v", "3"]), ("png", [])):
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1000x1000:rate=25",
                        "-frames:v", "8", *extra, str(images / f"c%d.{name}")], check=True)
    for i in range(count):
        folder = root / "songs" / f"{i:04d}"
        folder.mkdir(parents=True)
        (folder / "song.txt").write_text(f"#TITLE:Song {i:04d}\n#ARTIST:Cover Bench\n#MP3:a.ogg\n#BPM:300\n: 0 10 0 la\nE\n")
        ext = "png" if i % 4 == 3 else "jpg"
        shutil.copy(images / f"c{i % 8 + 1}.{ext}", folder / f"cover.{ext}")
    return root / "songs"


def page_covers(port):
    with ws_client.connect(f"ws://127.0.0.1:{port}/", subprotocols=["karaoke"], max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "role": "guest"}))
        while True:
            ws.send(json.dumps({"type": "library", "id": 1, "limit": 50, "sort": "title"}))
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message.get("type") == "library" and message.get("id") == 1:
                    break
            if message.get("indexing") is None:
                return [song["cover"] for song in message["songs"] if song.get("cover")]
            time.sleep(0.1)


def fetch_all(port, urls):
    """Seconds until every URL answered 200, each request's milliseconds, and the bodies' sizes."""
    began = time.monotonic()
    times, sizes = [], []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for url in urls:
        while True:
            sent = time.monotonic()
            connection.request("GET", url)
            response = connection.getresponse()
            body = response.read()
            times.append((time.monotonic() - sent) * 1000)
            if response.status == 200:
                sizes.append(len(body))
                break
            if response.status != 503 or time.monotonic() - began > 120:
                raise RuntimeError(f"{url}: {response.status}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            time.sleep(0.05)
    connection.close()
    return time.monotonic() - began, times, sizes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/karaoke")
    parser.add_argument("--songs", type=int, default=200)
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="karaoke-cover-bench-") as work:
        songs = generate(work, args.songs)
        scores = os.path.join(work, "scores")
        os.makedirs(scores)
        print(f"load average {os.getloadavg()}")
        for run in ("cold (thumbnails made by libgd)", "after a restart (thumbnails on disk)"):
            process, port, _, _ = start(args.bin, str(songs), scores, str(root / "public"))
            try:
                urls = page_covers(port)
                total, times, sizes = fetch_all(port, urls)
                _, warm, _ = fetch_all(port, urls)
                print(f"{run}: {len(urls)} covers all answered in {total * 1000:.0f} ms ({len(times)} requests); "
                      f"served again: median {statistics.median(warm):.2f} ms, max {max(warm):.2f} ms per request; "
                      f"thumbnail sizes {min(sizes)}–{max(sizes)} bytes")
            finally:
                stop(process)
        print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    sys.exit(main())
