import Foundation
import SongModel
#if canImport(Glibc)
import Glibc
#endif

/// Opens files from song folders without trusting what they are: a FIFO named `backing.ogg`
/// would block `open` forever, a device would never end. The file is opened non-blocking
/// (a FIFO's open returns at once), checked with `fstat` on the very descriptor that will be
/// read (no race between a check and the open), and only a regular file is handed back.
public enum SafeFile {
    /// What `path` is when it is not a regular file ("a FIFO", "a folder" …), nil when it is one
    /// (symbolic links followed) or does not exist.
    public static func irregularKind(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(info.st_mode)
    }

    /// An open handle on the regular file at `path`; the error names the path and the problem.
    public static func open(path: String) throws(SongFileError) -> FileHandle {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw SongFileError(path: path, line: nil, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw SongFileError(path: path, line: nil, message: "cannot read: \(message)")
        }
        if let kind = kind(info.st_mode) {
            close(fd)
            throw SongFileError(path: path, line: nil, message: "is \(kind), not a regular file; it is not read")
        }
        // Regular files never block; clear the flag so reads behave as usual.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Whether `path`, with symbolic links and `..` resolved, lies inside `folder` (also resolved).
    public static func isInside(_ path: String, folder: String) -> Bool {
        let base = resolved(folder)
        let target = resolved(path)
        return target.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// `realpath` of the longest existing prefix, with the rest appended (a missing file still
    /// resolves its folder's links).
    static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let standard = (absolute as NSString).standardizingPath
        if let real = realpath(standard, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let parent = (standard as NSString).deletingLastPathComponent
        guard parent != standard, !parent.isEmpty else { return standard }
        return (resolved(parent) as NSString).appendingPathComponent((standard as NSString).lastPathComponent)
    }
}
