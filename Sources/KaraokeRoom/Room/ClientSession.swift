import EventServer
import RoomProtocol

/// What the room remembers about one connected browser.
struct ClientSession {
    var role: ClientRole = .display
    var name: String?
    /// The per-address key of its peer (`ClientAddress`): PIN attempts and queue shares count by it.
    var address = "?"
    /// Whether its connection is one where a secret may travel: over TLS, or from this machine.
    var channelIsPrivate = false
    /// The song generation this client last received in full (`song` or `hello`).
    var songGeneration: Int?
    /// The host session this client signed in with (issued to it, or the token it presented).
    var hostToken: String?
}
