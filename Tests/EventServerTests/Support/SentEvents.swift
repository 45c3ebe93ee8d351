import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import Synchronization

/// A room's transport that keeps what the room sends to each client (no sockets): for tests
/// that drive the room through its connection handler as clients from any address would.
final class SentEvents: RoomTransport {
    let sent = Mutex<[(client: ClientID, event: ServerEvent)]>([])
    let broadcasts = Mutex<[ServerEvent]>([])
    func broadcast(_ event: ServerEvent) { broadcasts.withLock { $0.append(event) } }
    func send(_ event: ServerEvent, to client: ClientID) { sent.withLock { $0.append((client, event)) } }
    func close(_ client: ClientID, status: UInt16, reason: String) {}

    func hellos(to client: ClientID) -> [HelloPayload] {
        sent.withLock { $0.compactMap { $0.client == client ? { if case .hello(let h) = $0.event { h } else { nil } }($0) : nil } }
    }

    /// The seats' names as the last state the room broadcast shows them.
    func singerNames() -> [String]? {
        broadcasts.withLock { events in
            events.reversed().lazy.compactMap { if case .state(let state) = $0 { state.singers.map(\.name) } else { nil } }.first
        }
    }

    /// Everything the client received, as it went on the wire: what was sent to it, then every broadcast.
    func wireTexts(to client: ClientID) -> [String] {
        let own = sent.withLock { $0.filter { $0.client == client }.map(\.event) }
        return (own + broadcasts.withLock { $0 }).map { String(decoding: $0.message().bytes, as: UTF8.self) }
    }

    /// The `error` events sent to the client (code and message), in order.
    func errorMessages(to client: ClientID) -> [(code: String, message: String)] {
        sent.withLock { $0.compactMap { $0.client == client ? { if case .error(let e) = $0.event { (e.code, e.message) } else { nil } }($0) : nil } }
    }

    /// The songs of the library pages sent to the client, in order.
    func librarySongs(to client: ClientID) -> [SongSummary] {
        sent.withLock { $0.flatMap { $0.client == client ? { if case .library(let page) = $0.event { page.songs } else { [] } }($0) : [] } }
    }

    func errors(to client: ClientID) -> [String] {
        sent.withLock { $0.compactMap { $0.client == client ? { if case .error(let e) = $0.event { e.code } else { nil } }($0) : nil } }
    }
}
