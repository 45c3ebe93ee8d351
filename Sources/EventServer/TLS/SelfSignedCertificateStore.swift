import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The room's own self-signed certificate, kept in one folder (`scores/tls/`): made on the
/// first `serve --tls`, reused after that so guests who accepted it once are not asked again,
/// and made anew (saying why) when it is unreadable, expired, or does not name the machine's
/// current addresses. The private key file is `0600`, the folder `0700`.
public struct SelfSignedCertificateStore: Sendable {
    public let directory: String
    public var files: TLSCertificateFiles {
        TLSCertificateFiles(certificatePath: directory + "/cert.pem", privateKeyPath: directory + "/key.pem")
    }
    /// A certificate expiring within this many seconds is replaced now, not mid-party.
    public static let renewWithin = 86_400

    public enum Outcome: Sendable, Equatable {
        case reused
        /// A new certificate; `reason` says why (first start, expired, unreadable, new names).
        case created(reason: String)
        /// Reused, after fixing something about it (e.g. the key's permissions).
        case repaired(note: String)
    }

    public init(directory: String) {
        self.directory = directory
    }

    /// Returns the files to serve with and what was done. Throws only when a new certificate
    /// cannot be made or written.
    public func prepare(names: CertificateNames) throws -> Outcome {
        try makeDirectory()
        let files = files
        let manager = FileManager.default
        let reason: String
        var keepNames = CertificateNames()
        if !manager.fileExists(atPath: files.certificatePath), !manager.fileExists(atPath: files.privateKeyPath) {
            reason = "first start: no certificate in \(directory) yet"
        } else {
            do {
                let certificate = try PEMCertificate(path: files.certificatePath)
                let key = try PEMPrivateKey(path: files.privateKeyPath)
                keepNames = certificate.names
                let missing = keepNames.missing(from: names)
                if !certificate.matches(key) {
                    reason = "\(files.privateKeyPath) is not the key of \(files.certificatePath)"
                } else if certificate.secondsUntilExpiry < Self.renewWithin {
                    reason = certificate.secondsUntilExpiry < 0
                        ? "\(files.certificatePath) expired \(-certificate.secondsUntilExpiry / 86_400) day(s) ago"
                        : "\(files.certificatePath) expires within a day"
                } else if certificate.secondsUntilValid > 3600 {
                    reason = "\(files.certificatePath) is not valid until \(certificate.secondsUntilValid / 3600) h from now (clock changed?)"
                } else if !missing.isEmpty {
                    reason = "\(files.certificatePath) does not name \(missing.joined(separator: ", ")) (this machine's current names)"
                } else {
                    return try tightenKeyPermissions()
                }
            } catch {
                reason = "\(error)"
            }
        }
        // Keep the names the old certificate had (an interface that is down today comes back).
        var all = names
        for name in keepNames.all { all.add(name) }
        let made = try SelfSignedCertificate.make(names: all)
        try write(made.privateKey, to: files.privateKeyPath, mode: 0o600)
        try write(made.certificate, to: files.certificatePath, mode: 0o644)
        return .created(reason: reason)
    }

    private func makeDirectory() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSCertificateError.cannotWrite(path: directory, reason: error.localizedDescription)
        }
    }

    private func tightenKeyPermissions() throws -> Outcome {
        var info = stat()
        guard stat(files.privateKeyPath, &info) == 0 else { return .reused }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 != 0 else { return .reused }
        guard chmod(files.privateKeyPath, 0o600) == 0 else {
            throw TLSCertificateError.cannotWrite(path: files.privateKeyPath, reason: "chmod 600: \(String(cString: strerror(errno)))")
        }
        return .repaired(note: "\(files.privateKeyPath) was readable by others (mode \(String(mode, radix: 8))): now 600")
    }

    /// Writes through a new file created with `mode` (never briefly world-readable), then renames.
    private func write(_ text: String, to path: String, mode: mode_t) throws {
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TLSCertificateError.cannotWrite(path: temporary, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw TLSCertificateError.cannotWrite(path: temporary, reason: reason)
            }
            offset += written
        }
        fchmod(fd, mode)  // the umask may have narrowed it; never widened beyond `mode`
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TLSCertificateError.cannotWrite(path: path, reason: reason)
        }
    }
}
