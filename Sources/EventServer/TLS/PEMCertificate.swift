import COpenSSL
import Foundation

/// A certificate read from a PEM file with OpenSSL: its expiry and the names it covers.
public final class PEMCertificate {
    let x509: OpaquePointer
    public let path: String

    /// Reads the first certificate of a PEM file.
    public init(path: String) throws {
        let text = try PEMFile.read(path)
        guard let x509 = PEMFile.withBIO(text, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSCertificateError.notPEM(path: path, what: "certificate", detail: TLSCertificateError.openSSLErrors())
        }
        self.x509 = x509
        self.path = path
    }

    deinit { X509_free(x509) }

    /// Seconds from now until the certificate expires (negative once expired).
    public var secondsUntilExpiry: Int {
        var days: Int32 = 0, seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notAfter(x509)) == 1 else { return -1 }
        return Int(days) * 86_400 + Int(seconds)
    }

    /// Seconds from now until the certificate becomes valid (positive = not yet valid).
    public var secondsUntilValid: Int {
        var days: Int32 = 0, seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notBefore(x509)) == 1 else { return 0 }
        return Int(days) * 86_400 + Int(seconds)
    }

    /// The subjectAltName entries (DNS names and IP addresses), as `CertificateNames`.
    public var names: CertificateNames {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return CertificateNames() }
        let list = OpaquePointer(raw)
        defer { kar_general_names_free(list) }
        var dns: [String] = [], ips: [String] = []
        for index in 0..<kar_general_names_count(list) {
            guard let name = kar_general_name(list, index) else { continue }
            switch name.pointee.type {
            case GEN_DNS:
                if let text = Self.text(name.pointee.d.dNSName) { dns.append(text) }
            case GEN_IPADD:
                if let text = Self.address(name.pointee.d.iPAddress) { ips.append(text) }
            default: break
            }
        }
        return CertificateNames(dnsNames: dns, ipAddresses: ips)
    }

    /// The SHA-256 fingerprint as browsers show it in a certificate's details ("AB:CD:…", 32 bytes):
    /// what a guest compares before accepting a self-signed certificate.
    public var sha256Fingerprint: String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(x509, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// Does the private key in `key` belong to this certificate?
    public func matches(_ key: PEMPrivateKey) -> Bool {
        X509_check_private_key(x509, key.pkey) == 1
    }

    private static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    private static func text(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
        bytes(string).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func address(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
        guard let octets = bytes(string), octets.count == 4 || octets.count == 16 else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let family = octets.count == 4 ? AF_INET : AF_INET6
        let ok = octets.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}

/// A private key read from a PEM file with OpenSSL.
public final class PEMPrivateKey {
    let pkey: OpaquePointer
    public let path: String

    public init(path: String) throws {
        let text = try PEMFile.read(path)
        guard let pkey = PEMFile.withBIO(text, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSCertificateError.notPEM(path: path, what: "private key", detail: TLSCertificateError.openSSLErrors())
        }
        self.pkey = pkey
        self.path = path
    }

    deinit { EVP_PKEY_free(pkey) }
}

enum PEMFile {
    static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = access(path, F_OK) != 0 ? "no such file" : access(path, R_OK) != 0 ? "permission denied" : "\(error.localizedDescription)"
            throw TLSCertificateError.unreadable(path: path, reason: reason)
        }
    }

    /// Runs `body` with a read-only memory BIO over `data`.
    static func withBIO<T>(_ data: Data, _ body: (OpaquePointer) -> T?) -> T? {
        data.withUnsafeBytes { buffer -> T? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
