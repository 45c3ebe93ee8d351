import EventServer

/// Bridges lws callbacks (service thread) to the room's queue.
final class RoomConnectionHandler: EventServerDelegate {
    private let room: Room
    init(room: Room) { self.room = room }
    func clientConnected(_ client: ClientInfo) { room.clientConnected(client) }
    func client(_ id: ClientID, sent text: String) { room.clientSent(id, text) }
    func client(_ id: ClientID, violated violation: TransportViolation) { room.clientViolated(id, violation) }
    func clientDisconnected(_ id: ClientID) { room.clientDisconnected(id) }
}
