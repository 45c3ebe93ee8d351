import Foundation
import Scoring

/// Everything a client may ask. On the wire: `{"type":"<case>", "id":<optional int>, ...arguments}`.
public enum ClientCommand: Sendable, Equatable {
    /// Ask for a role; `host` needs the room PIN or a host session `token` from an earlier `hello`.
    case hello(role: ClientRole, pin: String?, name: String?, token: String? = nil)
    case play
    case pause
    case stop
    case seek(position: Double)
    case seekLine(part: Int, line: Int)
    /// Absolute key shift in semitones (−12…12).
    case key(semitones: Int)
    /// Absolute tempo ratio (0.5…1.5).
    case tempo(ratio: Double)
    /// Loop between two media times, or nil to clear.
    case loop(LoopPayload?)
    case next
    case previous
    /// Queue a song; `playNow` (host only) loads it at once.
    case queueAdd(songId: String, requestedBy: String?, playNow: Bool)
    case queueRemove(itemId: Int)
    case queueMove(itemId: Int, to: Int)
    /// Empty the queue (host).
    case queueClear
    case selectSinger(singer: Int, part: Int, name: String?)
    case calibrate(singer: Int)
    case difficulty(Difficulty)
    /// One seat's own difficulty; nil = follow the room's `difficulty` again.
    case singerDifficulty(singer: Int, level: Difficulty?)
    case micDelay(singer: Int, milliseconds: Double)
    /// Hear yourself: switch monitoring of the singer's microphone source on or off.
    case monitor(singer: Int, on: Bool)
    /// One page of the song library (`library` event).
    case library(LibraryQuery = LibraryQuery())
    /// The library's artists, optionally those starting with one letter (`artists` event).
    case artists(letter: String?)
    /// Send this song's results and the leaderboard (`results` event).
    case results
    /// Seconds the room waits between a song's end and the next queued song (host).
    case pauseBetweenSongs(seconds: Double)
    /// Large print on every TV display: lyric and score text at `percent` (50–250) of normal (host).
    case displayScale(percent: Double)
    /// Vocal reduction of full-mix backing tracks (centre-channel cancellation, bass kept) (host).
    case vocalReduction(on: Bool)
    /// Which companion line the singer view and TV show under a lyric line that has one
    /// (a TTML translation or romanisation) (host).
    case lyricCompanions(LyricCompanionDisplay)
    /// Ends every other host session: their tokens stop working and their pages become guests
    /// (a phone that was lost, or a guest who watched the PIN being typed).
    case signOutOtherHosts

    public var type: String {
        switch self {
        case .hello: "hello"
        case .play: "play"
        case .pause: "pause"
        case .stop: "stop"
        case .seek: "seek"
        case .seekLine: "seekLine"
        case .key: "key"
        case .tempo: "tempo"
        case .loop: "loop"
        case .next: "next"
        case .previous: "previous"
        case .queueAdd: "queueAdd"
        case .queueRemove: "queueRemove"
        case .queueMove: "queueMove"
        case .queueClear: "queueClear"
        case .selectSinger: "selectSinger"
        case .calibrate: "calibrate"
        case .difficulty: "difficulty"
        case .singerDifficulty: "singerDifficulty"
        case .micDelay: "micDelay"
        case .monitor: "monitor"
        case .library: "library"
        case .artists: "artists"
        case .results: "results"
        case .pauseBetweenSongs: "pauseBetweenSongs"
        case .displayScale: "displayScale"
        case .vocalReduction: "vocalReduction"
        case .lyricCompanions: "lyricCompanions"
        case .signOutOtherHosts: "signOutOtherHosts"
        }
    }

    /// The least role allowed to send this command. `queueAdd` with `playNow` is host-only.
    public var requiredRole: ClientRole {
        switch self {
        case .hello, .library, .artists, .results: .display
        case .queueAdd(_, _, let playNow): playNow ? .host : .guest
        case .selectSinger: .guest
        default: .host
        }
    }
}

/// Why a client message was refused before reaching the room.
public enum CommandDecodingError: Error, Equatable, Sendable {
    case malformedJSON(String)
    case unknownCommand(String)
    case badArguments(command: String, detail: String)

    public var code: String {
        switch self {
        case .malformedJSON: "malformedJSON"
        case .unknownCommand: "unknownCommand"
        case .badArguments: "badArguments"
        }
    }

    public var message: String {
        switch self {
        case .malformedJSON(let detail): "not a JSON object with a string \"type\": \(detail)"
        case .unknownCommand(let type): "unknown command \"\(type)\""
        case .badArguments(let command, let detail): "bad arguments for \"\(command)\": \(detail)"
        }
    }
}

/// A decoded command with the client's optional correlation id.
public struct CommandEnvelope: Sendable, Equatable {
    public var id: Int?
    public var command: ClientCommand

    public init(id: Int? = nil, command: ClientCommand) {
        self.id = id
        self.command = command
    }

    /// Room singer numbers a command may name: the PulseAudio microphones first, then up to
    /// 8 phone seats after them (a phone seat is numbered after the microphones, so it can be 8+).
    public static let singerNumbers = 0...15

    /// Parses one client text frame.
    public static func decode(_ text: String) -> Result<CommandEnvelope, CommandDecodingError> {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                return .failure(.malformedJSON("top level is not an object"))
            }
            object = parsed
        } catch {
            return .failure(.malformedJSON("invalid JSON"))
        }
        guard let type = object["type"] as? String else { return .failure(.malformedJSON("missing \"type\"")) }
        let id = (object["id"] as? NSNumber)?.intValue
        let args = Arguments(command: type, object: object)
        do {
            let command: ClientCommand
            switch type {
            case "hello":
                guard let role = ClientRole(rawValue: try args.string("role")) else {
                    throw CommandDecodingError.badArguments(command: type, detail: "role must be display, guest or host")
                }
                command = .hello(role: role, pin: try args.optionalString("pin"), name: try args.optionalString("name"),
                                 token: try args.optionalString("token"))
            case "play": command = .play
            case "pause": command = .pause
            case "stop": command = .stop
            case "seek": command = .seek(position: try args.number("position", in: 0...86_400))
            case "seekLine": command = .seekLine(part: try args.int("part", default: 0), line: try args.int("line"))
            case "key": command = .key(semitones: try args.int("semitones", in: -12...12))
            case "tempo": command = .tempo(ratio: try args.number("ratio", in: 0.5...1.5))
            case "loop":
                if object["start"] == nil || object["start"] is NSNull {
                    command = .loop(nil)
                } else {
                    let start = try args.number("start", in: 0...86_400), end = try args.number("end", in: 0...86_400)
                    guard end - start >= 0.5 else {
                        throw CommandDecodingError.badArguments(command: type, detail: "end must be at least 0.5 s after start")
                    }
                    command = .loop(LoopPayload(start: start, end: end))
                }
            case "next": command = .next
            case "previous": command = .previous
            case "queueAdd":
                command = .queueAdd(songId: try args.string("songId"), requestedBy: try args.optionalString("requestedBy"),
                                    playNow: (object["playNow"] as? Bool) ?? false)
            case "queueRemove": command = .queueRemove(itemId: try args.int("itemId"))
            case "queueMove": command = .queueMove(itemId: try args.int("itemId"), to: try args.int("to"))
            case "queueClear": command = .queueClear
            case "signOutOtherHosts": command = .signOutOtherHosts
            case "selectSinger":
                command = .selectSinger(singer: try args.int("singer", in: Self.singerNumbers), part: try args.int("part", in: 0...7),
                                        name: try args.optionalString("name"))
            case "calibrate": command = .calibrate(singer: try args.int("singer", default: 0))
            case "difficulty":
                guard let level = Difficulty(rawValue: try args.string("level")) else {
                    throw CommandDecodingError.badArguments(command: type, detail: "level must be easy, medium or hard")
                }
                command = .difficulty(level)
            case "singerDifficulty":
                // "level": "easy" | "medium" | "hard", or null / "room" for the room's difficulty.
                let raw = try args.optionalString("level")
                let level = raw.flatMap { $0 == "room" ? nil : Difficulty(rawValue: $0) }
                guard raw == nil || raw == "room" || level != nil else {
                    throw CommandDecodingError.badArguments(command: type, detail: "level must be easy, medium, hard or room")
                }
                command = .singerDifficulty(singer: try args.int("singer", in: Self.singerNumbers), level: level)
            case "micDelay":
                command = .micDelay(singer: try args.int("singer", in: Self.singerNumbers), milliseconds: try args.number("ms", in: 0...1000))
            case "monitor":
                command = .monitor(singer: try args.int("singer", in: Self.singerNumbers), on: try args.bool("on"))
            case "library": command = .library(try Self.libraryQuery(args, object))
            case "artists": command = .artists(letter: try args.optionalString("letter"))
            case "results": command = .results
            case "pauseBetweenSongs": command = .pauseBetweenSongs(seconds: try args.number("seconds", in: 0...120))
            case "displayScale": command = .displayScale(percent: try args.number("percent", in: 50...250))
            case "vocalReduction": command = .vocalReduction(on: try args.bool("on"))
            case "lyricCompanions":
                guard let show = LyricCompanionDisplay(rawValue: try args.string("show")) else {
                    throw CommandDecodingError.badArguments(command: type, detail: "show must be off, translation or romanization")
                }
                command = .lyricCompanions(show)
            default: return .failure(.unknownCommand(type))
            }
            return .success(CommandEnvelope(id: id, command: command))
        } catch let error as CommandDecodingError {
            return .failure(error)
        } catch {
            return .failure(.badArguments(command: type, detail: "\(error)"))
        }
    }
}

extension CommandEnvelope {
    fileprivate static func libraryQuery(_ args: Arguments, _ object: [String: Any]) throws -> LibraryQuery {
        var query = LibraryQuery()
        query.text = try args.optionalString("query") ?? ""
        query.artist = try args.optionalString("artist")
        query.letter = try args.optionalString("letter")
        query.language = try args.optionalString("language")
        if object["duet"] != nil, !(object["duet"] is NSNull) { query.duet = try args.bool("duet") }
        if object["hasNotes"] != nil, !(object["hasNotes"] is NSNull) { query.hasNotes = try args.bool("hasNotes") }
        if let sort = try args.optionalString("sort") {
            guard let value = LibraryQuery.Sort(rawValue: sort) else {
                throw args.fail("sort must be one of " + LibraryQuery.Sort.allCases.map(\.rawValue).joined(separator: ", "))
            }
            query.sort = value
        }
        query.offset = try args.int("offset", in: 0...1_000_000, default: 0)
        query.limit = try args.int("limit", in: 1...LibraryQuery.maxLimit, default: 50)
        return query
    }
}

/// Typed access to a command's fields with range checks and clear messages.
fileprivate struct Arguments {
    let command: String
    let object: [String: Any]

    func fail(_ detail: String) -> CommandDecodingError { .badArguments(command: command, detail: detail) }

    func string(_ key: String) throws -> String {
        guard let value = object[key] as? String, !value.isEmpty, value.count <= 200 else {
            throw fail("\"\(key)\" must be a non-empty string")
        }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let value = raw as? String, value.count <= 200 else { throw fail("\"\(key)\" must be a string") }
        return value
    }

    /// A JSON `true` or `false` (not a number).
    func bool(_ key: String) throws -> Bool {
        // JSON booleans decode as NSNumbers of type "c" (char); 0 and 1 do not.
        guard let number = object[key] as? NSNumber, String(cString: number.objCType) == "c" else {
            throw fail("\"\(key)\" must be true or false")
        }
        return number.boolValue
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws -> Double {
        guard let number = object[key] as? NSNumber else { throw fail("\"\(key)\" must be a number") }
        let value = number.doubleValue
        guard value.isFinite, range.contains(value) else { throw fail("\"\(key)\" must be within \(range)") }
        return value
    }

    func int(_ key: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max), default fallback: Int? = nil) throws -> Int {
        if object[key] == nil, let fallback { return fallback }
        let value = try number(key, in: Double(range.lowerBound)...Double(range.upperBound))
        guard value == value.rounded() else { throw fail("\"\(key)\" must be an integer") }
        return Int(value)
    }
}
