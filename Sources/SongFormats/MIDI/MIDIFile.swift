/// A Standard MIDI File as far as karaoke needs it: per track, the note and meta events with
/// their absolute tick. Our own small reader: Debian's libsmf would do the same, but its last
/// release is from 2010 and its header pulls glib into the Swift importer for ~150 lines.
struct MIDIFile {
    enum Event: Equatable {
        case noteOn(channel: Int, key: Int, velocity: Int)
        case noteOff(channel: Int, key: Int)
        case meta(type: UInt8, data: [UInt8])
    }

    struct Timed: Equatable {
        var tick: Int
        var event: Event
    }

    var format: Int
    /// Ticks per quarter note, or for SMPTE timing (negative in the file) ticks per second.
    var ticksPerQuarter: Int?
    var ticksPerSecond: Double?
    var tracks: [[Timed]]
    /// Set when a track ended early; the events before the damage are kept.
    var damage: String?

    enum ParseError: Error { case notMIDI(String) }

    init(bytes: [UInt8]) throws(ParseError) {
        var reader = ByteReader(bytes: bytes)
        guard reader.tag() == "MThd", let length = reader.u32(), length >= 6,
              let format = reader.u16(), let count = reader.u16(), let division = reader.u16() else {
            throw .notMIDI("not a Standard MIDI File (no 'MThd' header)")
        }
        reader.skip(Int(length) - 6)
        self.format = Int(format)
        if division & 0x8000 != 0 {
            let fps = -Int(Int8(bitPattern: UInt8(division >> 8)))
            let perFrame = Int(division & 0xFF)
            guard fps > 0, perFrame > 0 else { throw .notMIDI("SMPTE division \(fps) fps × \(perFrame) is not usable") }
            ticksPerSecond = Double(fps == 29 ? 29.97 : Double(fps)) * Double(perFrame)
        } else {
            guard division > 0 else { throw .notMIDI("division (ticks per quarter note) is 0") }
            ticksPerQuarter = Int(division)
        }
        tracks = []
        while tracks.count < Int(count), let tag = reader.tag(), let length = reader.u32() {
            let available = min(Int(length), reader.remaining)
            let chunk = reader.take(available)
            if tag != "MTrk" { continue }  // unknown chunks are skipped, as the spec says
            var events: [Timed] = []
            if let problem = Self.parseTrack(chunk, into: &events) {
                damage = damage ?? "track \(tracks.count + 1): \(problem)"
            } else if available < Int(length) {
                damage = damage ?? "track \(tracks.count + 1) is cut off (\(available) of \(length) bytes)"
            }
            tracks.append(events)
        }
        if tracks.count < Int(count), damage == nil {
            damage = "the header announces \(count) tracks, the file holds \(tracks.count)"
        }
    }

    /// Reads one track's events; returns what went wrong if the data ends mid-event.
    private static func parseTrack(_ data: ArraySlice<UInt8>, into events: inout [Timed]) -> String? {
        var reader = ByteReader(bytes: Array(data))
        var tick = 0
        var running: UInt8?
        while reader.remaining > 0 {
            guard let delta = reader.variableLength() else { return "a delta time is cut off" }
            tick += delta
            guard let first = reader.u8() else { return "an event is cut off" }
            var status = first
            var firstData: UInt8?
            if first < 0x80 {
                guard let r = running else { return "a data byte without a status byte at tick \(tick)" }
                status = r
                firstData = first
            }
            switch status {
            case 0xFF:
                guard let type = reader.u8(), let length = reader.variableLength(), length <= reader.remaining else {
                    return "a meta event is cut off"
                }
                events.append(Timed(tick: tick, event: .meta(type: type, data: Array(reader.take(length)))))
                if type == 0x2F { return nil }  // end of track
            case 0xF0, 0xF7:
                guard let length = reader.variableLength(), length <= reader.remaining else { return "a SysEx event is cut off" }
                reader.skip(length)
                running = nil
            case 0x80...0xEF:
                running = status
                let dataCount = (0xC0...0xDF).contains(status) ? 1 : 2
                var values: [Int] = []
                if let firstData { values.append(Int(firstData)) }
                while values.count < dataCount {
                    guard let b = reader.u8() else { return "a channel event is cut off" }
                    values.append(Int(b & 0x7F))
                }
                let channel = Int(status & 0x0F)
                switch status & 0xF0 {
                case 0x90 where values[1] > 0: events.append(Timed(tick: tick, event: .noteOn(channel: channel, key: values[0], velocity: values[1])))
                case 0x90, 0x80: events.append(Timed(tick: tick, event: .noteOff(channel: channel, key: values[0])))
                default: break
                }
            default:
                return "unknown status byte 0x\(String(status, radix: 16)) at tick \(tick)"
            }
        }
        return nil
    }
}

/// Big-endian reads off a byte array that never trap: nil when the data ends.
struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var remaining: Int { bytes.count - position }

    mutating func u8() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16? {
        guard let a = u8(), let b = u8() else { return nil }
        return UInt16(a) << 8 | UInt16(b)
    }

    mutating func u32() -> UInt32? {
        guard let a = u16(), let b = u16() else { return nil }
        return UInt32(a) << 16 | UInt32(b)
    }

    mutating func tag() -> String? {
        guard remaining >= 4 else { return nil }
        return String(decoding: take(4), as: UTF8.self)
    }

    /// A MIDI variable-length quantity: at most 4 bytes, 28 bits.
    mutating func variableLength() -> Int? {
        var value = 0
        for _ in 0..<4 {
            guard let b = u8() else { return nil }
            value = value << 7 | Int(b & 0x7F)
            if b & 0x80 == 0 { return value }
        }
        return nil
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let n = max(0, min(count, remaining))
        defer { position += n }
        return bytes[position..<(position + n)]
    }

    mutating func skip(_ count: Int) { position += max(0, min(count, remaining)) }
}
