import CWebSockets
import Foundation

/// The lws HTTP mounts serving `public/`: `/` plus one mount per page route, with the
/// extra MIME types and caching policy. lws keeps raw pointers to all of it, so the
/// memory is owned here and freed only after the context is destroyed.
public final class StaticMount: @unchecked Sendable {
    /// Types lws 4.1 does not serve by default (it answers 415 for unknown extensions).
    public static let defaultExtraMimeTypes: [String: String] = [
        ".mjs": "text/javascript",
        ".map": "application/json",
        ".webmanifest": "application/manifest+json",
        ".wasm": "application/wasm",
        ".mp3": "audio/mpeg",
        ".ogg": "audio/ogg",
        ".wav": "audio/wav",
        ".jpg": "image/jpeg",
        ".jpeg": "image/jpeg",
        ".webp": "image/webp",
        ".woff": "font/woff",
        ".svg": "image/svg+xml",
        ".ico": "image/x-icon",
        ".txt": "text/plain; charset=utf-8",
    ]

    /// Head of the mount list, for `lws_context_creation_info.mounts`.
    let head: UnsafeMutablePointer<lws_http_mount>
    private var mounts: [UnsafeMutablePointer<lws_http_mount>] = []
    private var options: [UnsafeMutablePointer<lws_protocol_vhost_options>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(directory: String, pageRoutes: [String: String], fileRoutes: [String: String] = [:],
         callbackRoutes: [String: String] = [:], extraMimeTypes: [String: String], cacheMaxAge: Int) {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        // Mime list shared by every mount.
        var mimeHead: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (ext, type) in extraMimeTypes.sorted(by: { $0.key < $1.key }) {
            let option = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
            option.initialize(to: lws_protocol_vhost_options())
            option.pointee.next = UnsafePointer(mimeHead)
            option.pointee.name = UnsafePointer(StaticMount.keep(ext, in: &strings))
            option.pointee.value = UnsafePointer(StaticMount.keep(type, in: &strings))
            options.append(option)
            mimeHead = option
        }
        // Longer mountpoints first so "/remote" wins over "/".
        let routes = [("/", "index.html", root)] + pageRoutes.sorted { $0.key < $1.key }.map { ($0.key, $0.value, root) }
            + fileRoutes.sorted { $0.key < $1.key }.map { route in
                let file = URL(fileURLWithPath: route.value).standardizedFileURL
                return (route.key, file.lastPathComponent, file.deletingLastPathComponent().path)
            }
        var next: UnsafeMutablePointer<lws_http_mount>?
        // Routes answered by a protocol's callback (origin = the protocol's name).
        for (mountpoint, protocolName) in callbackRoutes.sorted(by: { $0.key < $1.key }) {
            let mount = UnsafeMutablePointer<lws_http_mount>.allocate(capacity: 1)
            mount.initialize(to: lws_http_mount())
            mount.pointee.mount_next = UnsafePointer(next)
            mount.pointee.mountpoint = UnsafePointer(StaticMount.keep(mountpoint, in: &strings))
            mount.pointee.mountpoint_len = UInt8(mountpoint.utf8.count)
            mount.pointee.origin = UnsafePointer(StaticMount.keep(protocolName, in: &strings))
            mount.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            mounts.append(mount)
            next = mount
        }
        for (mountpoint, page, origin) in routes {
            let mount = UnsafeMutablePointer<lws_http_mount>.allocate(capacity: 1)
            mount.initialize(to: lws_http_mount())
            mount.pointee.mount_next = UnsafePointer(next)
            mount.pointee.mountpoint = UnsafePointer(StaticMount.keep(mountpoint, in: &strings))
            mount.pointee.mountpoint_len = UInt8(mountpoint.utf8.count)
            mount.pointee.origin = UnsafePointer(StaticMount.keep(origin, in: &strings))
            mount.pointee.def = UnsafePointer(StaticMount.keep(page, in: &strings))
            mount.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
            mount.pointee.extra_mimetypes = UnsafePointer(mimeHead)
            mount.pointee.cache_max_age = Int32(cacheMaxAge)
            mount.pointee.cache_reusable = 1
            mount.pointee.cache_revalidate = 1
            mounts.append(mount)
            next = mount
        }
        head = next!
    }

    private static func keep(_ text: String, in strings: inout [UnsafeMutablePointer<CChar>]) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    deinit {
        for mount in mounts { mount.deallocate() }
        for option in options { option.deallocate() }
        for string in strings { free(string) }
    }
}
