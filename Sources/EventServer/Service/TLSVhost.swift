import CWebSockets
import Foundation

/// C strings the TLS vhost's creation info points at; they live as long as the loop object.
final class TLSVhostStrings: @unchecked Sendable {
    let name = strdup("tls")!
    let certificate: UnsafeMutablePointer<CChar>
    let privateKey: UnsafeMutablePointer<CChar>
    /// HTTP/1.1 only: over HTTP/2 the host name arrives as `:authority`, not `Host`, and the
    /// host and origin checks (and the request handling they guard) are written for HTTP/1.1.
    let alpn = strdup("http/1.1")!

    init(_ listener: TLSListener) {
        certificate = strdup(listener.files.certificatePath)!
        privateKey = strdup(listener.files.privateKeyPath)!
    }

    deinit {
        free(name)
        free(certificate)
        free(privateKey)
        free(alpn)
    }
}

extension EventLoopThread {
    /// A second vhost on the TLS port, with the plain vhost's pages, protocol, limits and
    /// timeouts (`base`) and the certificate. nil when the port cannot be bound or lws
    /// refuses the certificate or key.
    func createTLSVhost(_ context: OpaquePointer, base: lws_context_creation_info,
                        strings: TLSVhostStrings) -> OpaquePointer? {
        guard let tls = configuration.tls else { return nil }
        var info = base
        info.port = Int32(tls.port)
        info.vhost_name = UnsafePointer(strings.name)
        info.ssl_cert_filepath = UnsafePointer(strings.certificate)
        info.ssl_private_key_filepath = UnsafePointer(strings.privateKey)
        info.alpn = UnsafePointer(strings.alpn)
        // The same security headers as plain HTTP (`base.headers`) and no
        // Strict-Transport-Security: HSTS holds per host name, not per port, so it would make a
        // browser refuse the plain port the display screens use (a test checks it stays absent).
        info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) | UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
        return lws_create_vhost(context, &info)
    }
}
