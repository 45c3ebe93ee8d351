import Dispatch
import EventServer

/// Results of the live pipeline (pitch, line scores, totals, device events) reaching the room.
extension Room {
    /// Whether a live result belongs to the song the room has now (results of the previous song
    /// can arrive after the next one was chosen; they must not count for it).
    func isCurrent(songId: String?) -> Bool {
        songId == nil || songId == current?.entry.id
    }

    func recordLineScore(_ score: LineScorePayload) {
        queue.async { [self] in
            guard isCurrent(songId: score.songId) else { return }
            results.append(score)
            transport?.broadcast(.lineScore(score))
        }
    }

    func recordTotal(_ total: TotalPayload) {
        queue.async { [self] in
            guard isCurrent(songId: total.songId) else { return }
            totals[total.singer] = total
            transport?.broadcast(.total(total))
        }
    }

    func forward(_ event: ServerEvent) {
        queue.async { [self] in transport?.broadcast(event) }
    }

    /// Tells every host client about a problem nobody asked about (e.g. `store-write-failed`:
    /// scores are not reaching the database), as an `error` event with no command.
    public func reportToHosts(code: String, message: String) {
        queue.async { [self] in
            for (client, session) in clients where session.role == .host {
                sendError(to: client, code: code, message: message, command: nil, id: nil)
            }
        }
    }
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
