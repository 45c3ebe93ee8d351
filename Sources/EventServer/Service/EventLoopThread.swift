import CWebSockets
import Foundation
import Logging
import Synchronization

/// Owns the lws context and the one thread that services it. Every lws call except
/// `lws_cancel_service` happens on that thread; other threads only append to
/// `pending` and wake the loop.
final class EventLoopThread: @unchecked Sendable {
    let configuration: EventServerConfiguration
    let pending = PendingWorkQueue()
    private let logger: Logger
    private let delegate: any EventServerDelegate
    private let originCheck: OriginCheck
    private let stopRequested = Atomic<Bool>(false)
    private let contextPointer = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    let statistics = Mutex(EventServerStatistics())
    /// Service-thread only; copied out under `statistics`'s lock every 256 writes and at the end.
    private var deliveries = DeliveryHistogram()

    // Service-thread state.
    private var connections: [ClientID: ClientConnection] = [:]
    private var nextClientID: ClientID = 1
    private var writeBuffer: UnsafeMutableRawPointer
    private var writeBufferCapacity: Int
    private let preamble = kar_lws_pre()

    // Memory lws points into; freed after the context is destroyed.
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let protocolName = strdup("karaoke")!
    private let mount: StaticMount
    private let iface: UnsafeMutablePointer<CChar>?

    init(configuration: EventServerConfiguration, delegate: any EventServerDelegate, logger: Logger) {
        self.configuration = configuration
        self.delegate = delegate
        self.logger = logger
        self.originCheck = OriginCheck(allowedOrigins: configuration.allowedOrigins)
        writeBufferCapacity = 64 * 1024
        writeBuffer = UnsafeMutableRawPointer.allocate(byteCount: writeBufferCapacity + kar_lws_pre(), alignment: 16)
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        mount = StaticMount(
            directory: configuration.publicDirectory, pageRoutes: configuration.pageRoutes,
            extraMimeTypes: configuration.extraMimeTypes, cacheMaxAge: configuration.cacheMaxAge)
        if let host = configuration.host, host != "0.0.0.0", host != "::", !host.isEmpty {
            iface = strdup(host)
        } else {
            iface = nil
        }
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = eventServerCallback
        protocols[0].per_session_data_size = MemoryLayout<ClientID>.size
        protocols[0].rx_buffer_size = 4096
    }

    deinit {
        writeBuffer.deallocate()
        protocols.deallocate()
        free(protocolName)
        if let iface { free(iface) }
    }

    /// Creates the context on a new thread and returns the bound port once listening.
    func start() throws -> Int {
        let result = Mutex<Result<Int, EventServerError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            lws_set_log_level(LLL_ERR | LLL_WARN, nil)
            var info = lws_context_creation_info()
            info.port = Int32(configuration.port)
            info.iface = UnsafePointer(iface)
            info.protocols = UnsafePointer(protocols)
            info.mounts = UnsafePointer(mount.head)
            info.user = Unmanaged.passUnretained(self).toOpaque()
            info.options = UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
                | UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            // An IPv4 address to bind only resolves on an IPv4 socket (else lws listens on [::]).
            if let host = configuration.host, host.contains("."), !host.contains(":") {
                info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
            }
            guard let context = lws_create_context(&info) else {
                result.withLock { $0 = .failure(.cannotListen(host: configuration.host ?? "*", port: configuration.port)) }
                ready.signal()
                finished.signal()
                return
            }
            contextPointer.store(Int(bitPattern: UnsafeRawPointer(context)), ordering: .releasing)
            let port = Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")))
            result.withLock { $0 = .success(port) }
            ready.signal()
            while !stopRequested.load(ordering: .acquiring) {
                if lws_service(context, 0) < 0 { break }
            }
            contextPointer.store(0, ordering: .releasing)
            publishDeliveries()
            lws_context_destroy(context)
            connections.removeAll()
            finished.signal()
        }
        thread.name = "lws-service"
        thread.start()
        ready.wait()
        return try result.withLock { $0! }.get()
    }

    /// Wakes the service loop (the only lws call allowed off its thread).
    func wake() {
        let raw = contextPointer.load(ordering: .acquiring)
        guard raw != 0 else { return }
        lws_cancel_service(OpaquePointer(bitPattern: raw))
    }

    func submit(_ work: PendingWork) {
        pending.append(work)
        wake()
    }

    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        finished.wait()
    }

    // MARK: - Service thread

    func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            let origin = header(wsi, WSI_TOKEN_ORIGIN)
            let host = header(wsi, WSI_TOKEN_HOST)
            if !originCheck.accepts(origin: origin, host: host) {
                logger.warning("rejected WebSocket from origin \(origin ?? "-") (host \(host ?? "-"))")
                statistics.withLock { $0.rejectedOrigins += 1 }
                return 1
            }
            return 0

        case LWS_CALLBACK_ESTABLISHED:
            let id = nextClientID
            nextClientID += 1
            user?.storeBytes(of: id, as: ClientID.self)
            let connection = ClientConnection(
                id: id, wsi: wsi, queueLimits: configuration.queueLimits,
                rateLimiter: RateLimiter(limits: configuration.rateLimit, now: MonotonicClock.now()))
            connections[id] = connection
            statistics.withLock { $0.connectedClients = connections.count; $0.totalConnections += 1 }
            delegate.clientConnected(ClientInfo(id: id, peerAddress: peerAddress(wsi), origin: header(wsi, WSI_TOKEN_ORIGIN)))
            return 0

        case LWS_CALLBACK_CLOSED:
            guard let id = user?.load(as: ClientID.self), connections.removeValue(forKey: id) != nil else { return 0 }
            statistics.withLock { $0.connectedClients = connections.count }
            delegate.clientDisconnected(id)
            return 0

        case LWS_CALLBACK_RECEIVE:
            guard let id = user?.load(as: ClientID.self), let connection = connections[id] else { return -1 }
            return receive(connection, input, length)

        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let id = user?.load(as: ClientID.self), let connection = connections[id] else { return -1 }
            return write(connection)

        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            distributePending()
            return 0

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func receive(_ connection: ClientConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let wsi = connection.wsi
        if connection.inbound.count + length > configuration.maxInboundMessageBytes {
            statistics.withLock { $0.oversizeCloses += 1 }
            return closeNow(wsi, status: LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
                            reason: "message larger than \(configuration.maxInboundMessageBytes) bytes")
        }
        if let input, length > 0 {
            connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        let bytes = connection.inbound
        connection.inbound.removeAll(keepingCapacity: true)

        switch connection.rateLimiter.admit(now: MonotonicClock.now()) {
        case .allow: break
        case .reject:
            statistics.withLock { $0.rateLimitedMessages += 1 }
            delegate.client(connection.id, violated: .rateLimited)
            return 0
        case .disconnect:
            statistics.withLock { $0.rateLimitCloses += 1 }
            return closeNow(wsi, status: LWS_CLOSE_STATUS_POLICY_VIOLATION, reason: "flooding")
        }
        if lws_frame_is_binary(wsi) != 0 {
            delegate.client(connection.id, violated: .binaryFrame)
            return 0
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            delegate.client(connection.id, violated: .invalidText)
            return 0
        }
        delegate.client(connection.id, sent: text)
        return 0
    }

    private func write(_ connection: ClientConnection) -> Int32 {
        connection.writeRequested = false
        if let close = connection.pendingClose, connection.queue.isEmpty {
            return closeNow(connection.wsi, status: lws_close_status(rawValue: UInt32(close.status)), reason: close.reason)
        }
        guard let message = connection.queue.dequeue() else { return 0 }
        let count = message.bytes.count
        if count > writeBufferCapacity {
            writeBuffer.deallocate()
            writeBufferCapacity = count
            writeBuffer = UnsafeMutableRawPointer.allocate(byteCount: count + preamble, alignment: 16)
        }
        let payload = writeBuffer.advanced(by: preamble)
        message.bytes.withUnsafeBytes { payload.copyMemory(from: $0.baseAddress!, byteCount: count) }
        let written = lws_write(connection.wsi, payload.assumingMemoryBound(to: UInt8.self), count, LWS_WRITE_TEXT)
        if written < count { return -1 }
        deliveries.record(milliseconds: (MonotonicClock.now() - message.createdAt) * 1000)
        if deliveries.count % 256 == 0 { publishDeliveries() }
        if !connection.queue.isEmpty || connection.pendingClose != nil { requestWrite(connection) }
        return 0
    }

    private func publishDeliveries() {
        let snapshot = deliveries
        statistics.withLock { $0.deliveries = snapshot }
    }

    private func distributePending() {
        let work = pending.drain()
        guard !work.isEmpty else { return }
        var evicted: [ClientConnection] = []
        for item in work {
            switch item {
            case .broadcast(let message):
                for connection in connections.values { enqueue(message, on: connection, evicted: &evicted) }
            case .send(let message, let id):
                if let connection = connections[id] { enqueue(message, on: connection, evicted: &evicted) }
            case .close(let id, let status, let reason):
                if let connection = connections[id] {
                    connection.pendingClose = (status, reason)
                    requestWrite(connection)
                }
            }
        }
        for connection in evicted where connections[connection.id] != nil {
            logger.warning("client \(connection.id) cannot keep up (\(connection.queue.count) essential messages queued): disconnecting")
            statistics.withLock { $0.slowClientCloses += 1 }
            kar_lws_kill_async(connection.wsi)
        }
    }

    private func enqueue(_ message: OutboundMessage, on connection: ClientConnection, evicted: inout [ClientConnection]) {
        switch connection.queue.enqueue(message) {
        case .queued: requestWrite(connection)
        case .droppedDroppable(let n):
            statistics.withLock { $0.droppedMessages += n }
            requestWrite(connection)
        case .overflow:
            if !evicted.contains(where: { $0 === connection }) { evicted.append(connection) }
        }
    }

    private func requestWrite(_ connection: ClientConnection) {
        guard !connection.writeRequested else { return }
        connection.writeRequested = true
        lws_callback_on_writable(connection.wsi)
    }

    private func closeNow(_ wsi: OpaquePointer, status: lws_close_status, reason: String) -> Int32 {
        var bytes = Array(reason.utf8.prefix(120))
        bytes.withUnsafeMutableBufferPointer { lws_close_reason(wsi, status, $0.baseAddress, $0.count) }
        return -1
    }

    private func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0, length < 4096 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return Self.string(buffer)
    }

    private static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "?" }
        return Self.string(buffer)
    }
}

/// The C callback lws calls for every protocol event; forwards to the loop object.
private func eventServerCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let loop = Unmanaged<EventLoopThread>.fromOpaque(raw).takeUnretainedValue()
    return loop.handle(wsi, reason, user, input, length)
}
