"""A phone page that closes frees its seat at once; a dropped connection holds it (issue 40).

Before, every phone that left held its seat for the 60 s resume window, so eight phones leaving
blocked all eight seats for a minute. A real phone page (headless Chromium, a fake microphone)
takes a seat and then navigates away: the seat is free long before the window ends, and the log
says the page was closed. A phone whose connection drops (no close frame) keeps its seat.
Run under the private PulseAudio (`. scripts/lib/pulse-test-env.sh; pa_test_start`).
"""
import re
import time

import pytest

from conftest import Server, wait
from test_phone_mic import chromium, start_phone
from test_security import Client
from test_store_faults import Host, fault_song  # noqa: F401


def phone_seats(host):
    """The phone seats in the room's latest state, by name."""
    states = [e for e in host.events if e.get("type") == "state"]
    singers = states[-1].get("singers", []) if states else []
    return {s["name"]: s for s in singers if s.get("source") == "phone"}


def test_a_closed_phone_page_frees_its_seat_and_a_dropped_one_holds_it(fault_song, tmp_path):
    server = Server(fault_song, options=["--song", "fault", "--no-mic", "--scores", str(tmp_path / "scores")]).start()
    page = host = None
    try:
        host = Host(server)
        # A phone whose network goes: a seat, then the socket ends without a close frame.
        dropped = Client(server.port, timeout=10)
        dropped.wait_for("hello")
        dropped.send({"type": "phoneMic", "name": "Dropped"})
        assert dropped.wait_for("phoneMicSeat", timeout=10)
        dropped.close()

        page = chromium(None, fake_file=None)
        page.get("about:blank")
        start_phone(page, server, "Ann")
        deadline = time.time() + 20
        while time.time() < deadline and "Ann" not in phone_seats(host):
            time.sleep(0.1)
        assert "Ann" in phone_seats(host), f"the page took no seat: {phone_seats(host)}"

        page.get("about:blank")  # the page goes away (as closing the tab does)
        closed = time.time()
        while time.time() < closed + 20 and "Ann" in phone_seats(host):
            time.sleep(0.1)
        freed_after = time.time() - closed
        log = server.output()
        print(f"\nthe closed page's seat was free after {freed_after:.1f} s; log:",
              "".join(line for line in log.splitlines(True) if "seat" in line))
        assert "Ann" not in phone_seats(host), "the closed page still holds its seat"
        assert re.search(r"phone singer Ann gave up seat \d+ \((released|the page was closed)\)", log), log
        assert "Dropped" in phone_seats(host), "a dropped connection's seat is held for it to come back"
        assert "phone singer Dropped gave up" not in log
    finally:
        if page:
            page.quit()
        if host:
            host.stop()
        server.stop()
