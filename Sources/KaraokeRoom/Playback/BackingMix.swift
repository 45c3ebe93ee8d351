import AudioFiles
import Foundation
import SongModel

/// Whether a song's backing track still holds the lead vocal — a full mix, as most UltraStar
/// songs ship their `#MP3` — so the room's vocal reduction should apply to it. An instrumental
/// stem plays as it is: cancelling its centre would only take out centred instruments.
enum BackingMix {
    /// File names of tracks made without the lead vocal (`backing.ogg`, `Song [Instrumental].mp3`).
    static let instrumentalWords = ["backing", "instrumental", "playback", "karaoke", "minus one", "no vocals", "novocals"]

    static func isFullMix(backingTrackPath path: String?, song: Song) -> Bool {
        guard let path else { return false }
        let name = (path as NSString).lastPathComponent
        // A MIDI song's backing is synthesised from the file (no recorded voice in it).
        if MIDISynthesizer.isMIDI(path: path) { return false }
        if let stem = song.metadata.instrumentalFile, (stem as NSString).lastPathComponent == name { return false }
        let lowered = (name as NSString).deletingPathExtension.lowercased()
        return !instrumentalWords.contains { lowered.contains($0) }
    }
}
