import Dispatch
import EventServer
import RoomProtocol

/// Results of the live pipeline (pitch, line scores, totals, device events) reaching the room.
extension Room {
    /// Whether a live result belongs to the song the room has now (results of the previous song
    /// can arrive after the next one was chosen; they must not count for it).
    func isCurrent(songId: String?) -> Bool {
        songId == nil || songId == current?.entry.id
    }

    func recordLineScore(_ score: LineScorePayload) {
        queue.async { [self] in
            // A last line can close just after the song ended (and the next one loaded).
            if let songId = score.songId, finishedSong?.songId == songId,
               !(finishedSong?.lines.contains { $0.singer == score.singer && $0.line == score.line && $0.part == score.part } ?? true) {
                finishedSong?.lines.append(score)
            }
            guard isCurrent(songId: score.songId) else { return }
            results.append(score)
            transport?.broadcast(.lineScore(score))
        }
    }

    func recordTotal(_ total: TotalPayload) {
        queue.async { [self] in
            if total.final, let songId = total.songId, finishedSong?.songId == songId {
                finishedSong?.totals[total.singer] = total
                finishedSong?.waitingFor.remove(total.singer)
                if finishedSong?.waitingFor.isEmpty == true { publishFinishedResults() }
            }
            guard isCurrent(songId: total.songId) else { return }
            totals[total.singer] = total
            transport?.broadcast(.total(total))
        }
    }

    /// The song ended: its `results` go to everyone once the live session has ended every
    /// singer's run (its final total, the run finished in the store), so the leaderboard they
    /// carry includes the run just sung. At most `finishedResultsWait` seconds later regardless.
    func beginFinishedResults() {
        if finishedSong != nil { publishFinishedResults() }
        finishedSong = FinishedSong(songId: current?.entry.id, lines: results, totals: totals,
                                    waitingFor: liveSession == nil ? [] : Set(totals.keys))
        guard finishedSong?.waitingFor.isEmpty == false else {
            publishFinishedResults()
            return
        }
        let songId = finishedSong?.songId
        queue.asyncAfter(deadline: .now() + Self.finishedResultsWait) { [weak self] in
            guard let self, finishedSong != nil, finishedSong?.songId == songId else { return }
            publishFinishedResults()
        }
    }

    static let finishedResultsWait = 3.0

    func publishFinishedResults() {
        guard let finished = finishedSong else { return }
        finishedSong = nil
        var payload = ResultsPayload(songId: finished.songId, lines: finished.lines,
                                     totals: finished.totals.values.sorted { $0.singer < $1.singer }, leaderboard: [])
        payload.ended = true
        withStoredBoards(payload) { room, complete in room.transport?.broadcast(.results(complete)) }
    }

    func forward(_ event: ServerEvent) {
        queue.async { [self] in transport?.broadcast(event) }
    }

    /// Tells every host client about a problem nobody asked about (e.g. `store-write-failed`:
    /// scores are not reaching the database), as an `error` event with no command.
    /// A code that ends a standing fault (`store-write-recovered`) clears it.
    public func reportToHosts(code: String, message: String) {
        queue.async { [self] in
            standingFaults[code] = nil
            for (client, session) in clients where session.role == .host {
                sendError(to: client, code: code, message: message, command: nil, id: nil)
            }
        }
    }

    /// Like `reportToHosts`, for a fault that lasts until a report with code `resolvedBy`
    /// (`store-write-failed` until `store-write-recovered`): a host who signs in meanwhile is
    /// told right after its `hello`.
    public func reportStandingFault(code: String, message: String, until resolvedBy: String) {
        queue.async { [self] in
            standingFaults[resolvedBy] = (code, message)
            for (client, session) in clients where session.role == .host {
                sendError(to: client, code: code, message: message, command: nil, id: nil)
            }
        }
    }

    /// The faults still going on, to a client that just became host.
    func sendStandingFaults(to client: ClientID) {
        for fault in standingFaults.values.sorted(by: { $0.code < $1.code }) {
            sendError(to: client, code: fault.code, message: fault.message, command: nil, id: nil)
        }
    }
}

/// A song that ended, collecting its last line scores and final totals for its `results`.
struct FinishedSong {
    var songId: String?
    var lines: [LineScorePayload]
    var totals: [Int: TotalPayload]
    /// Singers whose run the live session has not ended yet.
    var waitingFor: Set<Int>
}

extension Room: RoomEventSink {
    /// Pitch frames are droppable in the transport queues; the room keeps no copy.
    public func publishPitch(_ pitch: PitchPayload) {
        queue.async { [self] in transport?.broadcast(.pitch(pitch)) }
    }
    public func publishLineScore(_ score: LineScorePayload) { recordLineScore(score) }
    public func publishTotal(_ total: TotalPayload) { recordTotal(total) }
    public func publishDevice(_ device: DevicePayload) { forward(.device(device)) }
}
