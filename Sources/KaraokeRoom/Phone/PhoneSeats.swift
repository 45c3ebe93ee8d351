import AudioEngine
import Dispatch
import EventServer
import Foundation
import RoomProtocol
import Scoring

/// The room's phone singer seats (up to `maxPhones`): who holds which, the audio gate that lets
/// only seat holders send audio frames, clock sync and calibration requests. It sits in front
/// of the room's connection handler: the phone messages (`PhoneMicCommand`) stop here, every
/// other message goes on to the room unchanged.
///
/// Phone slot k is room singer `firstSinger + k` (after the PulseAudio microphones). A seat
/// survives its holder's dropped connection for `resumeWindow` seconds: the page reconnects and
/// sends its `token` to take it back (a network blip loses no seat). A page that closes says so
/// (`phoneMicRelease`, or its close frame's status 1001) and frees its seat at once. Seat state
/// lives on `queue`; clock pings are answered on the service thread at once (their receive time
/// is the point).
public final class PhoneSeats: EventServerDelegate, @unchecked Sendable {
    public static let maxPhones = 8
    /// Seats one address may hold (phones are on the LAN, each its own address); the server's
    /// own machine (loopback) is not limited, so a host can test several pages.
    public static let seatsPerAddress = 2
    public static let resumeWindow = 60.0
    /// A singer's name is at most this many characters (a suffix such as " (2)" included).
    public static let maxNameLength = 40

    /// The calibration store key for a phone singer.
    public static func calibrationKey(name: String) -> String { "phone:" + name }

    public let slots: [PhoneMicSlot]
    public let firstSinger: Int
    public let phoneAudio: PhoneAudioGate?
    private let gate = PhoneAudioGate()
    private let inner: any EventServerDelegate
    private let room: Room
    private weak var session: LiveRoomSession?
    /// Sends a message to one client (the event server's `send`).
    public typealias Sender = @Sendable (OutboundMessage, ClientID) -> Void
    private let sender: Sender
    private let queue = DispatchQueue(label: "karaoke.phone-seats")
    private var timer: (any DispatchSourceTimer)?

    private struct Holder {
        var client: ClientID?
        var token: String
        var name: String
        var part: Int
        var address: String
        var leftAt: Double?
        var status: String?
        /// The seat's own difficulty, as the page asked when it took the seat (nil: the room's).
        var difficulty: Difficulty?
        var drift = CalibrationDrift()
        /// What the room's state last showed (a new calibration clears the slot's flag by itself).
        var needsCalibration = false
    }
    /// A named phone singer's part: the latest explicit choice wins, whether a `selectSinger`
    /// (the host's remote, or the phone user) or the phone asking a part other than before.
    /// Taking the seat again (a reconnect, a reload, Stop then Sing) with the same ask is no
    /// choice, so a part the host chose meanwhile sticks.
    private struct PartChoice {
        /// What the phone last asked for itself (`phoneMic`'s `part`; nil: never asked).
        var asked: Int?
        var chosen: Int
    }
    static let maxPartChoices = 256
    // On `queue`.
    private var holders: [Int: Holder] = [:]
    private var partChoices: [String: PartChoice] = [:]
    /// Each client's per-address key (`ClientInfo.address`) and whether it is this machine
    /// (decided on its real peer address: a key such as `0:0:0:0::/64` covers more than `::1`).
    private var addresses: [ClientID: (key: String, loopback: Bool)] = [:]
    /// Which flagged seat calibrates again by itself, and when (see `recalibrateWhenDue`).
    private var recalibration = AutoRecalibration()

    public init(room: Room, firstSinger: Int, send: @escaping Sender) {
        self.room = room
        sender = send
        self.firstSinger = firstSinger
        inner = room.connectionHandler
        slots = (0..<Self.maxPhones).map { PhoneMicSlot(slot: $0) }
        phoneAudio = gate
        let queue = queue
        room.onPhonePartChosen { [weak self] singer, part in
            queue.async { [weak self] in self?.partChosen(singer: singer, part: part) }
        }
    }

    /// The live session that scores the seats (its microphones `firstSinger…` are `slots`).
    public func attach(session: LiveRoomSession) {
        self.session = session
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.watch() }
        timer.resume()
        self.timer = timer
    }

    public func close() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    // MARK: - EventServerDelegate (service thread)

    public func clientConnected(_ client: ClientInfo) {
        queue.async { [self] in addresses[client.id] = (client.address, client.isLoopback) }
        inner.clientConnected(client)
    }

    public func client(_ id: ClientID, sent text: String) {
        guard let command = PhoneMicCommand.decode(text) else {
            inner.client(id, sent: text)
            return
        }
        if command.type == "phoneClock" {
            let t1 = HostClock.now()
            guard let t0 = command.t0, t0.isFinite else { return refuse(id, "phoneClock needs a numeric t0") }
            sender(PhoneMicEvent.clock(t0: t0, t1: t1).message(), id)
            return
        }
        queue.async { [self] in handle(command, from: id) }
    }

    public func client(_ id: ClientID, violated violation: TransportViolation) {
        if violation == .binaryFrame {
            refuse(id, "audio frames need a phone singer seat: send phoneMic first", code: "audioRefused")
            return
        }
        inner.client(id, violated: violation)
    }

    public func clientDisconnected(_ id: ClientID) {
        clientDisconnected(id, closeStatus: nil)
    }

    /// A page that closes (or reloads, or navigates away) sends a close frame saying so (1001;
    /// 1000 from a client that is done): its seat is free at once. A connection that ends
    /// without one (a network drop, a phone out of range) holds the seat for `resumeWindow`.
    public func clientDisconnected(_ id: ClientID, closeStatus: UInt16?) {
        gate.revoke(id)
        let leaving = WebSocketCloseStatus.isLeaving(closeStatus)
        queue.async { [self] in
            addresses[id] = nil
            for (slot, holder) in holders where holder.client == id {
                holders[slot]?.client = nil
                if leaving {
                    release(slot, reason: "the page was closed")
                } else {
                    holders[slot]?.leftAt = HostClock.now()
                }
            }
        }
        inner.clientDisconnected(id, closeStatus: closeStatus)
    }

    // MARK: - Seats (on `queue`)

    private func handle(_ command: PhoneMicCommand, from id: ClientID) {
        switch command.type {
        case "phoneMic": take(command, from: id)
        case "phoneMicRelease":
            if let slot = slot(of: id) { release(slot, reason: "released") }
        case "phoneClockOffset":
            guard let slot = slot(of: id) else { return refuse(id, "phoneClockOffset needs a phone seat", code: "noSeat") }
            guard let offset = command.offset, offset.isFinite, let rtt = command.rtt, rtt >= 0, rtt < 5 else {
                return refuse(id, "phoneClockOffset needs a finite offset and a round trip of 0…5 s")
            }
            slots[slot].setClockOffset(offset)
        case "phoneMicCalibrate":
            guard let slot = slot(of: id) else { return refuse(id, "phoneMicCalibrate needs a phone seat", code: "noSeat") }
            let singer = firstSinger + slot
            let sender = sender
            room.calibratePhone(singer: singer) { delay, error in
                sender(PhoneMicEvent.calibrated(delayMs: delay.map { ($0 * 10000).rounded() / 10 }, error: error).message(), id)
            }
        default: break
        }
    }

    private func take(_ command: PhoneMicCommand, from id: ClientID) {
        guard let (address, loopback) = addresses[id] else { return }
        let name = Self.cleanName(command.name)
        let asked = command.part.map { min(max($0, 0), 7) }
        let difficulty = command.difficulty.flatMap(Difficulty.init(rawValue:))
        guard command.difficulty == nil || difficulty != nil else {
            return refuse(id, "difficulty must be easy, medium or hard", code: "badArguments")
        }
        if let token = command.resume, let (slot, holder) = holders.first(where: { $0.value.token == token }) {
            if let old = holder.client, old != id { gate.revoke(old) }
            holders[slot]?.client = id
            holders[slot]?.leftAt = nil
            grant(slot, to: id, holder: holders[slot]!, changed: false)
            return
        }
        if let slot = slot(of: id) { release(slot, reason: "replaced") }
        guard name != nil || command.name == nil else {
            return refuse(id, "a singer name is 1–40 characters", code: "badArguments")
        }
        if !loopback, holders.values.filter({ $0.address == address }).count >= Self.seatsPerAddress {
            return refuse(id, "this address already holds \(Self.seatsPerAddress) phone seats", code: "phoneSeatsFull")
        }
        guard let slot = (0..<Self.maxPhones).first(where: { holders[$0] == nil }) else {
            return refuse(id, "all \(Self.maxPhones) phone seats are taken", code: "phoneSeatsFull")
        }
        // A name another seat has gets a suffix the page shows ("Ann (2)"): one name, one seat.
        let seatName = name.map { room.phoneSeatName($0, singer: firstSinger + slot) }
        let part = seatName.map { choosePart(name: $0, asked: asked) } ?? asked ?? 0
        let holder = Holder(client: id, token: Self.token(), name: seatName ?? "Phone \(slot + 1)", part: part, address: address,
                            difficulty: difficulty)
        holders[slot] = holder
        grant(slot, to: id, holder: holder, changed: true)
    }

    /// The part a named phone singer taking a seat sings: its new ask if it asks another part
    /// than before, else the latest explicit choice (the host's, if the host chose since).
    private func choosePart(name: String, asked: Int?) -> Int {
        let previous = partChoices[name]
        let phoneChanged = asked != nil && asked != previous?.asked
        let part = phoneChanged ? asked! : (previous?.chosen ?? asked ?? 0)
        if previous == nil, partChoices.count >= Self.maxPartChoices {
            // Bounded: forget the singers not seated now.
            let seated = Set(holders.values.map(\.name))
            partChoices = partChoices.filter { seated.contains($0.key) }
        }
        partChoices[name] = PartChoice(asked: asked ?? previous?.asked, chosen: part)
        return part
    }

    /// A `selectSinger` changed a phone seat's part (after the room checked it): an explicit
    /// choice, kept for the seat's singer through a re-take.
    private func partChosen(singer: Int, part: Int) {
        let slot = singer - firstSinger
        guard let holder = holders[slot] else { return }
        holders[slot]?.part = part
        if var choice = partChoices[holder.name] {
            choice.chosen = part
            partChoices[holder.name] = choice
        } else if partChoices.count < Self.maxPartChoices {
            partChoices[holder.name] = PartChoice(asked: nil, chosen: part)
        }
    }

    private func grant(_ slot: Int, to id: ClientID, holder: Holder, changed: Bool) {
        let phone = slots[slot]
        phone.resetStream(sameSinger: !changed)
        phone.setSeated(true)
        gate.grant(id, seat: slot, receiver: phone)
        let singer = firstSinger + slot
        room.phoneSeatHeld(singer: singer, by: id)
        if changed {
            var seat = SingerPayload(singer: singer, name: holder.name, part: holder.part, micDelayMs: 0)
            seat.source = "phone"
            seat.difficulty = holder.difficulty
            room.phoneSeatTaken(seat)
            session?.seatChanged(singer: singer, seat: seat)
        }
        sender(PhoneMicEvent.seat(slot: slot, singer: singer, name: holder.name, part: holder.part, token: holder.token,
                                  sampleRate: Int(PhoneAudioFrame.sampleRate), difficulty: holder.difficulty?.rawValue).message(), id)
    }

    private func release(_ slot: Int, reason: String) {
        guard let holder = holders.removeValue(forKey: slot) else { return }
        if let client = holder.client {
            gate.revoke(client)
            sender(PhoneMicEvent.released(reason: reason).message(), client)
        }
        slots[slot].setSeated(false)
        room.logPhone("phone singer \(holder.name) gave up seat \(firstSinger + slot + 1) (\(reason)): \(slots[slot].streamSummary)")
        let singer = firstSinger + slot
        session?.seatChanged(singer: singer, seat: nil)
        room.phoneSeatGiven(singer: singer)
    }

    private func slot(of id: ClientID) -> Int? {
        holders.first { $0.value.client == id }?.key
    }

    /// Every 250 ms: network status per seat (shown; which lines were sung without audio is
    /// decided by the audio itself: `PhoneMicSlot.losses`, `ClosedLine`), seats
    /// whose holder did not come back released, and a `state` when a status changed.
    private func watch() {
        let now = HostClock.now()
        let window = room.phoneRecalibrationWindow
        var changed = false
        var changes: [(name: String, status: String?)] = []
        for (slot, holder) in holders {
            if let left = holder.leftAt, now - left > Self.resumeWindow {
                release(slot, reason: "not back within \(Int(Self.resumeWindow)) s")
                changed = true
                continue
            }
            let phone = slots[slot]
            let status = phone.status(now: now)
            let hadBaseline = holder.drift.baseline != nil
            let needs = holders[slot]!.drift.update(calibration: phone.calibration, lag: phone.backingLag, now: now,
                                                    songPlaying: window == .playing)
            if !hadBaseline, let baseline = holders[slot]!.drift.baseline {
                room.logPhone("phone singer \(holder.name): the music arrives \(String(format: "%.1f", baseline * 1000)) ms late in its stream since its calibration (its timing is watched from there)")
            }
            if let move = holders[slot]!.drift.statedMove, let since = holders[slot]!.drift.moved {
                room.logPhone("phone singer \(holder.name): the music now arrives \(String(format: "%.1f", move.lag * 1000)) ms late in its stream ("
                    + "\(String(format: "%+.1f", move.change * 1000)) ms since the last move, "
                    + "\(String(format: "%+.1f", since * 1000)) ms since its calibration)")
            }
            phone.setNeedsCalibration(needs)
            let moved = String(format: "%+.1f", (holders[slot]!.drift.moved ?? 0) * 1000)
            let following = phone.timingCorrection
            let follow = holders[slot]!.drift.correction(flagged: needs, current: following)
            if follow != following {
                phone.setTimingCorrection(follow)
                if needs, holder.needsCalibration, follow == 0 || abs(follow - following) >= CalibrationDrift.threshold {
                    room.logPhone("phone singer \(holder.name): its timing moved on (\(moved) ms); "
                        + (follow != 0 ? "its scoring follows" : "too far to follow: scored on its calibration"))
                }
            }
            if needs != holder.needsCalibration {
                holders[slot]?.needsCalibration = needs
                if needs {
                    let scoring = follow != 0 ? "its scoring follows the move until then"
                        : "too far to follow during a song (over \(Int(CalibrationDrift.followLimit * 1000)) ms): scored on its calibration until then"
                    room.logPhone("phone singer \(holder.name): the music arrives \(moved) ms off where it did after its calibration; it calibrates again once no song plays; \(scoring)")
                } else if phone.calibration != nil, holders[slot]!.drift.baseline != nil {
                    room.logPhone("phone singer \(holder.name): timing back within 20 ms of its calibration (\(moved) ms)")
                }
                changed = true
            }
            if status != holder.status {
                holders[slot]?.status = status
                changes.append((holder.name, status))
                changed = true
            }
        }
        if changed { room.phoneStatusChanged(changes) }
        recalibrateWhenDue()
    }

    /// A flagged seat's calibration runs again by itself once the room is stopped, one seat at a
    /// time (`AutoRecalibration` decides which and when; the room checks again on its queue).
    /// The phone hears `phoneMicRecalibrating` when the clicks begin, then `phoneMicCalibrated`.
    private func recalibrateWhenDue() {
        let seats = holders.map { slot, holder in
            AutoRecalibration.Seat(slot: slot, flagged: slots[slot].needsCalibration, calibrated: slots[slot].calibration != nil,
                                   reachable: holder.client != nil && holder.status == "ok")
        }
        guard let slot = recalibration.next(seats: seats, window: room.phoneRecalibrationWindow), let holder = holders[slot] else { return }
        let movedMs = (holder.drift.moved ?? 0) * 1000
        let why = "phone singer \(holder.name)'s timing moved \(String(format: "%+.1f", movedMs)) ms since its calibration"
        let (sender, queue, token, client) = (sender, queue, holder.token, holder.client)
        room.recalibratePhone(singer: firstSinger + slot, why: why, started: {
            if let client { sender(PhoneMicEvent.recalibrating(movedMs: (movedMs * 10).rounded() / 10).message(), client) }
        }, done: { [weak self] outcome, delay, error in
            queue.async { [weak self] in
                guard let self else { return }
                recalibration.finished(slot: slot, outcome)
                // The seat's holder now (a reconnect is a new client), if it is still the same phone.
                guard outcome != .notStarted, let holder = holders[slot], holder.token == token, let client = holder.client else { return }
                sender(PhoneMicEvent.calibrated(delayMs: delay.map { ($0 * 10000).rounded() / 10 }, error: error).message(), client)
            }
        })
    }

    private func refuse(_ id: ClientID, _ message: String, code: String = "badArguments") {
        sender(ServerEvent.error(ErrorPayload(code: code, message: message, command: nil, id: nil)).message(), id)
    }

    static func cleanName(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).filter { !$0.isNewline && $0.asciiValue.map { $0 >= 32 } ?? true }
        guard !name.isEmpty, name.count <= maxNameLength else { return nil }
        return name
    }

    private static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
