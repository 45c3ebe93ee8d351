import CWebSockets
import Foundation

/// Headers every HTTP answer carries: what lws's `HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE`
/// option sends, plus `media-src 'self'` so pages may play a song's background video from
/// `/media/…` (the option's fixed policy, `default-src 'none'`, blocks every `<video>`).
/// lws keeps raw pointers into the list, so the memory lives until the context is destroyed.
final class SecurityHeaders: @unchecked Sendable {
    static let contentSecurityPolicy = "default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; "
        + "style-src 'self'; media-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none';form-action 'self';"

    static let all: [(String, String)] = [
        ("content-security-policy:", contentSecurityPolicy),
        ("x-content-type-options:", "nosniff"),
        ("x-xss-protection:", "1; mode=block"),
        ("x-frame-options:", "deny"),
        ("referrer-policy:", "no-referrer"),
    ]

    /// Head of the list, for `lws_context_creation_info.headers`.
    let head: UnsafePointer<lws_protocol_vhost_options>?
    private var options: [UnsafeMutablePointer<lws_protocol_vhost_options>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init() {
        var next: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (name, value) in Self.all.reversed() {
            let option = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
            option.initialize(to: lws_protocol_vhost_options())
            let nameCopy = strdup(name)!, valueCopy = strdup(value)!
            strings += [nameCopy, valueCopy]
            option.pointee.next = UnsafePointer(next)
            option.pointee.name = UnsafePointer(nameCopy)
            option.pointee.value = UnsafePointer(valueCopy)
            options.append(option)
            next = option
        }
        head = UnsafePointer(next)
    }

    deinit {
        for option in options { option.deallocate() }
        for string in strings { free(string) }
    }
}
