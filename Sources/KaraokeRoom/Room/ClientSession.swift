import EventServer

/// What the room remembers about one connected browser.
struct ClientSession {
    var role: ClientRole = .display
    var name: String?
}
