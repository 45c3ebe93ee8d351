import Foundation

/// Everything the server pushes. On the wire: one JSON object per WebSocket text frame,
/// `{"v":1,"type":"<case>","t":<unix ms when sent>, ...payload fields}`.
public enum ServerEvent: Sendable, Equatable {
    case hello(HelloPayload)
    /// The room loaded another song (or none): the new timeline for every view.
    case song(SongChangePayload)
    case state(StatePayload)
    case line(LinePayloadEvent)
    case pitch(PitchPayload)
    case lineScore(LineScorePayload)
    case total(TotalPayload)
    case queue(QueuePayload)
    case device(DevicePayload)
    case error(ErrorPayload)
    case library(LibraryPayload)
    case artists(ArtistsPayload)
    /// To the client who asked: its `queueAdd` was taken (or folded into its earlier request).
    case queued(QueuedPayload)
    case results(ResultsPayload)
    /// To the host who sent `signOutOtherHosts`: how many other host sessions ended.
    case hostsSignedOut(HostsSignedOutPayload)

    public var type: String {
        switch self {
        case .hello: "hello"
        case .song: "song"
        case .state: "state"
        case .line: "line"
        case .pitch: "pitch"
        case .lineScore: "lineScore"
        case .total: "total"
        case .queue: "queue"
        case .device: "device"
        case .error: "error"
        case .library: "library"
        case .artists: "artists"
        case .queued: "queued"
        case .results: "results"
        case .hostsSignedOut: "hostsSignedOut"
        }
    }

    /// Live pitch frames are superseded by the next; everything else must arrive.
    public var isDroppable: Bool {
        if case .pitch = self { return true }
        return false
    }

    /// Encodes once; the bytes can be sent to any number of clients (the room wraps them in
    /// the transport's message).
    public func encoded(sentAt unixMilliseconds: Double = Date().timeIntervalSince1970 * 1000) -> [UInt8] {
        let envelope = ServerEventEnvelope(event: self, sentAt: unixMilliseconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Every payload is plain data; encoding cannot fail.
        let data = (try? encoder.encode(envelope)) ?? Data("{}".utf8)
        return Array(data)
    }
}

/// Wire form of a `ServerEvent`: envelope keys and payload keys share one object.
public struct ServerEventEnvelope: Codable, Sendable, Equatable {
    public var event: ServerEvent
    public var sentAt: Double

    enum Keys: String, CodingKey { case v, type, t }

    public init(event: ServerEvent, sentAt: Double) {
        self.event = event
        self.sentAt = sentAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(ProtocolVersion.current, forKey: .v)
        try container.encode(event.type, forKey: .type)
        try container.encode(sentAt.rounded(), forKey: .t)
        switch event {
        case .hello(let p): try p.encode(to: encoder)
        case .song(let p): try p.encode(to: encoder)
        case .state(let p): try p.encode(to: encoder)
        case .line(let p): try p.encode(to: encoder)
        case .pitch(let p): try p.encode(to: encoder)
        case .lineScore(let p): try p.encode(to: encoder)
        case .total(let p): try p.encode(to: encoder)
        case .queue(let p): try p.encode(to: encoder)
        case .device(let p): try p.encode(to: encoder)
        case .error(let p): try p.encode(to: encoder)
        case .library(let p): try p.encode(to: encoder)
        case .artists(let p): try p.encode(to: encoder)
        case .queued(let p): try p.encode(to: encoder)
        case .results(let p): try p.encode(to: encoder)
        case .hostsSignedOut(let p): try p.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        sentAt = try container.decode(Double.self, forKey: .t)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": event = .hello(try HelloPayload(from: decoder))
        case "song": event = .song(try SongChangePayload(from: decoder))
        case "state": event = .state(try StatePayload(from: decoder))
        case "line": event = .line(try LinePayloadEvent(from: decoder))
        case "pitch": event = .pitch(try PitchPayload(from: decoder))
        case "lineScore": event = .lineScore(try LineScorePayload(from: decoder))
        case "total": event = .total(try TotalPayload(from: decoder))
        case "queue": event = .queue(try QueuePayload(from: decoder))
        case "device": event = .device(try DevicePayload(from: decoder))
        case "error": event = .error(try ErrorPayload(from: decoder))
        case "library": event = .library(try LibraryPayload(from: decoder))
        case "artists": event = .artists(try ArtistsPayload(from: decoder))
        case "queued": event = .queued(try QueuedPayload(from: decoder))
        case "results": event = .results(try ResultsPayload(from: decoder))
        case "hostsSignedOut": event = .hostsSignedOut(try HostsSignedOutPayload(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event \(type)")
        }
    }
}
