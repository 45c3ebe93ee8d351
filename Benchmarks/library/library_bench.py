#!/usr/bin/env python3
"""Library benchmark: `karaoke serve` with a generated library of N UltraStar songs.

Measures (1) time from process start to "Listening" (the room answers) and to the library
read (a `library` page without `indexing`; the server reads it in the background) on a first
start (no index cache) and a second start (cache in --scores), (2) server-side search time (`elapsedMs` of the `library`
answer) and the client's round trip for a set of queries, including accent-folded two-word
searches. Prints one table; the load average is printed with it.

    .venv/bin/python Benchmarks/library/library_bench.py --bin .build/debug/karaoke --songs 10000
"""
import argparse
import json
import os
import pathlib
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import websockets.sync.client as ws_client

PIN = "9753"
ARTISTS = ["Beyoncé", "Ábba Tribute", "Zoë Keating", "Mötley Crüe", "Sigur Rós", "Céline Dion", "Björk", "Röyksopp",
           "Édith Piaf", "Los Lobos", "The Band", "Queen", "Nena", "Ōtsuka Ai", "Françoise Hardy"]
WORDS = ["love", "night", "fire", "dancing", "river", "heart", "city", "summer", "rain", "golden", "señorita", "café",
         "moon", "road", "dream", "blue", "electric", "wild", "storm", "paradise", "garçon", "über", "mañana"]


def generate(directory, count):
    """`count` song folders; song i has a title of two or three words and one of the artists."""
    root = pathlib.Path(directory)
    songs = []
    for i in range(count):
        title = " ".join(WORDS[(i * k + k) % len(WORDS)] for k in (1, 3, 7)[: 2 + i % 2]).title() + f" {i}"
        artist = ARTISTS[i % len(ARTISTS)]
        folder = root / f"{artist} - {title}"
        folder.mkdir(parents=True)
        (folder / "song.txt").write_text(
            f"#TITLE:{title}\n#ARTIST:{artist}\n#MP3:song.ogg\n#BPM:300\n#GAP:500\n#LANGUAGE:English\n#YEAR:{1960 + i % 60}\n"
            ": 0 10 0 la \n: 10 10 2 la\n- 25\n: 30 10 4 la\nE\n", encoding="utf-8")
        songs.append((title, artist))
    # The song the accent-folded search must find first ("beyonce halo"); no generated title has "halo".
    folder = root / "Beyoncé - Halo"
    folder.mkdir()
    (folder / "song.txt").write_text("#TITLE:Halo\n#ARTIST:Beyoncé\n#MP3:song.ogg\n#BPM:300\n: 0 10 0 la\nE\n", encoding="utf-8")
    return songs


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, songs, scores, public):
    port = free_port()
    began = time.monotonic()
    process = subprocess.Popen([binary, "serve", "--no-audio", "--port", str(port), "--songs", songs, "--scores", scores,
                                "--pin", PIN, "--public", public], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    lines = []
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("serve exited:\n" + "".join(lines[-20:]))
        lines.append(line)
        if re.match(r"Listening on port (\d+)", line):
            listening = time.monotonic() - began
            return process, port, listening, library_read(port, began)


def library_read(port, began, timeout=600):
    """Seconds from `began` until the server answers a library page that is not partial."""
    with ws_client.connect(f"ws://127.0.0.1:{port}/", subprotocols=["karaoke"], max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "role": "guest"}))
        deadline = time.monotonic() + timeout
        n = 0
        while time.monotonic() < deadline:
            n += 1
            ws.send(json.dumps({"type": "library", "id": n, "limit": 1}))
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message.get("type") == "library" and message.get("id") == n:
                    break
            if message.get("indexing") is None:
                return time.monotonic() - began
            time.sleep(0.05)
    raise RuntimeError("the library was not read in time")


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def search(port, query, repeats=5):
    """Server times and round trips (ms) of `repeats` identical searches, and the first answer."""
    server, trips, first = [], [], None
    with ws_client.connect(f"ws://127.0.0.1:{port}/", subprotocols=["karaoke"], max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "role": "guest"}))
        for n in range(repeats):
            sent = time.monotonic()
            ws.send(json.dumps({"type": "library", "id": 1000 + n, "limit": 50, **query}))
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message.get("type") == "library" and message.get("id") == 1000 + n:
                    break
            trips.append((time.monotonic() - sent) * 1000)
            server.append(message["elapsedMs"])
            first = first or message
    return server, trips, first


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/karaoke")
    parser.add_argument("--songs", type=int, default=10_000)
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="karaoke-library-bench-") as work:
        songs_dir, scores = os.path.join(work, "songs"), os.path.join(work, "scores")
        os.makedirs(scores)
        t = time.monotonic()
        generated = generate(songs_dir, args.songs)
        print(f"generated {args.songs} song folders in {time.monotonic() - t:.1f} s; load average {os.getloadavg()}")
        process, _, first_start, first_read = start(args.bin, songs_dir, scores, str(root / "public"))
        stop(process)
        process, port, second_start, second_read = start(args.bin, songs_dir, scores, str(root / "public"))
        try:
            print(f"first start (no cache): listening after {first_start:.2f} s, library read after {first_read:.2f} s")
            print(f"second start (cache): listening after {second_start:.2f} s, library read after {second_read:.2f} s")
            title, artist = "Halo", "Beyoncé"
            folded = "beyonce halo"
            queries = [("empty (first page, title order)", {"sort": "title"}),
                       ("one word 'love'", {"query": "love"}),
                       (f"accent-folded two words '{folded}'", {"query": folded}),
                       ("two words no match 'zzz qqq'", {"query": "zzz qqq"}),
                       ("artist filter 'Björk'", {"artist": "Björk"})]
            print(f"{'query':52} {'total':>6} {'server median ms':>17} {'server max ms':>14} {'round trip median ms':>21}")
            for name, query in queries:
                server, trips, answer = search(port, query)
                print(f"{name:52} {answer['total']:>6} {statistics.median(server):>17.2f} {max(server):>14.2f} "
                      f"{statistics.median(trips):>21.2f}")
                if "accent" in name:
                    top = answer["songs"][0]
                    print(f"   first hit: {top['artist']} – {top['title']} (wanted {artist} – {title})")
        finally:
            stop(process)
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    sys.exit(main())
