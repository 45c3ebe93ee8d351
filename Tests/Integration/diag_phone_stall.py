"""Diagnostic, not part of the suite (no test_ prefix; run it by name): the scenario of
`test_a_phone_whose_capture_path_grows_mid_song_is_scored_where_its_audio_now_is` with Ann's page
instrumented, to see where a phone's stream stalls (docs/phone-mics.md, "The stall about 90 s
into a phone's stream"). Records each worklet message's arrival on the page (sample index,
context time, WebSocket backlog), the context clock every 100 ms, long tasks, the server's and the
browser's per-thread CPU time every 0.25 s, and the host's view of her network status; writes
them with the server log to PROBE_OUT (/tmp/stall-probe.json).

    . scripts/lib/pulse-test-env.sh; pa_test_start
    KARAOKE_BIN=... SE_OFFLINE=true .venv/bin/python -m pytest -q -s Tests/Integration/diag_phone_stall.py
    pa_test_stop

PROBE_TRACE_GC=1: Chromium with V8's GC log (PROBE_CHROME_LOG, /tmp/stall-chrome.log).
PROBE_PERF=1: `perf record -g` of the renderer for 22 s from 52 s into the song (/tmp/stall-perf.data).
PROBE_NO_MOVE=1 PROBE_NO_WAIT=1: without the page's 120 ms measurement aid."""
import json
import os
import re
import time

from test_phone_mic import (Host, calibrate_phone, calibrate_pulse, chromium, room_audio, room_server,  # noqa: F401
                            sing_song, singing_song, start_phone, wait_for_state)
from conftest import wait

PROBE = r"""
const mic = window.phoneMic, conn = window.karaoke;
const P = window.probe = { frames: [], clock: [], raf: [], long: [], msgs: [], states: [], t0: performance.now() };
const original = mic.node.port.onmessage;
mic.node.port.onmessage = (e) => {
  const before = performance.now();
  original(e);
  P.frames.push([before, e.data.index, mic.context.currentTime, conn.ws.bufferedAmount, performance.now() - before]);
};
setInterval(() => {
  const ts = mic.context.getOutputTimestamp();
  P.clock.push([performance.now(), mic.context.currentTime, ts.contextTime, ts.performanceTime, mic.offset]);
}, 100);
let last = performance.now();
const raf = () => { const now = performance.now(); if (now - last > 100) P.raf.push([last, now - last]); last = now; requestAnimationFrame(raf); };
requestAnimationFrame(raf);
try { new PerformanceObserver((list) => { for (const e of list.getEntries()) P.long.push([e.startTime, e.duration, e.name]); })
  .observe({ entryTypes: ['longtask'] }); } catch (e) { P.long.push([0, 0, String(e)]); }
const ws = conn.ws;
ws.addEventListener('message', (event) => {
  const size = typeof event.data === 'string' ? event.data.length : -1;
  let type = '?'; try { type = JSON.parse(event.data).type; } catch {}
  P.msgs.push([performance.now(), type, size]);
});
conn.on('state', (s) => { const me = (s.singers || []).find((x) => x.source === 'phone'); P.states.push([performance.now(), s.position, me && me.phoneStatus]); });
return performance.timeOrigin;
"""


import pathlib
import test_phone_mic


def traced_browser():
    """The test's Chromium wrapper, with V8's GC trace and the browser's output in a file."""
    cores = os.cpu_count() or 1
    path = pathlib.Path("/tmp/stall-chromium-wrapper")
    out = os.environ.get("PROBE_CHROME_LOG", "/tmp/stall-chrome.log")
    path.write_text(f'#!/bin/sh\nexec taskset -c {cores - 1} nice -n 10 /usr/bin/chromium --js-flags=--trace-gc "$@" >>{out} 2>&1\n')
    path.chmod(0o755)
    return str(path)


if os.environ.get("PROBE_TRACE_GC"):
    test_phone_mic.phone_browser = traced_browser


import subprocess
import threading
from test_phone_mic import descendants


def thread_times(pid):
    """{thread name: utime+stime ticks} of process pid."""
    out = {}
    for task in pathlib.Path(f"/proc/{pid}/task").glob("*"):
        try:
            stat = (task / "stat").read_text()
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            fields = stat.rsplit(")", 1)[1].split()
            key = f"{pid}:{task.name}:{comm}"
            out[key] = out.get(key, 0) + int(fields[11]) + int(fields[12])
        except (OSError, ValueError):
            pass
    return out


class Sampler:
    def __init__(self, server, driver, host_ref):
        self.server, self.driver, self.host_ref = server, driver, host_ref
        self.samples, self.stop = [], False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop:
            pids = [self.server.process.pid] + descendants(self.driver.service.process.pid)
            ticks = {}
            for pid in pids:
                ticks.update(thread_times(pid))
            host = self.host_ref.get("host")
            state = host.state() if host else None
            host_ = self.host_ref.get("host")
            st_ = host_.state() if host_ else None
            if st_ and st_.get("transport") == "playing" and (st_.get("position") or 0) >= 52 and os.environ.get("PROBE_PERF") \
                    and not getattr(self, "perfed", False):
                rt = [k for k in ticks if k.endswith(":Realtime AudioW")]
                if rt:
                    self.perfed = True
                    pid = rt[0].split(":")[0]
                    subprocess.Popen(["perf", "record", "-g", "-p", pid, "-o", "/tmp/stall-perf.data", "--", "sleep", "22"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    print("perf recording", pid, "from", time.time(), "song", st_.get("position"), rt)
            self.samples.append((time.time(), state and state.get("position"), state and state.get("transport"), ticks,
                                 os.getloadavg()[0]))
            time.sleep(0.25)


def test_probe(room_audio, singing_song, tmp_path):
    moved_ms = 120
    server = room_server(singing_song, tmp_path, ["--mic", "room_left", "--singer", "Pulse"])
    ann_page = chromium("room_left")
    out = {}
    try:
        start_phone(ann_page, server, "Ann")
        out["timeOrigin"] = ann_page.execute_script(PROBE)
        out["probe_wall"] = time.time()
        host = Host(server)
        host.read_in_background()
        sampler = Sampler(server, ann_page, {"host": host})
        sampler.thread.start()
        state = wait_for_state(host, lambda st: any(s.get("source") == "phone" for s in st["singers"]), 30)
        calibrate_pulse(host, 0)
        for attempt in range(3):
            try:
                calibrate_phone(ann_page)
                break
            except AssertionError as error:
                print("phone calibration failed, again:", error)
        host.send({"type": "play"})
        out["play_wall"] = time.time()
        assert wait_for_state(host, lambda st: st["transport"] == "playing" and st["position"] >= 25, 60)
        if os.environ.get("PROBE_NO_MOVE") is None:
            ann_page.execute_script(f"window.phoneMic.delay.delayTime.value = {moved_ms / 1000}")
        if os.environ.get("PROBE_NO_WAIT") is None:
            try:
                wait(ann_page, lambda d: "moved since" in d.find_element("id", "phone-mic-delay").text, timeout=30)
            except Exception as error:
                print("not followed:", str(error)[:200])
        finals = sing_song(server, host, already_playing=True)
        sampler.stop = True
        out["samples"] = sampler.samples
        out["probe"] = ann_page.execute_script("return window.probe")
        out["host_states"] = [(e.get("position"), [(s["singer"], s.get("phoneStatus"), s.get("effectiveMicDelayMs"))
                               for s in e["singers"]]) for e in host.events if e.get("type") == "state"]
        out["finals"] = {k: v["score"] for k, v in finals.items()}
        try:
            out["browser_log"] = ann_page.get_log("browser")
        except Exception as error:
            out["browser_log"] = str(error)
        host.close()
    finally:
        ann_page.quit()
        server.stop()
        out["server_log"] = server.output()
        out["load"] = os.getloadavg()
        path = os.environ.get("PROBE_OUT", "/tmp/stall-probe.json")
        with open(path, "w") as f:
            json.dump(out, f)
        print("probe written to", path, "load", out["load"])
