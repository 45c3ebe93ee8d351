#!/usr/bin/env python3
"""Load test for `karaoke serve`: N display clients receive every event of a short song.

Starts the server (`--no-audio`, loopback, free port) with a generated 30-s song that has
eight syllables per second, connects N display clients plus one deliberately slow client
(it never reads), starts playback from a host connection and records, for every event each
client receives, the delay from the server's send stamp (`t`, taken when the event is
encoded) to the client's receive time. Reports median / p99 delay, events per client,
dropped clients, the server's CPU time and memory, its own encode-to-socket histogram, and
the load average at start and end; exits non-zero unless every client got every event.

The display clients are, by default (`--client c`), Benchmarks/ws-load: one C process holding
all of them in one libwebsockets event-loop thread (compiled on demand into Benchmarks/out/).
`--client python` uses asyncio `websockets` clients in `--processes` processes instead; those
are too slow for 1,000 clients (their own scheduling dominates the delays).

    .venv/bin/python Benchmarks/server_load.py --bin /tmp/eval-karaoke --clients 1000
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


def summarize(delays, counts):
    """The Python clients' raw figures in the shape ws-load reports them."""
    delays.sort()
    p = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
    line_counts = [c.get("line", 0) for c in counts]
    state_counts = [c.get("state", 0) for c in counts]
    return {
        "clients": len(counts), "established": len(counts), "failed": 0,
        "dropped": sum("error" in c for c in counts),
        "line_min": min(line_counts), "line_max": max(line_counts),
        "state_min": min(state_counts), "state_max": max(state_counts),
        "events_measured": len(delays),
        "delay_ms_median": statistics.median(delays), "delay_ms_p99": p(0.99),
        "delay_ms_p999": p(0.999), "delay_ms_max": delays[-1],
        "first_problems": [c["error"] for c in counts if "error" in c][:5],
    }


class PythonClients:
    """`--processes` processes of asyncio `websockets` clients (slow: they dominate the delays)."""

    def __init__(self, args, port):
        import multiprocessing as mp
        self.url = f"ws://127.0.0.1:{port}/"
        self.ready, self.results = mp.Queue(), mp.Queue()
        self.start_measuring, self.stop_event = mp.Event(), mp.Event()
        self.processes = []
        share = args.clients // args.processes
        for p in range(args.processes):
            count = share if p < args.processes - 1 else args.clients - share * (args.processes - 1)
            process = mp.Process(target=worker, args=(self.url, count, p * share, self.ready,
                                                      self.start_measuring, self.stop_event, self.results))
            process.start()
            self.processes.append(process)

    async def wait_ready(self):
        for _ in self.processes:
            await asyncio.get_running_loop().run_in_executor(None, self.ready.get, True, 60)

    async def start(self):
        self.start_measuring.set()

    async def stop(self):
        self.stop_event.set()
        delays, counts = [], []
        for _ in self.processes:
            d, c = await asyncio.get_running_loop().run_in_executor(None, self.results.get, True, 60)
            delays += d
            counts += c
        return summarize(delays, counts)

    def close(self):
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.terminate()


WS_LOAD_SOURCE = pathlib.Path(__file__).resolve().parent / "ws-load" / "ws_load.c"
WS_LOAD_BIN = pathlib.Path(__file__).resolve().parent / "out" / "ws-load"


def build_ws_load():
    """Compiles Benchmarks/ws-load/ws_load.c (libwebsockets) into Benchmarks/out/ when it is newer."""
    if WS_LOAD_BIN.exists() and WS_LOAD_BIN.stat().st_mtime >= WS_LOAD_SOURCE.stat().st_mtime:
        return WS_LOAD_BIN
    WS_LOAD_BIN.parent.mkdir(exist_ok=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libwebsockets"], check=True,
                           capture_output=True, text=True).stdout.split()
    subprocess.run(["cc", "-O2", "-Wall", "-o", str(WS_LOAD_BIN), str(WS_LOAD_SOURCE), *flags, "-lpthread"],
                   check=True)
    subprocess.run([str(WS_LOAD_BIN), "--self-test"], check=True)  # its JSON envelope scanner
    return WS_LOAD_BIN


class CompiledClients:
    """All display clients in one libwebsockets event-loop thread of one C process (ws-load)."""

    def __init__(self, args, port):
        self.args, self.port, self.process = args, port, None

    async def wait_ready(self):
        self.process = await asyncio.create_subprocess_exec(
            str(build_ws_load()), "--port", str(self.port), "--clients", str(self.args.clients),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        line = (await asyncio.wait_for(self.process.stdout.readline(), 60)).decode()
        _, established, failed = line.split()
        if int(failed):
            raise RuntimeError(f"ws-load: {failed} of {self.args.clients} clients could not connect")

    async def start(self):
        self.process.stdin.write(b"start\n")
        await self.process.stdin.drain()

    async def stop(self):
        self.process.stdin.write(b"stop\n")
        await self.process.stdin.drain()
        out = await asyncio.wait_for(self.process.stdout.read(), 60)
        await self.process.wait()
        return json.loads(out)

    def close(self):
        if self.process and self.process.returncode is None:
            self.process.kill()


async def run(args):
    with tempfile.TemporaryDirectory(prefix="karaoke-load-") as songs:
        make_song(songs, args.song_seconds)
        port = free_port()
        load_start = os.getloadavg()[0]
        server = subprocess.Popen(
            [args.bin, "serve", "--no-audio", "--port", str(port), "--songs", songs, "--song", "load",
             "--pin", PIN, "--public", str(pathlib.Path(__file__).resolve().parents[1] / "public")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        clients = None
        try:
            for line in server.stdout:
                if re.match(r"Listening on port", line):
                    break
            url = f"ws://127.0.0.1:{port}/"
            clients = (CompiledClients if args.client == "c" else PythonClients)(args, port)
            await clients.wait_ready()
            slow = slow_client(port)
            await asyncio.sleep(0.5)
            await clients.start()
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
            got = await clients.stop()
            slow.close()
            report = {
                "clients": args.clients,
                "client": args.client if args.client == "c" else f"python x{args.processes}",
                "song_finished": finished,
                "song_seconds": round(wall, 1),
                "events_measured": got["events_measured"],
                "line_events_per_client_min_max": [got["line_min"], got["line_max"]],
                "state_events_per_client_min_max": [got["state_min"], got["state_max"]],
                "dropped_clients": got["dropped"],
                "delay_ms_median": round(got.get("delay_ms_median", float("nan")), 2),
                "delay_ms_p99": round(got.get("delay_ms_p99", float("nan")), 2),
                "delay_ms_p999": round(got.get("delay_ms_p999", float("nan")), 2),
                "delay_ms_max": round(got.get("delay_ms_max", float("nan")), 2),
                "server_cpu_seconds": round(cpu_used, 2),
                "server_cpu_percent_of_one_core": round(100 * cpu_used / wall, 1),
                "server_rss_mib": round(rss / 1024, 1),
                "server_peak_rss_mib": round(peak_rss / 1024, 1),
                "load_average_1min_start_end": [round(load_start, 2), round(os.getloadavg()[0], 2)],
            }
            if "client_cpu_seconds" in got:
                report["client_cpu_percent_of_one_core"] = round(
                    100 * got["client_cpu_seconds"] / max(got["client_wall_seconds"], 1e-9), 1)
            for key in ("back_to_back_events", "back_to_back_delay_ms_median", "back_to_back_delay_ms_p99",
                        "other_delay_ms_median", "other_delay_ms_p99"):
                if key in got:  # ws-load only: events encoded < 5 ms after the previous one vs the rest
                    report[key] = round(got[key], 2)
            if got["first_problems"]:
                report["client_problems"] = got["first_problems"]
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
            ok = (finished and not got["dropped"] and not got.get("failed")
                  and got["line_min"] == got["line_max"] and got["state_min"] == got["state_max"])
            report["ok"] = ok
            print(json.dumps(report, indent=2))
            print(summary_line(report))
            return 0 if ok else 1
        finally:
            if clients:
                clients.close()
            if server.poll() is None:
                server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def summary_line(r):
    """One line to paste into docs/server-load.md."""
    return (f"SUMMARY clients={r['clients']} client={r['client']} ok={r['ok']} finished={r['song_finished']} "
            f"line/state per client={r['line_events_per_client_min_max']}/{r['state_events_per_client_min_max']} "
            f"dropped={r['dropped_clients']} e2e ms median/p99/max={r['delay_ms_median']}/{r['delay_ms_p99']}/"
            f"{r['delay_ms_max']} server enc->sock ms median/p99={r.get('server_encode_to_socket_ms_median')}/"
            f"{r.get('server_encode_to_socket_ms_p99')} server CPU={r['server_cpu_percent_of_one_core']}% "
            f"({r['server_cpu_seconds']} s / {r['song_seconds']} s) RSS/peak MiB={r['server_rss_mib']}/"
            f"{r['server_peak_rss_mib']} client CPU={r.get('client_cpu_percent_of_one_core', '-')}% "
            f"load={r['load_average_1min_start_end'][0]}->{r['load_average_1min_start_end'][1]}"
            + (f" back-to-back events={r['back_to_back_events']} p99 {r.get('back_to_back_delay_ms_p99')} ms"
               f" vs others p99 {r.get('other_delay_ms_p99')} ms" if "back_to_back_events" in r else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("KARAOKE_BIN", ".build/release/karaoke"))
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--song-seconds", type=float, default=30)
    parser.add_argument("--client", choices=["c", "python"], default="c",
                        help="c: all clients in one libwebsockets thread (Benchmarks/ws-load, built on demand); "
                             "python: asyncio websockets clients in --processes processes (too slow for 1,000)")
    parser.add_argument("--processes", type=int, default=2, help="client processes for --client python")
    args = parser.parse_args()
    sys.exit(asyncio.run(asyncio.wait_for(run(args), timeout=args.song_seconds + 120)))


if __name__ == "__main__":
    main()
