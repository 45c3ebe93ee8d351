#!/usr/bin/env python3
"""Eight rooms writing to one PostgreSQL at once, and the venue page's read with 30 rooms.

Starts a private PostgreSQL (scripts/lib/postgres-test-env.sh; fsync off, as the test cluster is),
then in one session:
  1. one room alone (the baseline), then eight rooms at once: each is a `store-bench` process
     writing through the room's own path (ScoreWriteQueue with its fsync'd disk spool, then
     PostgresScoreStore); every line's latency is from being queued to PostgreSQL's answer;
  2. checks that every line and every finished run is in the database, each once;
  3. adds 20,000 older runs, announces 30 rooms and times VenueSnapshot.read (what each room's
     heartbeat does every 5 s; in store-bench's build, so a debug build decodes slowly) and the
     board query's own execution time in PostgreSQL (EXPLAIN ANALYZE), with and without the
     board index (dropped for the comparison).
Prints one JSON report with the load average; the ratio 8-rooms/1-room is the figure that
survives a busy machine.

    swift build --product store-bench
    .venv/bin/python Benchmarks/store/venue_load.py --bin $(swift build --show-bin-path)/store-bench
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def start_cluster():
    out = subprocess.run(["bash", "-c", f". '{ROOT}/scripts/lib/postgres-test-env.sh' && pg_test_start && "
                                        "echo \"$KARAOKE_TEST_POSTGRES\" && echo \"$PG_DIR\""],
                         check=True, capture_output=True, text=True, timeout=120).stdout.split()
    return out[-2], out[-1]


def psql(url, sql):
    return subprocess.run(["psql", "-X", "-At", "-d", url, "-c", sql], check=True, capture_output=True,
                          text=True, timeout=120).stdout.strip()


def board_query_ms(url, rounds=20):
    """PostgreSQL's own execution time of the venue's 500-row board query (EXPLAIN ANALYZE), median of `rounds`."""
    times = []
    for _ in range(rounds):
        plan = psql(url, "EXPLAIN ANALYZE SELECT * FROM performance WHERE status = 'complete' "
                         "ORDER BY total DESC, finishedAt, id LIMIT 500")
        times.append(float(plan.split("Execution Time: ")[1].split()[0]))
    return quantile(times, 0.5)


def quantile(values, q):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else None


def rooms_at_once(binary, url, count, runs, lines, interval, spool_root, tag):
    processes = [subprocess.Popen([binary, "--url", url, "--room", f"{tag} {n}", "--runs", str(runs), "--lines", str(lines),
                                   "--interval-ms", str(interval), "--spool", os.path.join(spool_root, f"{tag}-{n}")],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(count)]
    reports = []
    for p in processes:
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            raise SystemExit(f"store-bench failed: {err}")
        reports.append(json.loads(out))
    latencies = [x for r in reports for x in r["latencies_ms"]]
    stored_lines = int(psql(url, f"SELECT count(*) FROM lineResult l JOIN performance p ON p.id = l.performanceId "
                                 f"WHERE p.room LIKE '{tag} %'"))
    distinct = int(psql(url, f"SELECT count(DISTINCT (l.performanceId, l.lineIndex)) FROM lineResult l "
                             f"JOIN performance p ON p.id = l.performanceId WHERE p.room LIKE '{tag} %'"))
    complete = int(psql(url, f"SELECT count(*) FROM performance WHERE room LIKE '{tag} %' AND status = 'complete'"))
    return {
        "rooms": count, "lines_per_room": runs * lines, "line_interval_ms": interval,
        "all_drained": all(r["drained"] for r in reports),
        "lines_queued": sum(r["lines_queued"] for r in reports), "lines_stored": stored_lines,
        "lines_stored_distinct": distinct, "runs_complete": complete, "runs_expected": count * runs,
        "write_ms_median": quantile(latencies, 0.5), "write_ms_p99": quantile(latencies, 0.99),
        "write_ms_max": round(max(latencies), 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the store-bench executable")
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--runs", type=int, default=4, help="songs per room")
    parser.add_argument("--lines", type=int, default=17, help="lines per song (the demo song has 17)")
    parser.add_argument("--interval-ms", type=int, default=50, help="between two lines of a room (a real song: ~5000)")
    parser.add_argument("--venue-rooms", type=int, default=30)
    args = parser.parse_args()
    url, directory = start_cluster()
    spool_root = tempfile.mkdtemp(prefix="store-bench-spool-")
    try:
        report = {"load_average_before": os.getloadavg(), "cpu_count": os.cpu_count()}
        report["one_room"] = rooms_at_once(args.bin, url, 1, args.runs, args.lines, args.interval_ms, spool_root, "solo")
        report["many_rooms"] = rooms_at_once(args.bin, url, args.rooms, args.runs, args.lines, args.interval_ms, spool_root, "room")
        report["p99_ratio_many_to_one"] = round(report["many_rooms"]["write_ms_p99"] / report["one_room"]["write_ms_p99"], 2)
        psql(url, """
            INSERT INTO performance (songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis, total,
                                     startedAt, finishedAt, status, room, runKey)
            SELECT 'song-' || (i % 300), 'Song ' || (i % 300), 'singer-' || (i % 900), 0, 'medium', 'ultrastar', 0, 1,
                   'notes', (i * 7919) % 10001, now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval,
                   CASE WHEN i % 10 = 0 THEN 'in-progress' ELSE 'complete' END, 'Room ' || (i % 30), 'old-' || i
            FROM generate_series(1, 20000) AS i; ANALYZE performance""")
        venue = [args.bin, "--url", url, "--venue", str(args.venue_rooms), "--reads", "40"]
        report["venue_read_with_index"] = json.loads(subprocess.run(venue, check=True, capture_output=True, text=True).stdout)
        report["venue_plan_with_index"] = psql(url, "EXPLAIN SELECT * FROM performance WHERE status = 'complete' "
                                                    "ORDER BY total DESC, finishedAt, id LIMIT 500").splitlines()[:3]
        report["board_query_server_ms_with_index"] = board_query_ms(url)
        psql(url, "DROP INDEX performance_board")
        report["venue_read_without_index"] = json.loads(subprocess.run(venue, check=True, capture_output=True, text=True).stdout)
        report["board_query_server_ms_without_index"] = board_query_ms(url)
        report["load_average_after"] = os.getloadavg()
        print(json.dumps(report, indent=2))
        m = report["many_rooms"]
        ok = m["all_drained"] and m["lines_stored"] == m["lines_stored_distinct"] == m["lines_queued"] \
            and m["runs_complete"] == m["runs_expected"]
        return 0 if ok else 1
    finally:
        subprocess.run([directory + "/ctl", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(directory, ignore_errors=True)
        shutil.rmtree(spool_root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
