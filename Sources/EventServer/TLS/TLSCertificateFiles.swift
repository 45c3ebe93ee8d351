/// A certificate chain and its private key, as PEM files libwebsockets loads.
public struct TLSCertificateFiles: Sendable, Equatable {
    public let certificatePath: String
    public let privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }

    /// Checks a host's own `--cert`/`--key` before the server starts: both readable PEM, the key
    /// the certificate's. Returns warnings that do not stop the server (expired, not yet valid,
    /// a name guests use that the certificate does not cover).
    public func check(expectedNames: [String]) throws -> [String] {
        let certificate = try PEMCertificate(path: certificatePath)
        let key = try PEMPrivateKey(path: privateKeyPath)
        guard certificate.matches(key) else {
            throw TLSCertificateError.keyDoesNotMatch(certificate: certificatePath, key: privateKeyPath)
        }
        var warnings: [String] = []
        if certificate.secondsUntilExpiry < 0 {
            warnings.append("\(certificatePath): expired \(-certificate.secondsUntilExpiry / 86_400) day(s) ago; browsers will refuse it")
        } else if certificate.secondsUntilValid > 0 {
            warnings.append("\(certificatePath): not valid yet (from \(certificate.secondsUntilValid / 3600) h from now)")
        }
        let missing = certificate.names.missing(from: CertificateNames(dnsNames: expectedNames.filter { !HostAllowList.isAddress($0) },
                                                                      ipAddresses: expectedNames.filter { HostAllowList.isAddress($0) }))
        if !missing.isEmpty {
            warnings.append("\(certificatePath): does not name \(missing.joined(separator: ", ")); browsers reaching the room by that name will warn")
        }
        return warnings
    }
}
