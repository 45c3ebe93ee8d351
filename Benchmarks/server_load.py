#!/usr/bin/env python3
"""Load test for `karaoke serve`: N display clients receive every event of a short song.

Starts the server (`--no-audio`, loopback, free port) with a generated 30-s song that has
eight syllables per second, connects N display clients plus one deliberately slow client
(it never reads), starts playback from a host connection and records, for every event each
client receives, the delay from the server's send stamp (`t`, taken when the event is
encoded) to the client's receive time. Reports median / p99 delay, events per client,
dropped clients, and the server's CPU time and peak memory.

    .venv/bin/python Benchmarks/server_load.py --bin .build/release/karaoke --clients 500 --processes 2
"""
import argparse
import asyncio
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

import websockets

PIN = "9753"


def make_song(directory, seconds):
    """UltraStar song: BPM 480 → beat = 1/32 s; 4 beats per syllable = 8 syllables/s; 2-s lines."""
    lines = ["#TITLE:Load Test", "#ARTIST:Benchmarks", "#MP3:load.ogg", "#BPM:480", "#GAP:1000"]
    beat = 0
    for line in range(int(seconds // 2)):
        for syllable in range(14):
            lines.append(f": {beat} 4 {(line + syllable) % 12} la{syllable} ")
            beat += 4
        beat += 8
        lines.append(f"- {beat - 4}")
    lines.append("E")
    folder = pathlib.Path(directory) / "load"
    folder.mkdir()
    (folder / "load.txt").write_text("\n".join(lines) + "\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def source_address(index):
    """Clients come from many loopback addresses: the server admits 32 connections per address."""
    group = index // 25
    return f"127.1.{group // 250}.{group % 250 + 1}"


async def display_client(url, delays, counts, index, stop, connected, source):
    try:
        async with websockets.connect(url, max_queue=None, ping_interval=None, local_addr=(source, 0)) as ws:
            connected.append(index)
            async for raw in ws:
                now = time.time() * 1000
                message = json.loads(raw)
                kind = message["type"]
                counts[index][kind] = counts[index].get(kind, 0) + 1
                if kind in ("line", "state") and counts[index].get("hello"):
                    delays.append(now - message["t"])
                if stop.is_set():
                    break
    except Exception as error:  # noqa: BLE001 — any failure counts as a dropped client
        counts[index]["error"] = repr(error)


def slow_client(port):
    """A raw WebSocket that completes the handshake and then never reads."""
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    return s


def worker(url, count, first_index, ready, start_measuring, stop, results):
    """One process with `count` display clients; sends back delays and per-client counts."""
    async def go():
        delays, connected = [], []
        counts = [dict() for _ in range(count)]
        stop_event = asyncio.Event()
        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(display_client(url, delays, counts, i, stop_event, connected,
                                                            source_address(first_index + i))))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        while len(connected) < count:
            await asyncio.sleep(0.05)
        ready.put(first_index)
        while not start_measuring.is_set():
            await asyncio.sleep(0.02)
        delays.clear()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        stop_event.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put((delays, counts))
    asyncio.run(go())


async def run(args):
    import multiprocessing as mp
    with tempfile.TemporaryDirectory(prefix="karaoke-load-") as songs:
        make_song(songs, args.song_seconds)
        port = free_port()
        server = subprocess.Popen(
            [args.bin, "serve", "--no-audio", "--port", str(port), "--songs", songs, "--song", "load",
             "--pin", PIN, "--public", str(pathlib.Path(__file__).resolve().parents[1] / "public")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        workers = []
        try:
            for line in server.stdout:
                if re.match(r"Listening on port", line):
                    break
            url = f"ws://127.0.0.1:{port}/"
            ready, results = mp.Queue(), mp.Queue()
            start_measuring, stop = mp.Event(), mp.Event()
            share = args.clients // args.processes
            for p in range(args.processes):
                count = share if p < args.processes - 1 else args.clients - share * (args.processes - 1)
                process = mp.Process(target=worker, args=(url, count, p * share, ready, start_measuring, stop, results))
                process.start()
                workers.append(process)
            for _ in workers:
                await asyncio.get_running_loop().run_in_executor(None, ready.get, True, 60)
            slow = slow_client(port)
            await asyncio.sleep(0.5)
            start_measuring.set()
            await asyncio.sleep(0.1)
            cpu_before, wall_before = cpu_seconds(server.pid), time.time()
            async with websockets.connect(url, ping_interval=None) as host:
                await host.send(json.dumps({"type": "hello", "role": "host", "pin": PIN}))
                await host.send(json.dumps({"type": "play"}))
                deadline = time.time() + args.song_seconds + 10
                finished = False
                async for raw in host:
                    message = json.loads(raw)
                    if message["type"] == "state" and message["transport"] == "stopped" and message.get("position", 0) > 1:
                        finished = True
                        break
                    if time.time() > deadline:
                        break
            await asyncio.sleep(1.0)  # let the last events arrive
            cpu_used, wall = cpu_seconds(server.pid) - cpu_before, time.time() - wall_before
            peak_rss = memory_kib(server.pid, "VmHWM")
            rss = memory_kib(server.pid, "VmRSS")
            stop.set()
            delays, counts = [], []
            for _ in workers:
                d, c = await asyncio.get_running_loop().run_in_executor(None, results.get, True, 60)
                delays += d
                counts += c
            slow.close()
            dropped = [i for i, c in enumerate(counts) if "error" in c]
            line_counts = sorted(c.get("line", 0) for c in counts)
            state_counts = sorted(c.get("state", 0) for c in counts)
            delays.sort()
            p = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
            report = {
                "clients": args.clients,
                "client_processes": args.processes,
                "song_finished": finished,
                "song_seconds": round(wall, 1),
                "events_measured": len(delays),
                "line_events_per_client_min_max": [line_counts[0], line_counts[-1]],
                "state_events_per_client_min_max": [state_counts[0], state_counts[-1]],
                "dropped_clients": len(dropped),
                "delay_ms_median": round(statistics.median(delays), 2),
                "delay_ms_p99": round(p(0.99), 2),
                "delay_ms_max": round(delays[-1], 2),
                "server_cpu_seconds": round(cpu_used, 2),
                "server_cpu_percent_of_one_core": round(100 * cpu_used / wall, 1),
                "server_rss_mib": round(rss / 1024, 1),
                "server_peak_rss_mib": round(peak_rss / 1024, 1),
                "machine_load_average_1min": round(os.getloadavg()[0], 2),
            }
            # The server prints its own encode-to-socket delay histogram when it stops.
            server.terminate()
            tail = server.communicate(timeout=20)[0]
            match = re.search(r"(\d+) messages written, encode-to-socket delay median ([\d.]+) ms, p99 ([\d.]+) ms; "
                              r"(\d+) pitch frames dropped, (\d+) slow client", tail)
            if match:
                report["server_messages_written"] = int(match.group(1))
                report["server_encode_to_socket_ms_median"] = float(match.group(2))
                report["server_encode_to_socket_ms_p99"] = float(match.group(3))
                report["server_slow_clients_disconnected"] = int(match.group(5))
            print(json.dumps(report, indent=2))
            return 0 if finished and not dropped and line_counts[0] == line_counts[-1] else 1
        finally:
            for process in workers:
                process.join(5)
                if process.is_alive():
                    process.terminate()
            if server.poll() is None:
                server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("KARAOKE_BIN", ".build/release/karaoke"))
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--song-seconds", type=float, default=30)
    parser.add_argument("--processes", type=int, default=2, help="client processes (the clients are the bottleneck)")
    args = parser.parse_args()
    sys.exit(asyncio.run(asyncio.wait_for(run(args), timeout=args.song_seconds + 120)))


if __name__ == "__main__":
    main()
