import EventServer
import Foundation
import Logging
import RoomProtocol

/// `serve --tls`: the certificate to serve with — the host's own (`--cert/--key`, checked
/// first) or the room's self-signed one in `scores/tls/` — and what to tell the host about it.
enum TLSSetup {
    struct Prepared {
        let listener: TLSListener
        /// One line for the banner: which certificate, and whether it is new.
        let summary: String
        /// What the pages show guests about it (`hello.certificate`).
        let notice: CertificatePayload
    }

    static func prepare(port: Int, certificate: String?, key: String?, scoresDirectory: String,
                        names: [String], joinHost: String, logger: Logger) throws -> Prepared {
        if let certificate, let key {
            let files = TLSCertificateFiles(certificatePath: certificate, privateKeyPath: key)
            for warning in try files.check(expectedNames: [joinHost]) { logger.warning("TLS: \(warning)") }
            return Prepared(listener: TLSListener(port: port, files: files), summary: "\(certificate) (--cert)",
                            notice: CertificatePayload(fingerprint: try PEMCertificate(path: certificate).sha256Fingerprint, selfSigned: false))
        }
        let store = SelfSignedCertificateStore(directory: (scoresDirectory as NSString).appendingPathComponent("tls"))
        let outcome = try store.prepare(names: CertificateNames.forThisMachine(extra: names))
        let path = store.files.certificatePath
        let summary: String
        switch outcome {
        case .reused:
            summary = "\(path) (self-signed, reused)"
        case .repaired(let note):
            logger.warning("TLS: \(note)")
            summary = "\(path) (self-signed, reused)"
        case .created(let reason):
            logger.notice("TLS: made a new self-signed certificate \(path): \(reason). Browsers warn about it once per device (docs/tls.md).")
            summary = "\(path) (self-signed, made now)"
        }
        let fingerprint = try PEMCertificate(path: path).sha256Fingerprint
        return Prepared(listener: TLSListener(port: port, files: store.files), summary: summary,
                        notice: CertificatePayload(fingerprint: fingerprint, selfSigned: true))
    }
}
