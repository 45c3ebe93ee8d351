#!/usr/bin/env python3
"""Writes soft-karaoke.kar and banner-lyrics.mid (python3 stdlib only; run from this folder).

soft-karaoke.kar is laid out as Soft Karaoke files are: a conductor track, a track named
"Words" with the @ tags, %-codes and the words as text events (FF 01) with \\ and / marks,
a second copy of the words as lyric events (FF 05) without marks (what other players read),
and the melody. banner-lyrics.mid has lyric events only, the first line a tool's banner.
120 BPM, 480 ticks a quarter: one quarter = 0.5 s.
"""

def vlq(v):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.insert(0, (v & 0x7F) | 0x80)
        v >>= 7
    return bytes(out)

def meta(kind, data):
    data = data.encode("latin-1") if isinstance(data, str) else data
    return bytes([0xFF, kind]) + vlq(len(data)) + data

def track(events):
    data, now = b"", 0
    for tick, event in sorted(events, key=lambda e: e[0]):
        data += vlq(tick - now) + event
        now = tick
    data += b"\x00\xFF\x2F\x00"
    return b"MTrk" + len(data).to_bytes(4, "big") + data

def midi(tracks):
    return b"MThd" + (6).to_bytes(4, "big") + (1).to_bytes(2, "big") + len(tracks).to_bytes(2, "big") \
        + (480).to_bytes(2, "big") + b"".join(track(t) for t in tracks)

Q = 480
# (quarter, length in quarters, MIDI key, text event with its mark)
SUNG = [(4, 1, 60, "\\Fold "), (5, 1, 62, "the "), (6, 0.5, 64, "pa"), (6.5, 1.5, 62, "per"),
        (8, 1, 60, "/Set "), (9, 1, 59, "it "), (10, 0.5, 57, "sail"), (10.5, 1.5, 55, "ing"),
        (12, 1, 60, "\\Round "), (13, 1, 64, "and "), (14, 2, 67, "round")]

conductor = [(0, meta(0x03, "Paper Boats")), (0, bytes([0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]))]  # 500000 us
words = [(0, meta(0x03, "Words"))] + [(0, meta(0x01, t)) for t in
         ["@KMIDI KARAOKE FILE", "@V0100", "@IMade for the karaoke tests", "@LENGL",
          "@TPaper Boats", "@TKaraoke Test Band", "%-"]]
words += [(int(q * Q), meta(0x01, text)) for q, _, _, text in SUNG]
words += [(int(7 * Q), meta(0x01, "%+"))]  # a code between the lines: not a word
lyric_copy = [(0, meta(0x03, "Lyrics"))] + [(int(q * Q), meta(0x05, text.lstrip("\\/"))) for q, _, _, text in SUNG]
melody = [(0, meta(0x03, "Melody")), (0, bytes([0xC0, 52]))]
for q, length, key, _ in SUNG:
    melody += [(int(q * Q), bytes([0x90, key, 96])), (int((q + length) * Q) - 1, bytes([0x80, key, 0]))]
open("soft-karaoke.kar", "wb").write(midi([conductor, words, lyric_copy, melody]))

banner = [(0, meta(0x05, "Created with KarMaker 2.1 (unregistered version)\r"))]
banner += [(int(q * Q), meta(0x05, text.lstrip("\\/") + ("\r" if i + 1 < len(SUNG) and SUNG[i + 1][3][0] in "\\/" else "")))
           for i, (q, _, _, text) in enumerate(SUNG)]
open("banner-lyrics.mid", "wb").write(midi([conductor + banner, melody]))
