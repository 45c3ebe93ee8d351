import EventServer
import Foundation
import KaraokeRoom
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("TLS: the self-signed certificate, its store, a host's own certificate, the join address")
struct TLSCertificateTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func write(_ made: (certificate: String, privateKey: String), to directory: String,
                       certificate: String = "cert.pem", key: String = "key.pem") throws -> TLSCertificateFiles {
        let files = TLSCertificateFiles(certificatePath: directory + "/" + certificate, privateKeyPath: directory + "/" + key)
        try made.certificate.write(toFile: files.certificatePath, atomically: true, encoding: .utf8)
        try made.privateKey.write(toFile: files.privateKeyPath, atomically: true, encoding: .utf8)
        return files
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func madeCertificateReadsBackWithItsNamesValidityAndKey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = CertificateNames(dnsNames: ["localhost", "karaoke.lan"], ipAddresses: ["127.0.0.1", "192.168.1.20", "fd00::2"])
        let files = try write(try SelfSignedCertificate.make(names: names), to: directory)
        let certificate = try PEMCertificate(path: files.certificatePath)
        #expect(certificate.names == names)
        let days = Double(certificate.secondsUntilExpiry) / 86_400
        #expect(abs(days - Double(SelfSignedCertificate.validityDays)) < 0.01)
        #expect(certificate.secondsUntilValid < 0, "valid from an hour ago")
        #expect(certificate.matches(try PEMPrivateKey(path: files.privateKeyPath)))
        // Another certificate's key does not match.
        let other = try write(try SelfSignedCertificate.make(names: names), to: directory, certificate: "b.pem", key: "b.key")
        #expect(!certificate.matches(try PEMPrivateKey(path: other.privateKeyPath)))
    }

    @Test func storeMakesOnceReusesRepairsAndRenews() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SelfSignedCertificateStore(directory: directory + "/tls")
        let names = CertificateNames(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])

        guard case .created(let reason) = try store.prepare(names: names) else { Issue.record("not made"); return }
        #expect(reason.contains("first start"))
        #expect(mode(store.files.privateKeyPath) == 0o600)
        #expect(mode(store.directory) == 0o700)
        let first = try String(contentsOfFile: store.files.certificatePath, encoding: .utf8)

        #expect(try store.prepare(names: names) == .reused)
        #expect(try String(contentsOfFile: store.files.certificatePath, encoding: .utf8) == first)

        // A key readable by others is tightened, the certificate kept.
        chmod(store.files.privateKeyPath, 0o644)
        guard case .repaired(let note) = try store.prepare(names: names) else { Issue.record("not repaired"); return }
        #expect(note.contains("now 600"))
        #expect(mode(store.files.privateKeyPath) == 0o600)

        // A new address of the machine: a new certificate naming the old names and the new one.
        var more = names
        more.add("10.1.2.3")
        guard case .created(let why) = try store.prepare(names: CertificateNames(dnsNames: ["localhost"], ipAddresses: ["10.1.2.3"]))
        else { Issue.record("not renewed for a new name"); return }
        #expect(why.contains("does not name 10.1.2.3"))
        #expect(Set(try PEMCertificate(path: store.files.certificatePath).names.all) == Set(more.all))

        // Expired: replaced, and the reason says so.
        _ = try write(try SelfSignedCertificate.make(names: names, validityDays: -2), to: store.directory)
        guard case .created(let expired) = try store.prepare(names: names) else { Issue.record("expired kept"); return }
        #expect(expired.contains("expired"))
        #expect(try PEMCertificate(path: store.files.certificatePath).secondsUntilExpiry > 300 * 86_400)

        // Unreadable: replaced, naming the file.
        try "garbage".write(toFile: store.files.certificatePath, atomically: true, encoding: .utf8)
        guard case .created(let unreadable) = try store.prepare(names: names) else { Issue.record("garbage kept"); return }
        #expect(unreadable.contains("\(store.files.certificatePath): not a PEM certificate"))

        // A key of another certificate: replaced.
        let stray = try SelfSignedCertificate.make(names: names)
        try stray.privateKey.write(toFile: store.files.privateKeyPath, atomically: true, encoding: .utf8)
        guard case .created(let mismatch) = try store.prepare(names: names) else { Issue.record("mismatch kept"); return }
        #expect(mismatch.contains("is not the key of"))
        #expect(try PEMCertificate(path: store.files.certificatePath).matches(try PEMPrivateKey(path: store.files.privateKeyPath)))
    }

    @Test func namesACertificateCannotHoldAreSkipped() {
        var names = CertificateNames()
        for junk in ["*.evil.example", "a,DNS:evil.example", "evil example", "", "-x", "a\u{00e9}.lan"] { names.add(junk) }
        #expect(names.all.isEmpty)
        names.add("Karaoke.LAN.")
        names.add("[fd00::1]")
        names.add("192.168.1.20")
        names.add("karaoke.lan")
        #expect(names.dnsNames == ["karaoke.lan"])
        #expect(names.ipAddresses == ["fd00::1", "192.168.1.20"])
        let machine = CertificateNames.forThisMachine(extra: ["karaoke.test"])
        #expect(machine.dnsNames.contains("localhost") && machine.dnsNames.contains("karaoke.test"))
        #expect(machine.ipAddresses.contains("127.0.0.1"))
        #expect(!machine.ipAddresses.contains { $0.hasPrefix("fe80") })
    }

    @Test func ownCertificateIsCheckedBeforeServing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = CertificateNames(dnsNames: ["karaoke.lan"])
        let good = try write(try SelfSignedCertificate.make(names: names), to: directory)
        #expect(try good.check(expectedNames: ["karaoke.lan"]).isEmpty)
        let warnings = try good.check(expectedNames: ["192.168.1.20"])
        #expect(warnings.count == 1 && warnings[0].contains("does not name 192.168.1.20"))

        let other = try write(try SelfSignedCertificate.make(names: names), to: directory, certificate: "o.pem", key: "o.key")
        let mixed = TLSCertificateFiles(certificatePath: good.certificatePath, privateKeyPath: other.privateKeyPath)
        #expect(throws: TLSCertificateError.keyDoesNotMatch(certificate: good.certificatePath, key: other.privateKeyPath)) {
            try mixed.check(expectedNames: [])
        }
        let missing = TLSCertificateFiles(certificatePath: directory + "/none.pem", privateKeyPath: good.privateKeyPath)
        #expect(throws: TLSCertificateError.unreadable(path: directory + "/none.pem", reason: "no such file")) {
            try missing.check(expectedNames: [])
        }
        let expired = try write(try SelfSignedCertificate.make(names: names, validityDays: -3), to: directory,
                                certificate: "e.pem", key: "e.key")
        #expect(try expired.check(expectedNames: ["karaoke.lan"]).first?.contains("expired") == true)
    }

    @Test func joinAddressIsHTTPSWhenTLSIsOn() {
        let lan: [InterfaceAddresses.Address] = [
            .init(text: "127.0.0.1", isIPv6: false, isLoopback: true, isLinkLocal: false),
            .init(text: "fe80::1", isIPv6: true, isLoopback: false, isLinkLocal: true),
            .init(text: "fd00::2", isIPv6: true, isLoopback: false, isLinkLocal: false),
            .init(text: "192.168.1.20", isIPv6: false, isLoopback: false, isLinkLocal: false),
        ]
        let tls = JoinAddress.choose(listenHost: "0.0.0.0", plainPort: 8080, tlsPort: 8443, addresses: lan)
        #expect(tls.url == "https://192.168.1.20:8443/remote")
        let plain = JoinAddress.choose(listenHost: "0.0.0.0", plainPort: 8080, tlsPort: nil, addresses: lan)
        #expect(plain.url == "http://192.168.1.20:8080/remote")
        let v6 = JoinAddress.choose(listenHost: "::", plainPort: 8080, tlsPort: 8443, addresses: Array(lan.prefix(3)))
        #expect(v6.origin == "https://[fd00::2]:8443")
        let named = JoinAddress.choose(listenHost: "0.0.0.0", plainPort: 8080, tlsPort: 8443, preferredName: "karaoke.lan", addresses: lan)
        #expect(named.origin == "https://karaoke.lan:8443")
        let local = JoinAddress.choose(listenHost: "127.0.0.1", plainPort: 8080, tlsPort: 8443, addresses: lan)
        #expect(local.origin == "https://127.0.0.1:8443")
        let nothing = JoinAddress.choose(listenHost: "0.0.0.0", plainPort: 8080, tlsPort: nil, addresses: [lan[0]])
        #expect(nothing.origin == "http://127.0.0.1:8080")
    }

    @Test func tlsPortInUseIsRefusedAndAFreeOneIsReadBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try write(try SelfSignedCertificate.make(names: CertificateNames(dnsNames: ["localhost"])), to: directory)
        // A port held by another socket.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) } }
        _ = listen(holder, 1)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) } }
        let busy = Int(UInt16(bigEndian: address.sin_port))

        let delegate = SilentDelegate()
        let refused = EventServer(configuration: EventServerConfiguration(
            host: "127.0.0.1", port: 0, publicDirectory: directory, tls: TLSListener(port: busy, files: files)))
        #expect(throws: EventServerError.self) { try refused.start(delegate: delegate) }
        refused.stop()

        let server = EventServer(configuration: EventServerConfiguration(
            host: "127.0.0.1", port: 0, publicDirectory: directory, tls: TLSListener(port: 0, files: files)))
        try server.start(delegate: delegate)
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.tlsPort != nil && server.tlsPort != server.port)
    }
}

private final class SilentDelegate: EventServerDelegate {
    func clientConnected(_ client: ClientInfo) {}
    func client(_ id: ClientID, sent text: String) {}
    func client(_ id: ClientID, violated violation: TransportViolation) {}
    func clientDisconnected(_ id: ClientID) {}
}
