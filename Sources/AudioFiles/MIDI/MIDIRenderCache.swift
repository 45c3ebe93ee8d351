import Foundation
import Synchronization

/// The last few MIDI backings rendered, so playing a MIDI song again (replay, "previous", the
/// queue bringing it back) does not synthesise it again. Keyed by file, its size and
/// modification time, soundfont and rate: an edited file is rendered anew.
public final class MIDIRenderCache: Sendable {
    public static let shared = MIDIRenderCache()

    /// Rendered songs kept (a 4-minute song at 48 kHz stereo is ≈ 90 MB).
    public let capacity: Int
    private struct Key: Hashable { var path: String; var size: Int; var modified: Double; var soundFont: String; var rate: Double }
    private let entries = Mutex<[(key: Key, audio: AudioBuffer)]>([])

    public init(capacity: Int = 2) { self.capacity = capacity }

    /// The rendering of `path` at `sampleRate`, from the cache or rendered now (on the caller's thread).
    public func audio(path: String, sampleRate: Double, soundFont: String? = SoundFontLocator.find(),
                      isCancelled: () -> Bool = { false }) throws(MIDISynthesizer.RenderError) -> AudioBuffer {
        guard let soundFont else { throw .noSoundFont }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let key = Key(path: path, size: (attributes?[.size] as? Int) ?? -1,
                      modified: (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0,
                      soundFont: soundFont, rate: sampleRate)
        if let hit = entries.withLock({ list in list.first { $0.key == key }?.audio }) { return hit }
        let audio = try MIDISynthesizer.render(path: path, sampleRate: sampleRate, soundFont: soundFont, isCancelled: isCancelled)
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, audio))
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
        return audio
    }

    /// Whether `path` at `sampleRate` is held (tests).
    public func holds(path: String, sampleRate: Double) -> Bool {
        entries.withLock { list in list.contains { $0.key.path == path && $0.key.rate == sampleRate } }
    }
}
