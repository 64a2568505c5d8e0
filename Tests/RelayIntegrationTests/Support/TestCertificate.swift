import Foundation

/// A self-signed certificate for `localhost` and 127.0.0.1, made once per test run with
/// openssl; the relay trusts it through ENTRUPY_RELAY_SMTP_CA_FILE.
enum TestCertificate {
    struct Files: Sendable {
        let certificate: String
        let key: String
    }

    static func make() async throws -> Files {
        let folder = try TestServerProcess.temporaryDirectory("cert")
        let files = Files(certificate: folder.appendingPathComponent("cert.pem").path, key: folder.appendingPathComponent("key.pem").path)
        let openssl = try RelayProcess(binary: "/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", files.key, "-out", files.certificate,
        ])
        let status = await openssl.waitForExit()
        guard status == 0 else { throw TestSetupError("openssl failed: \(openssl.output)") }
        return files
    }
}
