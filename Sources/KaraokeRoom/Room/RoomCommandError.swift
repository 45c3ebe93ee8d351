/// A command the room refused, with the code and message sent back to the client.
struct RoomCommandError: Error {
    let code: String
    let message: String
    init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}
