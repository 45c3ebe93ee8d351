/// A command the room refused, with the code and message sent back to the client.
struct RoomCommandError: Error {
    let code: String
    let message: String
    /// What a guest or display is told instead, when `message` is for hosts only (a broken
    /// song's reason and paths: `SongProblems`).
    var guestMessage: String?
    init(_ code: String, _ message: String, guestMessage: String? = nil) {
        self.code = code
        self.message = message
        self.guestMessage = guestMessage
    }
}
