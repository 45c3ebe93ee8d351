/// One binary WebSocket frame of a phone microphone (protocol version 1, little-endian):
///
/// | bytes | field |
/// |---|---|
/// | 0–1 | magic `K` `M` |
/// | 2 | version (1) |
/// | 3 | seat: the phone slot the server granted (`phoneMicSeat.slot`) |
/// | 4–11 | sample index of the first sample (UInt64), counted on the phone's audio clock |
/// | 12–15 | sample rate (UInt32): 24000 |
/// | 16… | mono 16-bit PCM samples, 1…`maxSamples` of them |
///
/// Anything else is malformed: the sender is closed (it is not a browser running our page).
public struct PhoneAudioFrame: Sendable, Equatable {
    public static let headerBytes = 16
    public static let version: UInt8 = 1
    /// The one rate version 1 carries: the detector decimates 24 kHz by 2 to the same 12 kHz
    /// analysis rate as a 48 kHz PulseAudio microphone.
    public static let sampleRate: UInt32 = 24_000
    /// 40 ms at 24 kHz: pages send 10–20 ms; a little slack for a late worklet.
    public static let maxSamples = 960
    public static let maxBytes = headerBytes + 2 * maxSamples

    public var seat: Int
    public var sampleIndex: UInt64
    public var sampleRate: UInt32
    public var sampleCount: Int

    public init(seat: Int, sampleIndex: UInt64, sampleRate: UInt32, sampleCount: Int) {
        self.seat = seat
        self.sampleIndex = sampleIndex
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
    }

    /// Reads and checks the header of `bytes`; the samples follow at `headerBytes`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(PhoneAudioFrameError) -> PhoneAudioFrame {
        guard bytes.count >= headerBytes + 2 else { throw .tooShort(bytes.count) }
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes.count) }
        guard bytes[0] == 0x4B, bytes[1] == 0x4D else { throw .badMagic }
        guard bytes[2] == version else { throw .unsupportedVersion(bytes[2]) }
        guard (bytes.count - headerBytes) % 2 == 0 else { throw .oddPayload }
        let index = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
        let rate = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        guard rate == sampleRate else { throw .unsupportedRate(rate) }
        // 2^53 samples is 11 900 years at 24 kHz: anything above is not a phone's audio clock.
        guard index < 1 << 53 else { throw .badSampleIndex }
        return PhoneAudioFrame(seat: Int(bytes[3]), sampleIndex: index, sampleRate: rate, sampleCount: (bytes.count - headerBytes) / 2)
    }

    /// Builds a frame (tests, benchmarks).
    public static func encode(seat: Int, sampleIndex: UInt64, samples: [Int16], sampleRate: UInt32 = sampleRate) -> [UInt8] {
        var out: [UInt8] = [0x4B, 0x4D, version, UInt8(truncatingIfNeeded: seat)]
        withUnsafeBytes(of: sampleIndex.littleEndian) { out += $0 }
        withUnsafeBytes(of: sampleRate.littleEndian) { out += $0 }
        for s in samples { withUnsafeBytes(of: s.littleEndian) { out += $0 } }
        return out
    }
}

public enum PhoneAudioFrameError: Error, Equatable, CustomStringConvertible {
    case tooShort(Int)
    case tooLarge(Int)
    case badMagic
    case unsupportedVersion(UInt8)
    case oddPayload
    case unsupportedRate(UInt32)
    case badSampleIndex
    case wrongSeat(sent: Int, granted: Int)

    public var description: String {
        switch self {
        case .tooShort(let n): "audio frame of \(n) bytes is shorter than its header and one sample"
        case .tooLarge(let n): "audio frame of \(n) bytes is larger than \(PhoneAudioFrame.maxBytes)"
        case .badMagic: "audio frame does not start with \"KM\""
        case .unsupportedVersion(let v): "audio frame version \(v) is not supported (1 is)"
        case .oddPayload: "audio frame payload is not whole 16-bit samples"
        case .unsupportedRate(let r): "audio frame sample rate \(r) Hz is not supported (\(PhoneAudioFrame.sampleRate) is)"
        case .badSampleIndex: "audio frame sample index is out of range"
        case .wrongSeat(let sent, let granted): "audio frame for seat \(sent) from the client holding seat \(granted)"
        }
    }
}
