/// The header of an unmasked, unfragmented server-to-client text frame (RFC 6455 §5.2).
///
/// The event loop frames a client's queued messages itself so that several leave in one
/// `send()` (`lws_write` with `LWS_WRITE_RAW`): lws frames one message per write, and a
/// second syscall per client doubled the fan-out of a room tick's `line` + `state` pair.
/// No extension is negotiated (no permessage-deflate), so no RSV bit is ever set.
enum WebSocketFrameHeader {
    /// The longest header: opcode byte, 127 and a 64-bit length.
    static let maximumLength = 10

    /// Bytes the header of a `payloadLength`-byte frame takes.
    static func length(payloadLength: Int) -> Int {
        payloadLength < 126 ? 2 : payloadLength <= 0xFFFF ? 4 : 10
    }

    /// Writes the header of a final text frame carrying `payloadLength` bytes at `destination`;
    /// returns the bytes written (`length(payloadLength:)`).
    @discardableResult
    static func writeText(payloadLength: Int, to destination: UnsafeMutableRawPointer) -> Int {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        bytes[0] = 0x81  // FIN, text
        if payloadLength < 126 {
            bytes[1] = UInt8(payloadLength)
            return 2
        }
        if payloadLength <= 0xFFFF {
            bytes[1] = 126
            bytes[2] = UInt8(payloadLength >> 8)
            bytes[3] = UInt8(payloadLength & 0xFF)
            return 4
        }
        bytes[1] = 127
        let length = UInt64(payloadLength)
        for i in 0..<8 { bytes[2 + i] = UInt8((length >> (56 - 8 * UInt64(i))) & 0xFF) }
        return 10
    }
}
