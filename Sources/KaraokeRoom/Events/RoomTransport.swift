import EventServer
import RoomProtocol

/// How the room reaches browsers. `EventServer` is the real one; tests may record.
public protocol RoomTransport: AnyObject, Sendable {
    func broadcast(_ event: ServerEvent)
    /// Events produced together (one tick's line positions and state), handed over as one.
    func broadcast(_ events: [ServerEvent])
    func send(_ event: ServerEvent, to client: ClientID)
    func close(_ client: ClientID, status: UInt16, reason: String)
    /// Makes a song file (video, CDG) fetchable and returns its URL path; nil when this
    /// transport serves no files.
    func publishMedia(path: String) -> String?
}

extension RoomTransport {
    public func publishMedia(path: String) -> String? { nil }
    public func broadcast(_ events: [ServerEvent]) { for event in events { broadcast(event) } }
}

extension EventServer: RoomTransport {
    public func broadcast(_ event: ServerEvent) { broadcast(event.message()) }
    public func broadcast(_ events: [ServerEvent]) { broadcast(contentsOf: events.map { $0.message() }) }
    public func send(_ event: ServerEvent, to client: ClientID) { send(event.message(), to: client) }
    public func publishMedia(path: String) -> String? { media.publish(path: path) }
}
