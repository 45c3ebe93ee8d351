import Foundation

/// What a phone microphone page sends besides the ordinary commands (JSON text frames; the
/// audio itself travels as binary `PhoneAudioFrame`s):
///
/// - `{"type":"phoneMic","name":"Ann","part":0,"difficulty":"hard","resume":"<token>"}` takes a phone singer seat
///   (`difficulty` optional: the seat's own, else the room's)
///   (or takes back the one `resume` names after a reconnect); answered by `phoneMicSeat`.
/// - `{"type":"phoneMicRelease"}` gives the seat up.
/// - `{"type":"phoneClock","t0":12.345}` a clock-sync ping, `t0` the page's steady clock
///   (`performance.now()`, seconds); answered by `phoneClock` with the server's receive time `t1` (host seconds).
/// - `{"type":"phoneClockOffset","offset":…,"rtt":…}` the offset (host − phone audio clock,
///   seconds) the page settled on from its best pings, and that ping's round trip.
/// - `{"type":"phoneMicCalibrate"}` plays the click sequence on the room's speakers and
///   measures this phone's delay (answered by `phoneMicCalibrated`).
public struct PhoneMicCommand: Decodable, Sendable, Equatable {
    public var type: String
    public var name: String?
    public var part: Int?
    public var resume: String?
    public var t0: Double?
    public var offset: Double?
    public var rtt: Double?
    /// `phoneMic` only: the seat's own difficulty ("easy", "medium", "hard"); absent = the room's.
    public var difficulty: String?

    /// The command types this message family uses.
    public static let types: Set<String> = ["phoneMic", "phoneMicRelease", "phoneClock", "phoneClockOffset", "phoneMicCalibrate"]

    /// Decodes `text` when it is one of `types`; nil for any other message (cheap for those).
    public static func decode(_ text: String) -> PhoneMicCommand? {
        guard text.utf8.count <= 1024, text.contains("\"phone") else { return nil }
        guard let command = try? JSONDecoder().decode(PhoneMicCommand.self, from: Data(text.utf8)),
              types.contains(command.type) else { return nil }
        return command
    }
}

/// What the server sends a phone microphone page (`{"v":1,"type":…,"t":…, fields}`).
public enum PhoneMicEvent: Sendable, Equatable {
    /// The seat is taken: audio frames carry `slot` as their seat byte; `token` takes it back
    /// after a reconnect; `singer` is the room's singer index (state.singers).
    case seat(slot: Int, singer: Int, name: String, part: Int, token: String, sampleRate: Int, difficulty: String? = nil)
    /// The ping's `t0` echoed with the server's receive time (host seconds).
    case clock(t0: Double, t1: Double)
    /// A calibration finished: the measured delay in milliseconds, or the problem.
    case calibrated(delayMs: Double?, error: String?)
    /// The room re-runs this phone's calibration by itself (its timing moved `movedMs` since the
    /// last one); `calibrated` follows.
    case recalibrating(movedMs: Double)
    /// The seat was released (by the page, the song's end, or a resume that came too late).
    case released(reason: String)

    public func encoded(sentAt unixMilliseconds: Double = Date().timeIntervalSince1970 * 1000) -> [UInt8] {
        var object: [String: Any] = ["v": ProtocolVersion.current, "t": unixMilliseconds.rounded()]
        switch self {
        case .seat(let slot, let singer, let name, let part, let token, let sampleRate, let difficulty):
            object.merge(["type": "phoneMicSeat", "slot": slot, "singer": singer, "name": name, "part": part,
                          "token": token, "sampleRate": sampleRate]) { $1 }
            if let difficulty { object["difficulty"] = difficulty }
        case .clock(let t0, let t1):
            object.merge(["type": "phoneClock", "t0": t0, "t1": t1]) { $1 }
        case .calibrated(let delayMs, let error):
            object["type"] = "phoneMicCalibrated"
            if let delayMs { object["delayMs"] = delayMs }
            if let error { object["error"] = error }
        case .recalibrating(let movedMs):
            object.merge(["type": "phoneMicRecalibrating", "movedMs": movedMs]) { $1 }
        case .released(let reason):
            object.merge(["type": "phoneMicReleased", "reason": reason]) { $1 }
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Array(data)
    }
}
