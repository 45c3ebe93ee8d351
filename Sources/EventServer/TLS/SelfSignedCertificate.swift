import COpenSSL
import Foundation

/// Makes a self-signed server certificate with OpenSSL: a P-256 ECDSA key, SHA-256 signature,
/// the given names as subjectAltName, `CA:FALSE` and `serverAuth` (what browsers require of a
/// server certificate, Firefox in particular refuses a CA certificate used as a server's).
public enum SelfSignedCertificate {
    /// 397 days: the longest any browser accepts for a server certificate (Safari limits
    /// certificates it is told to trust to 825 days, public ones to 398).
    public static let validityDays = 397

    /// Returns the certificate and its private key, both PEM.
    public static func make(names: CertificateNames, commonName: String = "karaoke room",
                            validityDays: Int = validityDays) throws -> (certificate: String, privateKey: String) {
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        guard let x509 = X509_new() else { throw failure("X509_new") }
        defer { X509_free(x509) }

        guard X509_set_version(x509, 2) == 1 else { throw failure("X509_set_version") }  // v3
        var serial: UInt64 = 0
        guard withUnsafeMutableBytes(of: &serial, { RAND_bytes($0.baseAddress, Int32($0.count)) }) == 1,
              ASN1_INTEGER_set_uint64(X509_get_serialNumber(x509), serial >> 1 | 1) == 1 else { throw failure("serial number") }
        // An hour back: a phone whose clock runs a little behind still accepts it.
        guard X509_gmtime_adj(X509_getm_notBefore(x509), -3600) != nil,
              X509_gmtime_adj(X509_getm_notAfter(x509), validityDays * 86_400) != nil else { throw failure("validity") }
        guard X509_set_pubkey(x509, key) == 1 else { throw failure("X509_set_pubkey") }

        let subject = X509_get_subject_name(x509)
        guard X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, "karaoke (self-signed)", -1, -1, 0) == 1,
              X509_set_issuer_name(x509, subject) == 1 else { throw failure("subject name") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, x509, x509, nil, nil, 0)
        let extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
            (NID_subject_alt_name, names.openSSLValue),
        ]
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw failure("extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(x509, ext, -1) == 1 else { throw failure("X509_add_ext") }
        }
        guard X509_sign(x509, key, EVP_sha256()) > 0 else { throw failure("X509_sign") }

        let certificate = try pem("certificate") { PEM_write_bio_X509($0, x509) }
        let privateKey = try pem("private key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        return (certificate, privateKey)
    }

    private static func makeKey() throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw failure("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key else { throw failure("P-256 key generation") }
        return key
    }

    private static func pem(_ what: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw failure("writing the \(what)") }
        var data: UnsafeMutablePointer<CChar>?
        let length = kar_bio_mem_data(bio, &data)
        guard let data, length > 0 else { throw failure("reading back the \(what)") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func failure(_ step: String) -> TLSCertificateError {
        .cannotCreate(step: step, detail: TLSCertificateError.openSSLErrors())
    }
}
