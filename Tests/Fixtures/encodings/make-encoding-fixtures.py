#!/usr/bin/env python3
"""Writes each legacy-encoded fixture and its UTF-8 twin from the same text (python3 stdlib;
run from this folder). The lines are written for the tests; each file is what an editor on a
Windows (or DOS) machine of that language saves."""

FILES = {
    # name: (encoding the legacy file is saved in, text)
    "es.lrc": ("cp1252", "[ti:Canción del año]\n[ar:Niños del Sol]\n[00:01.00]¿Qué soñaré mañana, corazón?\n"
               "[00:04.50]¡Ay, niña! Bailaré contigo\n[00:08.00]en el jardín de la montaña\n[00:11.50]\n"),
    "en-quotes.srt": ("cp1252", "1\r\n00:00:01,000 --> 00:00:03,500\r\nRock ‘em, sock ‘em, don’t stop\r\n\r\n"
                      "2\r\n00:00:04,000 --> 00:00:06,250\r\n“Hold on,” she said… “hold on”\r\n\r\n"),
    "pl.txt": ("cp1250", "#TITLE:Żegnaj, moja miła\n#ARTIST:Chór Łąki\n#MP3:a.ogg\n#BPM:120\n#GAP:1000\n"
               ": 0 4 0 Zażółć \n: 4 4 2 gęślą \n: 8 4 4 jaźń\n- 14\n: 16 4 0 Co \n: 20 4 2 się \n: 24 8 4 stało?\nE\n"),
    "cs.lrc": ("cp1250", "[ti:Píseň]\n[00:02.00]Já tě mám rád, srdce bije\n[00:05.00]Příliš žluťoučký kůň\n[00:08.00]\n"),
    "ru.lrc": ("cp1251", "[ti:Звезда]\n[00:01.00]Я люблю тебя, моя звезда\n[00:04.00]Ночь и песня над рекой\n[00:07.00]\n"),
    "de-encoding-tag.txt": ("cp1252", "#TITLE:Grüße\n#ARTIST:Mädchenchor\n#ENCODING:CP1252\n#MP3:a.ogg\n#BPM:100\n"
                            ": 0 4 0 Über \n: 4 4 2 den \n: 8 4 4 Wolken\nE\n"),
}
for name, (encoding, text) in FILES.items():
    stem, ext = name.rsplit(".", 1)
    open(f"{stem}.{encoding}.{ext}", "wb").write(text.encode(encoding))
    # The twin says what it is (an #ENCODING tag names the file's own encoding).
    open(f"{stem}.utf8.{ext}", "wb").write(text.replace(f"#ENCODING:{encoding.upper()}", "#ENCODING:UTF-8").encode("utf-8"))

# Wide encodings of the SRT, with and without byte-order marks.
srt = FILES["en-quotes.srt"][1]
open("en-quotes.utf32le-bom.srt", "wb").write(b"\xff\xfe\x00\x00" + srt.encode("utf-32-le"))
open("en-quotes.utf32be.srt", "wb").write(srt.encode("utf-32-be"))
open("en-quotes.utf16le.srt", "wb").write(srt.encode("utf-16-le"))
