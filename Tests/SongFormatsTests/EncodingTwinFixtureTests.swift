import Foundation
import Testing
import SongFormats
import SongModel

/// Legacy 8-bit lyric files read as their UTF-8 twins: the fixtures in `Tests/Fixtures/encodings`
/// (written by `make-encoding-fixtures.py`), and short lines in the languages karaoke is sung in,
/// each saved in its language's code page (the measurement set of docs/song-formats.md).
@Suite struct EncodingTwinFixtureTests {
    static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/encodings")

    /// Every fixture that is not UTF-8, with the UTF-8 twin of the same stem and extension.
    static let legacyFixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.contains(".utf8.") && !$0.hasSuffix(".py") && !$0.hasSuffix(".md") }.sorted()
    }()

    @Test func theFixturesAreThere() {
        #expect(Self.legacyFixtures.count == 9, "\(Self.legacyFixtures)")
    }

    @Test(arguments: legacyFixtures)
    func legacyFixtureReadsLikeItsTwin(name: String) throws {
        let parts = name.split(separator: ".")
        let twin = "\(parts.first!).utf8.\(parts.last!)"
        let legacy = try SongFileReader.read(path: Self.folder.appendingPathComponent(name).path, mode: .strict)
        let utf8 = try SongFileReader.read(path: Self.folder.appendingPathComponent(twin).path, mode: .strict)
        #expect(legacy.metadata == utf8.metadata)
        #expect(legacy.parts == utf8.parts)
    }

    @Test func theIssuesExamplesReadAsWritten() throws {
        let es = try SongFileReader.read(path: Self.folder.appendingPathComponent("es.cp1252.lrc").path)
        #expect(es.parts[0].lines.map(\.text) == ["¿Qué soñaré mañana, corazón?", "¡Ay, niña! Bailaré contigo", "en el jardín de la montaña"])
        #expect(es.metadata.title == "Canción del año")
        let en = try SongFileReader.read(path: Self.folder.appendingPathComponent("en-quotes.cp1252.srt").path)
        #expect(en.parts[0].lines.map(\.text) == ["Rock ‘em, sock ‘em, don’t stop", "“Hold on,” she said… “hold on”"])
        #expect(en.parts[0].lines.map(\.start) == [1.0, 4.0])
        for wide in ["en-quotes.utf32le-bom.srt", "en-quotes.utf32be.srt", "en-quotes.utf16le.srt"] {
            let song = try SongFileReader.read(path: Self.folder.appendingPathComponent(wide).path)
            #expect(song.parts[0].lines.map(\.text) == en.parts[0].lines.map(\.text), "\(wide)")
        }
    }

    static let lines: [(SongTextEncoding, String)] = [
        (.cp1252, "¿Qué soñaré mañana, corazón?\n¡Ay, niña! La canción del año\nbailaré contigo en el jardín"),  // es
        (.cp1252, "¿Qué soñaré?"),  // es-short
        (.cp1252, "Não sei se a canção é só minha\ncoração, ação e razão"),  // pt
        (.cp1252, "Où es-tu, ma chère étoile?\nJe t’attendrai à côté du cœur\nl’été est déjà là"),  // fr
        (.cp1252, "Über den Wolken muß die Freiheit grenzenlos sein\nGrüße an die Mädchen, schöne Tränen"),  // de
        (.cp1252, "„Komm zurück“, sagte sie, „ich höre dich“"),  // de-quotes
        (.cp1252, "Perché la città è così bella\nperò non c’è più tempo"),  // it
        (.cp1252, "Rock ‘em, sock ‘em, don’t stop\n“Hold on” – she said…"),  // en-quotes
        (.cp1252, "Give ‘em all you got"),  // en-em
        (.cp1252, "Där björkarna står och vår sång är så skön\nhän över ängarna"),  // sv
        (.cp1252, "Jeg kører ud på den blå sø\nhjertet brænder, æbletræet står"),  // da
        (.cp1252, "Þú ert ástin mín, ég syng þér lag\nfögur er hlíðin"),  // is
        (.cp1252, "Één dag, geën zorgen, ruïne en café"),  // nl
        (.cp1252, "Què faràs avui, amor meu?\nla cançó és teva"),  // ca
        (.cp1250, "Zażółć gęślą jaźń\nCo się stało, kochanie, że już nie śpiewasz?\nŻegnaj, moja miła"),  // pl
        (.cp1250, "Łzy na policzkach"),  // pl-short
        (.cp1250, "Příliš žluťoučký kůň úpěl ďábelské ódy\nMá píseň je tvoje, srdce bije"),  // cs
        (.cp1250, "Já tě mám rád"),  // cs-short
        (.cp1250, "Ľúbim ťa, moja pieseň znie ďaleko\nčas beží"),  // sk
        (.cp1250, "Árvíztűrő tükörfúrógép\nszeretlek, őszi dal"),  // hu
        (.cp1250, "Čežnja, ljubav i pjesma\nšto će biti sutra, đače"),  // hr
        (.cp1250, "Îmi pare rău, iubirea mea\nţara mea şi cântecul"),  // ro
        (.cp1250, "Še en dan, ljubezen moja, čaka"),  // sl
        (.cp1251, "Я люблю тебя, моя звезда\nНочь и песня над рекой"),  // ru
        (.koi8R, "Я люблю тебя, моя звезда\nНочь и песня над рекой"),  // ru-koi8
        (.cp1251, "Ніч яка місячна, зоряна, ясная\nЇхав козак"),  // uk
        (.cp1251, "Обичам те, моя песен"),  // bg
        (.cp865, "Smørøyet klær på brygga\nvi ser på havet"),  // no-dos
        (.cp437, "Grüße an die Mädchen, schöne Tränen"),  // de-dos
        (.cp1252, "El niño y la montaña\nsueño contigo"),  // es2
        (.cp1252, "¡Olé!"),  // es3
        (.cp1252, "Straße der Sehnsucht\nheiß"),  // de2
        (.cp1252, "Irmãos e corações\nsão nossos"),  // pt2
        (.cp1250, "Jeszcze Polska nie zginęła\nkiedy my żyjemy"),  // pl2
        (.cp1250, "Deşteaptă-te, române"),  // ro2
        (.cp1252, "Così è la vita"),  // it2
        (.cp1252, "She said “stay” and I stayed"),  // en2
        (.cp1252, "Rock’n’roll ain’t noise pollution"),  // en3
        (.cp1252, "« Mon cœur, ma sœur » chante là-bas"),  // fr2
        (.cp1252, "Vi går över ån"),  // sv2
        (.cp1251, "Привет, друг"),  // ru2
        (.koi8R, "Привет, друг"),  // ru3
        (.cp1251, "Ще не вмерла України"),  // uk2
        (.cp1250, "Szép vagy, gyönyörű vagy"),  // hu2
        (.cp865, "Ja, vi elsker dette landet\nsom det stiger frem, furet, værbitt"),  // no2
        (.cp437, "Schöne Grüße"),  // de3
    ]

    @Test(arguments: lines.indices)
    func aLineInItsCodePageReadsAsWritten(index: Int) throws {
        let (encoding, text) = Self.lines[index]
        let bytes = try #require(IconvConverter.encode(text, to: encoding.iconvName))
        #expect(SongTextDecoder.decode(bytes).text == text, "\(encoding)")
    }

    @Test func utf32MarksAndUnmarked() {
        #expect(SongTextDecoder.decode([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0]).encoding == .utf32LE)
        #expect(SongTextDecoder.decode([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41]).text == "A")
        #expect(SongTextDecoder.decode([0x41, 0, 0, 0, 0xE9, 0, 0, 0]).text == "Aé")
        #expect(SongTextDecoder.decode([0xFF, 0xFE, 0x41, 0]).encoding == .utf16LE)
        #expect(SongTextEncoding(label: "UTF-32") == .utf32LE)
    }
}
