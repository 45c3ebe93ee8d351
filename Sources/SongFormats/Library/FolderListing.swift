import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One file of a folder as the library index remembers it: a change of name, size or
/// modification time means the folder must be read again.
public struct FileStamp: Codable, Hashable, Sendable {
    public var name: String
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64

    public init(name: String, size: Int64, modified: Int64) {
        self.name = name
        self.size = size
        self.modified = modified
    }
}

/// The entries of one folder from `readdir` + `lstat` (no symbolic link is followed, so a
/// link loop in a song tree cannot make the walk endless). Hidden names are left out.
public struct FolderListing: Codable, Hashable, Sendable {
    /// Regular files and symbolic links to files (the song reader refuses what it must), sorted.
    public var files: [FileStamp]
    /// Real sub-folders (not links), sorted.
    public var subfolders: [String]
    /// The folder's own modification time (changes when an entry is added, removed or renamed).
    public var modified: Int64

    public init(files: [FileStamp], subfolders: [String], modified: Int64) {
        self.files = files
        self.subfolders = subfolders
        self.modified = modified
    }

    public var fileNames: [String] { files.map(\.name) }

    /// Lists `path`, or nil when it is not a readable folder.
    public static func read(_ path: String) -> FolderListing? {
        guard let own = Self.stamp(path) else { return nil }
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var files: [FileStamp] = []
        var subfolders: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: subfolders.append(name)
            case S_IFREG, S_IFLNK:
                files.append(FileStamp(name: name, size: Int64(info.st_size), modified: nanoseconds(info.st_mtim)))
            default:
                // FIFOs, devices, sockets: listed so the reader can refuse them by name.
                files.append(FileStamp(name: name, size: -1, modified: nanoseconds(info.st_mtim)))
            }
        }
        return FolderListing(files: files.sorted { $0.name < $1.name }, subfolders: subfolders.sorted(), modified: own)
    }

    /// The folder's modification time, or nil when it is not a folder.
    public static func stamp(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return nanoseconds(info.st_mtim)
    }

    static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
}
