import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking WebSocket client over a raw socket (URLSessionWebSocketTask does
/// not work with Debian's libcurl). Handles the handshake, masked client frames and
/// unmasked server frames; enough to test the server's protocol behaviour.
final class WebSocketTestClient {
    struct HandshakeRejected: Error { let response: String }
    struct Closed: Error {}

    struct Frame {
        let opcode: UInt8
        let payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
        /// Close code of a close frame.
        var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var isClosed = false

    init(port: Int, origin: String? = nil, path: String = "/") throws {
        fd = try TestSocket.connect(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        try TestSocket.sendAll(fd, Array(request.utf8))
        let head = readHead(timeout: 5)
        guard head.hasPrefix("HTTP/1.1 101") else {
            Glibc.close(fd)
            isClosed = true
            throw HandshakeRejected(response: head)
        }
    }

    deinit { if !isClosed { Glibc.close(fd) } }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    func sendText(_ text: String) throws { try sendFrame(opcode: 1, payload: Array(text.utf8)) }

    func sendFrame(opcode: UInt8, payload: [UInt8], final: Bool = true) throws {
        var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            frame.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame += [UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try TestSocket.sendAll(fd, frame)
    }

    /// Next complete frame, or nil after `timeout` seconds. Throws `Closed` on EOF.
    func receiveFrame(timeout: Double) throws -> Frame? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let frame = parseFrame() {
                // Answer pings as every browser does, so reading keeps the connection alive.
                if frame.opcode == 9 { try sendFrame(opcode: 10, payload: frame.payload); continue }
                return frame
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            guard try fill(timeout: remaining) else { return nil }
        }
    }

    /// Next JSON text message; nil on timeout; throws `Closed` on a close frame or EOF.
    func receiveJSON(timeout: Double) throws -> [String: Any]? {
        while let frame = try receiveFrame(timeout: timeout) {
            if frame.opcode == 8 { throw Closed() }
            if frame.opcode == 1 {
                return try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any]
            }
        }
        return nil
    }

    /// Reads messages until one has `type` and satisfies `predicate`; nil on timeout.
    func waitFor(_ type: String, timeout: Double = 5, where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let message = try receiveJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if message["type"] as? String == type && predicate(message) { return message }
        }
        return nil
    }

    /// True when the server closes the connection (close frame or EOF) within `timeout`.
    func waitForClose(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            do {
                guard let frame = try receiveFrame(timeout: deadline.timeIntervalSinceNow) else { return false }
                if frame.opcode == 8 { return true }
            } catch {
                return true
            }
        }
        return false
    }

    private func parseFrame() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        return Frame(opcode: opcode, payload: payload)
    }

    private func fill(timeout: Double) throws -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(1, timeout * 1000)))
        if ready <= 0 { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        if n <= 0 { throw Closed() }
        buffer += chunk[0..<n]
        return true
    }

    private func readHead(timeout: Double) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let separator = Array("\r\n\r\n".utf8)
        while deadline.timeIntervalSinceNow > 0 {
            if let end = Self.find(separator, in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + separator.count)
                return head
            }
            do {
                guard try fill(timeout: deadline.timeIntervalSinceNow) else { break }
            } catch {
                break
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}

/// Plain TCP helpers shared by the WebSocket client and raw HTTP requests.
enum TestSocket {
    struct Failure: Error { let what: String }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw Failure(what: "connect to port \(port)")
        }
        return fd
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(what: "send") }
            sent += n
        }
    }

    /// Sends a raw HTTP/1.1 request (the path is not normalised; extra header lines as given) and
    /// reads the whole `Connection: close` response, up to `limit` bytes: status, header text and body.
    static func rawHTTP(port: Int, path: String, method: String = "GET", headers: [String] = [],
                        limit: Int = 1_000_000) throws -> (Int, String, Data) {
        let fd = try connect(port: port)
        defer { Glibc.close(fd) }
        let request = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        try sendAll(fd, Array(request.utf8))
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while response.count < limit, poll(&descriptor, 1, 3000) > 0 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            response += chunk[0..<n]
        }
        guard let end = (0..<max(0, response.count - 3)).first(where: { response[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) else {
            throw Failure(what: "no end of headers in \(response.count) bytes")
        }
        let head = String(decoding: response[..<end], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 "), let code = Int(head.dropFirst(9).prefix(3)) else {
            throw Failure(what: "no HTTP status in \(head.prefix(40))")
        }
        return (code, head, Data(response[(end + 4)...]))
    }

    /// The same request, reading only as far as the status code (a refusal may never send a body).
    static func rawHTTPStatus(port: Int, path: String) throws -> Int {
        let fd = try connect(port: port)
        defer { Glibc.close(fd) }
        try sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while response.count < 12, poll(&descriptor, 1, 3000) > 0 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            response += chunk[0..<n]
        }
        let line = String(decoding: response.prefix(12), as: UTF8.self)
        guard line.hasPrefix("HTTP/1.1 "), let code = Int(line.dropFirst(9).prefix(3)) else {
            throw Failure(what: "no HTTP status in \(line)")
        }
        return code
    }
}
