import CPulse

/// A PulseAudio failure, with the server's own error text.
public struct PulseError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var message: String
    public var description: String { "PulseAudio \(operation): \(message)" }

    public init(_ operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    init(_ operation: String, code: Int32) {
        self.init(operation, message: String(cString: pa_strerror(code)))
    }
}
