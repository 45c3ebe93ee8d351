/// HTTPS and WSS on a second port beside the plain HTTP one (same pages, same WebSocket, same
/// checks: host names, origins, per-address limits and timeouts).
public struct TLSListener: Sendable, Equatable {
    /// TCP port; 0 lets the kernel choose (read it back from `EventServer.tlsPort`).
    public var port: Int
    public var files: TLSCertificateFiles

    public init(port: Int, files: TLSCertificateFiles) {
        self.port = port
        self.files = files
    }
}
