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
    private let hosts: HostAllowList
    private var originCheck: OriginCheck
    /// The TLS listener's: a page served over HTTPS has an `https://…:tlsPort` origin.
    private var tlsOriginCheck: OriginCheck?
    /// The TLS vhost (service-thread only), to tell which listener a request came in on.
    private var tlsVhost: OpaquePointer?
    private var publicPaths: PublicPathCheck
    private var budget = ConnectionBudget(limits: .init())
    /// Per-address message buckets, kept while the address has connections.
    private var addressLimiters: [String: RateLimiter] = [:]
    /// Per-address audio frame buckets (phone microphones), kept while the address has connections.
    private var audioLimiters: [String: RateLimiter] = [:]
    /// Where phone audio goes; nil refuses every binary frame.
    private let phoneAudio: PhoneAudioGate?
    /// The address of the connection just accepted, until lws creates its wsi.
    private var admittedAddress: String?
    private var logThrottle = LogThrottle()
    private let idlePolicy: UnsafeMutablePointer<lws_retry_bo_t>
    /// The kernel hands out the lowest free descriptor, so a new socket numbered this high means
    /// few are left (files being sent count too): make room before `accept` can fail.
    private var descriptorHighWater = Int(Int32.max)
    private let stopRequested = Atomic<Bool>(false)
    private let contextPointer = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    let statistics = Mutex(EventServerStatistics())
    /// Service-thread only; copied out under `statistics`'s lock every 256 writes and at the end.
    private var deliveries = DeliveryHistogram()
    /// `send()`s of queued messages: one per writable pass, with up to `messagesPerWritable` in it.
    private var messageWrites = 0

    // Service-thread state.
    private var connections: [ClientID: ClientConnection] = [:]
    /// `/media/…` bodies being sent, by wsi.
    private var mediaTransfers: [Int: MediaTransfer] = [:]
    private var nextClientID: ClientID = 1
    private var writeBuffer: UnsafeMutableRawPointer
    private var writeBufferCapacity: Int
    private let preamble = kar_lws_pre()

    // Memory lws points into; freed after the context is destroyed.
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let protocolName = strdup("karaoke")!
    private let mount: StaticMount
    private let securityHeaders = SecurityHeaders()
    private let iface: UnsafeMutablePointer<CChar>?
    private let tlsStrings: TLSVhostStrings?

    init(configuration: EventServerConfiguration, delegate: any EventServerDelegate, logger: Logger) {
        self.configuration = configuration
        self.delegate = delegate
        self.logger = logger
        phoneAudio = delegate.phoneAudio
        hosts = configuration.allowedHosts ?? HostAllowList.reachableNames(listenHost: configuration.host)
        originCheck = OriginCheck(allowedOrigins: configuration.allowedOrigins, hosts: hosts, port: configuration.port)
        publicPaths = PublicPathCheck(directory: configuration.publicDirectory, pageRoutes: configuration.pageRoutes)
        idlePolicy = .allocate(capacity: 1)
        idlePolicy.initialize(to: lws_retry_bo_t())
        idlePolicy.pointee.secs_since_valid_ping = UInt16(clamping: configuration.idlePingSeconds)
        idlePolicy.pointee.secs_since_valid_hangup = UInt16(clamping: configuration.idlePingSeconds * 2)
        writeBufferCapacity = 64 * 1024
        writeBuffer = UnsafeMutableRawPointer.allocate(byteCount: writeBufferCapacity + kar_lws_pre(), alignment: 16)
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        mount = StaticMount(
            directory: configuration.publicDirectory, pageRoutes: configuration.pageRoutes, fileRoutes: configuration.fileRoutes,
            callbackRoutes: Dictionary(uniqueKeysWithValues: (Array(configuration.generatedRoutes.keys) + [MediaFiles.mountpoint]).map { ($0, "karaoke") }),
            extraMimeTypes: configuration.extraMimeTypes, cacheMaxAge: configuration.cacheMaxAge)
        if let host = configuration.host, host != "0.0.0.0", host != "::", !host.isEmpty {
            iface = strdup(host)
        } else {
            iface = nil
        }
        tlsStrings = configuration.tls.map(TLSVhostStrings.init)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = eventServerCallback
        protocols[0].per_session_data_size = MemoryLayout<ClientID>.size
        protocols[0].rx_buffer_size = 4096
    }

    deinit {
        writeBuffer.deallocate()
        protocols.deallocate()
        idlePolicy.deallocate()
        free(protocolName)
        if let iface { free(iface) }
    }

    /// Creates the context on a new thread and returns the bound ports once listening.
    func start() throws -> (plain: Int, tls: Int?) {
        let result = Mutex<Result<(plain: Int, tls: Int?), EventServerError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let softLimit = FileLimit.raiseToHard()
        let total = configuration.maxConnections ?? FileLimit.connectionBudget(softLimit: softLimit)
        budget = ConnectionBudget(limits: .init(perAddress: configuration.connectionsPerAddress, total: total))
        descriptorHighWater = max(32, softLimit - 128)
        let thread = Thread { [self] in
            lws_set_log_level(LLL_ERR | LLL_WARN, throttledLibraryLog)
            var info = lws_context_creation_info()
            // lws stops accepting at its own table size; keep it above the budget (evictions
            // happen first) and below the process limit (accept never fails with EMFILE).
            info.fd_limit_per_thread = UInt32(min(total + 32, max(64, softLimit - 32)))
            info.timeout_secs = UInt32(configuration.handshakeTimeout)
            info.timeout_secs_ah_idle = UInt32(configuration.handshakeTimeout)
            info.keepalive_timeout = Int32(max(1, min(5, configuration.handshakeTimeout)))
            info.ka_time = 60
            info.ka_probes = 3
            info.ka_interval = 10
            info.retry_and_idle_policy = UnsafePointer(idlePolicy)
            info.port = Int32(configuration.port)
            info.iface = UnsafePointer(iface)
            info.protocols = UnsafePointer(protocols)
            info.mounts = UnsafePointer(mount.head)
            info.user = Unmanaged.passUnretained(self).toOpaque()
            // lws's security-headers option, with `media-src 'self'` for background videos.
            info.headers = securityHeaders.head
            info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            // An IPv4 address to bind only resolves on an IPv4 socket (else lws listens on [::]).
            if let host = configuration.host, host.contains("."), !host.contains(":") {
                info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
            }
            // OpenSSL is set up once per context; the default (plain) vhost has no certificate,
            // so it stays plain HTTP.
            if tlsStrings != nil { info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) }
            guard let context = lws_create_context(&info) else {
                result.withLock { $0 = .failure(.cannotListen(host: configuration.host ?? "*", port: configuration.port)) }
                ready.signal()
                finished.signal()
                return
            }
            contextPointer.store(Int(bitPattern: UnsafeRawPointer(context)), ordering: .releasing)
            let port = Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")))
            originCheck = OriginCheck(allowedOrigins: configuration.allowedOrigins, hosts: hosts, port: port)
            var tlsPort: Int?
            if let tls = configuration.tls, let strings = tlsStrings {
                guard let vhost = createTLSVhost(context, base: info, strings: strings) else {
                    lws_context_destroy(context)
                    contextPointer.store(0, ordering: .releasing)
                    result.withLock {
                        $0 = .failure(.cannotListenTLS(host: configuration.host ?? "*", port: tls.port,
                                                       certificate: tls.files.certificatePath))
                    }
                    ready.signal()
                    finished.signal()
                    return
                }
                tlsVhost = vhost
                tlsPort = Int(lws_get_vhost_listen_port(vhost))
                tlsOriginCheck = OriginCheck(allowedOrigins: configuration.allowedOrigins, hosts: hosts, port: tlsPort!)
            }
            result.withLock { $0 = .success((port, tlsPort)) }
            ready.signal()
            var backoff: UInt32 = 0
            var acceptFailuresSeen = libraryAcceptFailures.load(ordering: .relaxed)
            while !stopRequested.load(ordering: .acquiring) {
                if lws_service(context, 0) < 0 { break }
                // lws tries a failed accept (EMFILE) again on every service pass: with nothing
                // to close, back off, 1 ms doubling to 100 ms while the failures go on.
                let failures = libraryAcceptFailures.load(ordering: .relaxed)
                if failures != acceptFailuresSeen {
                    acceptFailuresSeen = failures
                    // Closing idle connections frees descriptors at once; with none to close,
                    // wait for some to free.
                    if !outOfDescriptors() {
                        backoff = min(100_000, max(1_000, backoff * 2))
                        usleep(backoff)
                    }
                } else {
                    backoff = 0
                }
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

    func submit(contentsOf work: [PendingWork]) {
        pending.append(contentsOf: work)
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
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            let fd = Int32(truncatingIfNeeded: Int(bitPattern: input))
            return admitConnection(fd: fd)

        case LWS_CALLBACK_WSI_CREATE:
            if let address = admittedAddress {
                admittedAddress = nil
                budget.add(Int(bitPattern: wsi), address: address, now: MonotonicClock.now())
            }
            return 0

        case LWS_CALLBACK_WSI_DESTROY:
            let key = Int(bitPattern: wsi)
            mediaTransfers[key] = nil
            if let address = budget.address(of: key) {
                budget.remove(key)
                if budget.count(of: address) == 0 {
                    addressLimiters[address] = nil
                    audioLimiters[address] = nil
                }
            }
            return 0

        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            if let refusal = refuseRequest(wsi, webSocket: false) { return refusal }
            let path = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? "/"
            if let (source, name) = generatedRoute(path) {
                switch source.lookup(name) {
                case .file: return admitFile(wsi, path: path)
                case .notReady: _ = lws_return_http_status(wsi, 503, nil)
                case .unknown: _ = lws_return_http_status(wsi, 404, nil)
                }
                return 1
            }
            if !publicPaths.isInside(path) {
                statistics.withLock { $0.rejectedPaths += 1 }
                log("path", "refused \(path.prefix(200)): it leads outside the public folder")
                _ = lws_return_http_status(wsi, 404, nil)
                return 1
            }
            return admitFile(wsi, path: path)

        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            budget.endFile(Int(bitPattern: wsi))
            return lws_callback_http_dummy(wsi, reason, user, input, length)

        case LWS_CALLBACK_HTTP:
            // Only callback mounts get here (every other path has a file mount): a generated
            // route (cover thumbnails) by its whole path, else `/media/…` by the path after it.
            let uri = header(wsi, WSI_TOKEN_GET_URI) ?? ""
            if generatedRoute(uri) != nil { return serveGenerated(wsi, path: uri) }
            return serveMedia(wsi, input, length)

        case LWS_CALLBACK_HTTP_WRITEABLE:
            return sendMedia(wsi)

        case LWS_CALLBACK_CLOSED_HTTP:
            mediaTransfers[Int(bitPattern: wsi)] = nil
            budget.endFile(Int(bitPattern: wsi))
            return lws_callback_http_dummy(wsi, reason, user, input, length)

        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return refuseRequest(wsi, webSocket: true) ?? 0

        case LWS_CALLBACK_ESTABLISHED:
            let id = nextClientID
            nextClientID += 1
            user?.storeBytes(of: id, as: ClientID.self)
            budget.markWebSocket(Int(bitPattern: wsi))
            let connection = ClientConnection(
                id: id, wsi: wsi, queueLimits: configuration.queueLimits,
                rateLimiter: RateLimiter(limits: configuration.rateLimit, now: MonotonicClock.now()))
            connections[id] = connection
            statistics.withLock { $0.connectedClients = connections.count; $0.totalConnections += 1 }
            delegate.clientConnected(ClientInfo(id: id, peerAddress: peerAddress(wsi), origin: header(wsi, WSI_TOKEN_ORIGIN),
                                                overTLS: lws_is_ssl(wsi) != 0))
            return 0

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            // The client's close frame: its status says why (1001: the page is going away).
            guard let id = user?.load(as: ClientID.self), let connection = connections[id] else { return 0 }
            connection.peerCloseStatus = Self.closeStatus(input, length)
            return 0

        case LWS_CALLBACK_CLOSED:
            guard let id = user?.load(as: ClientID.self), let connection = connections.removeValue(forKey: id) else { return 0 }
            statistics.withLock { $0.connectedClients = connections.count }
            delegate.clientDisconnected(id, closeStatus: connection.peerCloseStatus)
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

    /// The generated-file source for a request path under one of `generatedRoutes`, and the
    /// name asked for (the rest of the path; a name with a slash is no name).
    private func generatedRoute(_ path: String) -> (any GeneratedFileSource, String)? {
        for (mountpoint, source) in configuration.generatedRoutes where path.hasPrefix(mountpoint + "/") {
            let name = String(path.dropFirst(mountpoint.count + 1))
            return (source, name.contains("/") || name.utf8.contains(0) ? "" : name)
        }
        return nil
    }

    /// Answers `LWS_CALLBACK_HTTP` on a generated route (the request's whole path): the file is
    /// whatever the source names for it.
    private func serveGenerated(_ wsi: OpaquePointer, path: String) -> Int32 {
        guard let (source, name) = generatedRoute(path), case .file(let file, let mimeType, let maxAge) = source.lookup(name) else {
            _ = lws_return_http_status(wsi, 404, nil)
            return -1
        }
        let headers = "Cache-Control: public, max-age=\(maxAge)\r\n"
        let served = headers.withCString { lws_serve_http_file(wsi, file, mimeType, $0, Int32(strlen($0))) }
        if served < 0 || (served > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }

    /// A `/media/<token>` request (lws passes the path after the mountpoint): the published
    /// file or the byte range asked for; anything unpublished is 404.
    private func serveMedia(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let path = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        guard let file = configuration.media.file(forRequest: path) else {
            statistics.withLock { $0.rejectedPaths += 1 }
            return MediaTransfer.status(wsi, 404)
        }
        let get = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
        let headOnly = !get && lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        guard get || headOnly else { return MediaTransfer.status(wsi, 405) }
        let rangeHeader = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_RANGE) > 0
            ? (header(wsi, WSI_TOKEN_HTTP_RANGE) ?? "malformed") : nil
        let (transfer, result) = MediaTransfer.begin(wsi, file: file, range: rangeHeader, headOnly: headOnly)
        if let transfer { mediaTransfers[Int(bitPattern: wsi)] = transfer } else { budget.endFile(Int(bitPattern: wsi)) }
        return result
    }

    private func sendMedia(_ wsi: OpaquePointer) -> Int32 {
        let key = Int(bitPattern: wsi)
        guard let transfer = mediaTransfers[key] else { return 0 }
        guard let finished = transfer.sendChunk(wsi, buffer: writeBuffer, capacity: writeBufferCapacity) else {
            mediaTransfers[key] = nil
            return -1
        }
        guard finished else { return 0 }
        mediaTransfers[key] = nil
        budget.endFile(key)
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    private func receive(_ connection: ClientConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let wsi = connection.wsi
        // Audio frames have their own size bound and per-address budget: 50 a second from a
        // phone would drown the message rate limit, and a frame needs no JSON work.
        if lws_frame_is_binary(wsi) != 0 { return receiveAudio(connection, input, length) }
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

        let now = MonotonicClock.now()
        var decision = connection.rateLimiter.admit(now: now)
        // Every connection of an address draws on one shared bucket too, so opening more
        // connections buys no more messages.
        if decision == .allow, let address = budget.address(of: Int(bitPattern: wsi)) {
            var shared = addressLimiters[address] ?? RateLimiter(limits: configuration.addressRateLimit, now: now)
            let sharedDecision = shared.admit(now: now)
            addressLimiters[address] = shared
            if sharedDecision != .allow {
                decision = now - connection.addressReported >= 1 ? .reject : .rejectQuietly
                if decision == .reject { connection.addressReported = now }
            }
        }
        switch decision {
        case .allow: break
        case .reject:
            statistics.withLock { $0.rateLimitedMessages += 1 }
            delegate.client(connection.id, violated: .rateLimited)
            return 0
        case .rejectQuietly:
            statistics.withLock { $0.rateLimitedMessages += 1 }
            return 0
        case .disconnect:
            log("flood", "client \(connection.id) from \(budget.address(of: Int(bitPattern: wsi)) ?? "?") keeps flooding: disconnecting")
            statistics.withLock { $0.rateLimitCloses += 1 }
            return closeNow(wsi, status: LWS_CLOSE_STATUS_POLICY_VIOLATION, reason: "flooding")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            delegate.client(connection.id, violated: .invalidText)
            return 0
        }
        delegate.client(connection.id, sent: text)
        return 0
    }

    /// ACKs an audio frame at once instead of by the delayed-ACK timer: a phone whose TCP keeps
    /// Nagle on (no TCP_NODELAY) holds its next 10 ms frame until the previous one is ACKed, so
    /// a delayed ACK made frames arrive in bunches 10–20 ms late (docs/phone-mics.md,
    /// "Glass-to-event"). Linux resets quick-ACK mode by itself, hence once per frame (one
    /// non-blocking setsockopt on the service thread).
    private static func acknowledgeNow(_ wsi: OpaquePointer?) {
        #if os(Linux)
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// A binary frame: phone microphone audio (`PhoneAudioFrame`). Refused (and reported once a
    /// second) from a client without a phone seat, which is closed if it keeps sending; a
    /// malformed or oversized frame, or one for another seat, closes only that client.
    private func receiveAudio(_ connection: ClientConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let wsi = connection.wsi
        if connection.inbound.count + length > PhoneAudioFrame.maxBytes {
            statistics.withLock { $0.oversizeCloses += 1 }
            return closeNow(wsi, status: LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
                            reason: "audio frame larger than \(PhoneAudioFrame.maxBytes) bytes")
        }
        if let input, length > 0 {
            connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        defer { connection.inbound.removeAll(keepingCapacity: true) }
        let now = MonotonicClock.now()
        guard let grant = phoneAudio?.grant(for: connection.id) else {
            connection.refusedAudioFrames += 1
            if connection.refusedAudioFrames > Self.refusedAudioFramesBeforeClose {
                log("audio", "client \(connection.id) keeps sending audio without a phone seat: disconnecting")
                return closeNow(wsi, status: LWS_CLOSE_STATUS_POLICY_VIOLATION, reason: "audio without a phone singer seat")
            }
            if now - connection.audioRefusalReported >= 1 {
                connection.audioRefusalReported = now
                delegate.client(connection.id, violated: .binaryFrame)
            }
            return 0
        }
        connection.refusedAudioFrames = 0
        return connection.inbound.withUnsafeBytes { bytes -> Int32 in
            let frame: PhoneAudioFrame
            do {
                frame = try PhoneAudioFrame.parse(bytes)
                if frame.seat != grant.seat { throw PhoneAudioFrameError.wrongSeat(sent: frame.seat, granted: grant.seat) }
            } catch {
                log("audio", "client \(connection.id): \(error): disconnecting")
                return closeNow(wsi, status: LWS_CLOSE_STATUS_INVALID_PAYLOAD, reason: "\(error)")
            }
            if let address = budget.address(of: Int(bitPattern: wsi)), let gate = phoneAudio {
                var limiter = audioLimiters[address] ?? RateLimiter(limits: gate.addressLimits, now: now)
                let decision = limiter.admit(now: now)
                audioLimiters[address] = limiter
                switch decision {
                case .allow: break
                case .reject, .rejectQuietly:
                    statistics.withLock { $0.rateLimitedMessages += 1 }
                    return 0
                case .disconnect:
                    log("flood", "client \(connection.id) from \(address) floods audio frames: disconnecting")
                    statistics.withLock { $0.rateLimitCloses += 1 }
                    return closeNow(wsi, status: LWS_CLOSE_STATUS_POLICY_VIOLATION, reason: "audio flooding")
                }
            }
            grant.receiver.receive(frame, samples: UnsafeRawBufferPointer(rebasing: bytes[PhoneAudioFrame.headerBytes...]))
            Self.acknowledgeNow(wsi)
            return 0
        }
    }

    /// Refused audio frames in a row (about 5 s of a phone's stream) before the sender is closed:
    /// a phone whose seat was just released stops well within that.
    private static let refusedAudioFramesBeforeClose = 250

    /// Most messages written to one client per writable callback: enough for the events one
    /// room tick encodes together (a `line` and the `state`), few enough that one client with a
    /// backlog cannot hold the loop while the others wait.
    static let messagesPerWritable = 8
    /// Most bytes of further messages joined to the first in one write.
    static let bytesPerWrite = 64 * 1024

    private func write(_ connection: ClientConnection) -> Int32 {
        connection.writeRequested = false
        if let close = connection.pendingClose, connection.queue.isEmpty {
            return closeNow(connection.wsi, status: lws_close_status(rawValue: UInt32(close.status)), reason: close.reason)
        }
        // The queued messages leave framed here, together, in one `send()`: one write per
        // message made each client cost two syscalls for a tick's `line` + `state`, and the
        // second reached the last of 1,000 clients a whole fan-out later (docs/server-load.md).
        guard let first = connection.queue.peek() else { return 0 }
        var count = 1
        var total = WebSocketFrameHeader.length(payloadLength: first.bytes.count) + first.bytes.count
        while count < Self.messagesPerWritable, let next = connection.queue.peek(count) {
            let framed = WebSocketFrameHeader.length(payloadLength: next.bytes.count) + next.bytes.count
            guard total + framed <= Self.bytesPerWrite else { break }
            total += framed
            count += 1
        }
        if total > writeBufferCapacity {
            writeBuffer.deallocate()
            writeBufferCapacity = total
            writeBuffer = UnsafeMutableRawPointer.allocate(byteCount: total + preamble, alignment: 16)
        }
        let start = writeBuffer.advanced(by: preamble)
        var offset = 0
        for index in 0..<count {
            guard let message = connection.queue.peek(index) else { break }
            offset += WebSocketFrameHeader.writeText(payloadLength: message.bytes.count, to: start.advanced(by: offset))
            message.bytes.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { start.advanced(by: offset).copyMemory(from: base, byteCount: bytes.count) }
            }
            offset += message.bytes.count
        }
        // LWS_WRITE_RAW on a WebSocket connection: lws sends the bytes as they are (through TLS
        // when the connection has it) and keeps any part the socket did not take for later.
        let written = lws_write(connection.wsi, start.assumingMemoryBound(to: UInt8.self), offset, kar_lws_write_raw())
        if written < offset { return -1 }
        messageWrites += 1
        let now = MonotonicClock.now()
        for _ in 0..<count {
            guard let message = connection.queue.dequeue() else { break }
            deliveries.record(milliseconds: (now - message.createdAt) * 1000)
            if deliveries.count % 256 == 0 { publishDeliveries() }
        }
        if !connection.queue.isEmpty || connection.pendingClose != nil { requestWrite(connection) }
        return 0
    }

    private func publishDeliveries() {
        let (snapshot, writes) = (deliveries, messageWrites)
        statistics.withLock {
            $0.deliveries = snapshot
            $0.messageWrites = writes
        }
    }

    private func distributePending() {
        let work = pending.drain()
        guard !work.isEmpty else { return }
        var evicted: [ClientConnection] = []
        for item in work {
            switch item {
            case .broadcast(let message):
                for connection in connections.values where connection.greeted {
                    enqueue(message, on: connection, evicted: &evicted)
                }
            case .send(let message, let id):
                if let connection = connections[id] {
                    connection.greeted = true
                    enqueue(message, on: connection, evicted: &evicted)
                }
            case .close(let id, let status, let reason):
                if let connection = connections[id] {
                    connection.pendingClose = (status, reason)
                    requestWrite(connection)
                }
            }
        }
        for connection in evicted where connections[connection.id] != nil {
            log("slow", "client \(connection.id) cannot keep up (\(connection.queue.count) essential messages queued): disconnecting")
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

    /// The status of a close frame's payload (its first two bytes, big-endian); 1005 ("no status
    /// received") for a close frame without one.
    static func closeStatus(_ payload: UnsafeMutableRawPointer?, _ length: Int) -> UInt16 {
        guard let payload, length >= 2 else { return 1005 }
        let bytes = payload.assumingMemoryBound(to: UInt8.self)
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    private static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new TCP connection: refused when its address holds too many; when the server is
    /// full, an older connection is closed to make room (see `ConnectionBudget`).
    private func admitConnection(fd: Int32) -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let peer = lws_get_peer_simple_fd(fd, &buffer, buffer.count) != nil ? Self.string(buffer) : "?"
        let address = ClientAddress.key(peer)
        switch budget.admit(address, descriptorsLow: Int(fd) >= descriptorHighWater) {
        case .accept: break
        case .acceptEvicting(let victim):
            statistics.withLock { $0.evictedConnections += 1 }
            log("evict", "at the limit of \(budget.limits.total) connections or near the open-file limit (descriptor \(fd)): closing the oldest idle one to admit \(address)")
            if let victimWsi = OpaquePointer(bitPattern: victim) { kar_lws_kill_async(victimWsi) }
        case .refuse:
            statistics.withLock { $0.refusedConnections += 1 }
            log("refuse", "refused a connection from \(address): it already has \(budget.count(of: address)) open")
            return 1
        }
        admittedAddress = address
        return 0
    }

    /// Lets an HTTP request that passed the checks go on to open its file, or answers 503 when
    /// its address already has its share of files in flight or the server has no descriptor to
    /// spare for one (`ConnectionBudget.beginFile`): a crowd of slow readers must never take the
    /// descriptors the next guest's connection needs.
    private func admitFile(_ wsi: OpaquePointer, path: String) -> Int32 {
        let key = Int(bitPattern: wsi)
        let admission = budget.beginFile(key)
        guard admission != .open else {
            Self.boundSendBuffer(wsi)
            return 0
        }
        let address = budget.address(of: key) ?? "?"
        statistics.withLock { $0.busyFileRefusals += 1 }
        switch admission {
        case .addressBusy:
            log("files", "503 for \(path.prefix(200)) to \(address): it already has \(budget.files(of: address)) files being sent")
        default:
            log("files", "503 for \(path.prefix(200)) to \(address): \(budget.descriptors) descriptors held by connections and files (limit \(budget.limits.total))")
        }
        ServiceUnavailable.respond(wsi, retryAfterSeconds: 1)
        return 1
    }

    /// Bytes of a file the kernel may hold for one reader. Left to grow, the buffers of 224 slow
    /// readers kept the service thread copying file data into the kernel (tcp_sendmsg and
    /// lws's timeout list led the profile) and new guests still waited 0.4-2.4 s for hello on
    /// a loaded machine; bounded, 1-8 ms.
    static let fileSendBufferBytes: Int32 = 64 * 1024

    private static func boundSendBuffer(_ wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var bytes = fileSendBufferBytes
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `accept` failed for want of descriptors: close the oldest idle connections so that the
    /// ones waiting in the kernel's backlog get in.
    private func outOfDescriptors() -> Bool {
        let victims = budget.makeRoom(32)
        statistics.withLock { $0.evictedConnections += victims.count }
        log("descriptors", "out of file descriptors: closing \(victims.count) idle connections")
        for victim in victims {
            if let wsi = OpaquePointer(bitPattern: victim) { kar_lws_kill_async(wsi) }
        }
        return !victims.isEmpty
    }

    /// Refuses (returns nonzero) a request for a foreign host name or from a foreign origin.
    private func refuseRequest(_ wsi: OpaquePointer, webSocket: Bool) -> Int32? {
        let host = header(wsi, WSI_TOKEN_HOST)
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        let kind = webSocket ? "WebSocket" : "HTTP request"
        if !hosts.accepts(hostHeader: host) {
            statistics.withLock { $0.rejectedHosts += 1 }
            log("host", "refused \(kind) for host \(host?.prefix(100) ?? "-") from \(peerAddress(wsi)): not one of this server's names (--allow-host)")
            if !webSocket { _ = lws_return_http_status(wsi, 421, nil) }
            return 1
        }
        let origins = lws_get_vhost(wsi) == tlsVhost ? (tlsOriginCheck ?? originCheck) : originCheck
        if !origins.accepts(origin: origin, host: host) {
            statistics.withLock { $0.rejectedOrigins += 1 }
            log("origin", "refused \(kind) from origin \(origin?.prefix(100) ?? "-") (\(peerAddress(wsi))): not this server's (--allow-origin)")
            if !webSocket { _ = lws_return_http_status(wsi, 403, nil) }
            return 1
        }
        return nil
    }

    /// Logs a warning unless this kind already filled its share of the log (`LogThrottle`).
    private func log(_ kind: String, _ message: @autoclosure () -> String) {
        guard case .log(let suppressed) = logThrottle.admit(kind, now: MonotonicClock.now()) else { return }
        let note = suppressed > 0 ? " (\(suppressed) more like it not logged)" : ""
        logger.warning("\(message())\(note)")
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

/// lws's own log lines (e.g. `accept: Too many open files`), at most a few per kind per 10 s.
private let libraryLogThrottle = Mutex(LogThrottle(burst: 5, window: 10))

/// Failed `accept` calls lws reported, for the service loop's back-off.
private let libraryAcceptFailures = Atomic<Int>(0)

private func throttledLibraryLog(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasPrefix("accept") { libraryAcceptFailures.add(1, ordering: .relaxed) }
    let kind = String(text.filter { !$0.isNumber }.prefix(40))
    let verdict = libraryLogThrottle.withLock { $0.admit(kind, now: MonotonicClock.now()) }
    guard case .log(let suppressed) = verdict else { return }
    let note = suppressed > 0 ? " (\(suppressed) more like it not logged)" : ""
    FileHandle.standardError.write(Data("lws: \(text)\(note)\n".utf8))
}
