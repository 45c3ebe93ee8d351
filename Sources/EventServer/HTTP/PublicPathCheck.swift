import Foundation

/// Makes sure an HTTP path served from `public/` stays inside it. lws decodes `%xx` and folds
/// `..` before mounts see the path, but follows symlinks; this resolves the file the mount
/// would open (symlinks included) and refuses it when it lies outside the folder.
struct PublicPathCheck: Sendable {
    private let root: String
    private let resolvedRoot: String
    /// Mountpoints other than `/`, longest first (`/remote` → `remote.html`).
    private let routes: [(mountpoint: String, page: String)]

    init(directory: String, pageRoutes: [String: String]) {
        root = URL(fileURLWithPath: directory).standardizedFileURL.path
        resolvedRoot = Self.realPath(root) ?? root
        routes = pageRoutes.map { ($0.key, $0.value) }.sorted { $0.mountpoint.count > $1.mountpoint.count }
    }

    /// Is the file for this request path (as lws passes it to the filter) inside the folder?
    /// A path naming nothing is "inside": lws answers it with 404 itself.
    func isInside(_ path: String) -> Bool {
        if path.utf8.contains(0) { return false }
        var relative = path
        var page = "index.html"
        for route in routes where path == route.mountpoint || path.hasPrefix(route.mountpoint + "/") {
            relative = String(path.dropFirst(route.mountpoint.count))
            page = route.page
            break
        }
        if relative.isEmpty || relative.hasSuffix("/") { relative += page }
        let candidate = root + (relative.hasPrefix("/") ? relative : "/" + relative)
        guard let resolved = Self.realPath(candidate) else { return !Self.exists(candidate) }
        return resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True for anything at the path, a dangling symlink included.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
