import Dispatch
import EventServer
import Logging
import LyricTimeline
import RoomProtocol
import SongModel

/// The ticker: end of song, line positions, periodic state, latency readings.
extension Room {
    func tick() {
        refreshLatencies()
        endIntermissionWhenDue()
        publishRecalibrationWindow()
        guard current != nil else { return }
        if transportState == .playing && !player.isPlaying {
            // The player stops by itself at the end of the song, or pauses when its device is lost.
            if player.position >= (current?.payload.duration ?? 0) - 0.05 {
                finishSong()
            } else {
                transportState = .paused
                broadcastState()
            }
            return
        }
        // One hand-over for the tick: a line change and the periodic state reach every client
        // in the same write pass (with 1,000 displays the second one otherwise came a whole
        // fan-out later, docs/server-load.md).
        var events = linePositionEvents(force: false)
        if transportState == .playing && MonotonicClock.now() - lastStateSent >= options.stateInterval {
            events.append(.state(stateForBroadcast(statePayload())))
        }
        if !events.isEmpty { transport?.broadcast(events) }
    }

    func finishSong() {
        logger.info("song finished: \(current?.entry.id ?? "-")")
        for singer in totals.keys { totals[singer]?.final = true }
        beginFinishedResults()
        if let item = songQueue.popFirst(), loadQueuedSong(item) {
            if pauseBetweenSongs > 0 {
                beginIntermission()
            } else {
                startPlaying()
            }
            broadcastQueue()
        } else {
            transportState = .stopped
            liveSession?.roomStopped()
        }
        broadcastState()
    }

    /// A room that does not play sends no periodic `state`; still, clients should see a measured
    /// latency that changed (a stream opened, a device lost or back), so compare once a state interval.
    func refreshLatencies() {
        let now = MonotonicClock.now()
        guard transportState != .playing, now - lastLatencyCheck >= options.stateInterval else { return }
        lastLatencyCheck = now
        let state = statePayload()
        if LatencyReadings(state).differs(from: latenciesSent) { broadcast(state) }
    }

    func emitLinePositions(force: Bool) {
        let events = linePositionEvents(force: force)
        if !events.isEmpty { transport?.broadcast(events) }
    }

    /// A `line` event for each part whose position changed (every part when `force`), noted as sent.
    func linePositionEvents(force: Bool) -> [ServerEvent] {
        guard let current else { return [] }
        let position = mediaPosition
        var events: [ServerEvent] = []
        for (partIndex, timeline) in current.timelines.enumerated() {
            let located = timeline.lookup(at: position)
            let previous = linePositions[partIndex]
            if force || previous?.current != located.current || previous?.syllable != located.syllable || previous?.next != located.next {
                linePositions[partIndex] = located
                events.append(.line(Self.lineEvent(part: partIndex, located, at: position)))
            }
        }
        return events
    }

    static func lineEvent(part: Int, _ located: TimelinePosition, at position: Double) -> LinePayloadEvent {
        LinePayloadEvent(part: part, line: located.current, next: located.next, syllable: located.syllable,
                         position: position, lineProgress: located.lineProgress, syllableProgress: located.syllableProgress)
    }
}
