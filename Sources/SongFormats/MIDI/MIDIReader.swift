import Foundation
import SongModel

/// Reads Standard MIDI Files and `.kar` karaoke files: the lyrics with their timing, and the
/// melody they are sung to as reference notes, so a MIDI song can be scored. Lines break
/// where the file marks them (`\`, `/`, CR/LF); a file that marks none breaks at pauses of
/// 2 s and before lines grow past 40 characters. Times follow every tempo change; the beat
/// grid (`BeatClock`) is a sixteenth note of the first tempo, so notes on a grid of a later
/// tempo round to the nearest sixteenth of the first.
public enum MIDIReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        let file: MIDIFile
        do { file = try MIDIFile(bytes: bytes) } catch { 
            switch error { case .notMIDI(let message): throw SongFileError(path: path, line: nil, message: message) }
        }
        if let damage = file.damage {
            try assumptions.assume(line: nil, problem: "damaged MIDI file: \(damage)", assumption: "the events before the damage are read")
        }
        let tempo = MIDITempoMap(file: file)
        let lyrics = MIDILyrics(file: file)
        guard !lyrics.pieces.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "no lyrics: the file has neither lyric (FF 05) nor text (FF 01) events with words")
        }
        // Onsets within a 32nd note of a syllable belong to it.
        let tolerance = max(1, (file.ticksPerQuarter ?? 480) / 8)
        let melody = MIDIMelody(file: file, syllableTicks: lyrics.pieces.map(\.tick), tolerance: tolerance)
        let useMelody = melody.matchedSyllables * 2 >= lyrics.pieces.count
        if !useMelody {
            try assumptions.assume(
                line: nil,
                problem: "no melody track matches the lyrics (best: \(melody.name.isEmpty ? "none" : melody.name), \(melody.matchedSyllables) of \(lyrics.pieces.count) syllables)",
                assumption: "read as lyrics without notes")
        }
        let clock = BeatClock(bpm: tempo.initialBPM, gapSeconds: 0)
        func beat(_ tick: Int) -> Int {
            // A damaged file can hold absurd ticks; keep the conversion to Int in range.
            Int(min(1e9, clock.beat(atSeconds: tempo.seconds(atTick: tick))).rounded())
        }

        var lines: [LyricLine] = []
        var current: [Syllable] = []
        var melodyIndex = 0
        let notes = useMelody ? melody.notes : []
        func closeLine(at end: Double) {
            guard !current.isEmpty else { return }
            while current[0].text.first == " " { current[0].text.removeFirst() }
            while current[current.count - 1].text.last == " " { current[current.count - 1].text.removeLast() }
            lines.append(LyricLine(start: current[0].start, end: max(end, current.map(\.end).max()!), syllables: current))
            current = []
        }
        for (i, piece) in lyrics.pieces.enumerated() {
            let start = tempo.seconds(atTick: piece.tick)
            let nextTick = i + 1 < lyrics.pieces.count ? lyrics.pieces[i + 1].tick : Int.max
            let lineText = current.map(\.text).joined()
            let pause = current.last.map { start - $0.end >= 2 } ?? false
            let tooLong = lineText.count + piece.text.count > 40 && (piece.text.first == " " || lineText.last == " ")
            let markedLines = lyrics.pieces.dropFirst().contains { $0.breakBefore }
            if piece.breakBefore || (!markedLines && (pause || tooLong)) { closeLine(at: current.last?.end ?? start) }
            // The notes of this syllable: from its onset to the next syllable's.
            var own: [MIDIMelody.Played] = []
            while melodyIndex < notes.count, notes[melodyIndex].startTick < piece.tick - tolerance { melodyIndex += 1 }
            while melodyIndex < notes.count, notes[melodyIndex].startTick < (nextTick == Int.max ? Int.max : nextTick - tolerance) {
                own.append(notes[melodyIndex]); melodyIndex += 1
            }
            let nextStart = nextTick == Int.max ? start + 1 : tempo.seconds(atTick: nextTick)
            if own.isEmpty {
                current.append(Syllable(text: piece.text, start: start, end: max(start, min(nextStart, start + 2))))
                continue
            }
            for (k, played) in own.enumerated() {
                let note = Note(kind: .normal, startBeat: beat(played.startTick),
                                lengthBeats: max(1, beat(played.endTick) - beat(played.startTick)), pitch: played.key - 60)
                let s = k == 0 ? start : tempo.seconds(atTick: played.startTick)
                // Held over several notes (a melisma): the extra notes carry no text.
                current.append(Syllable(text: k == 0 ? piece.text : "", start: s,
                                        end: max(s, tempo.seconds(atTick: played.endTick)), note: note))
            }
        }
        closeLine(at: current.last?.end ?? 0)

        var metadata = SongMetadata()
        let trackName: String? = file.tracks.first?.compactMap { timed -> String? in
            if case .meta(0x03, let data) = timed.event { return SongTextDecoder.decode(data).text.trimmingCharacters(in: .whitespaces) }
            return nil
        }.first { !$0.isEmpty }
        let name = (path as NSString).lastPathComponent
        metadata.title = lyrics.title ?? trackName ?? (name as NSString).deletingPathExtension
        metadata.artist = lyrics.artist ?? ""
        metadata.language = lyrics.language
        if !lyrics.info.isEmpty { metadata.otherTags["INFO"] = lyrics.info.joined(separator: " / ") }
        if let banner = lyrics.banner { metadata.otherTags["BANNER"] = banner }
        metadata.otherTags["MIDI_LYRICS"] = lyrics.source
        if useMelody { metadata.otherTags["MIDI_MELODY"] = melody.name }
        return Song(metadata: metadata, parts: [VoicePart(name: "Solo", lines: lines)],
                    beatClock: useMelody ? clock : nil, source: SongSource(path: path, format: .midi),
                    warnings: assumptions.all)
    }
}
