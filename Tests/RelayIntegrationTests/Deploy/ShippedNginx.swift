import Foundation
import Testing

/// The shipped nginx example (`deploy/nginx/entrupy-relay.conf`) made runnable here, and curl
/// against it: what NginxProxyTests needs beyond a plain proxy.
enum ShippedNginx {
    static let path = "deploy/nginx/entrupy-relay.conf"

    struct Certificate {
        let folder: String
        var certificate: String { folder + "/cert.pem" }
        var key: String { folder + "/key.pem" }
    }

    struct Answer {
        let status: Int
        let body: String
    }

    /// A throwaway self-signed certificate, in a folder of its own.
    static func certificate() async throws -> Certificate {
        let folder = try TestServerProcess.temporaryDirectory("nginx-tls").path
        let made = Certificate(folder: folder)
        let run = try await CommandLineTests.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=relay.test", "-days", "2",
                                                  "-keyout", made.key, "-out", made.certificate],
                                                 env: ["PATH": "/usr/bin:/bin"], executable: "/usr/bin/openssl")
        guard run.status == 0 else { throw TestSetupError("openssl req failed: \(run.stderr)") }
        return made
    }

    /// The example with only what a host fills in replaced: each server's `listen` (public, and
    /// internal for the host's private address), the upstream, the certificates; `alsoAllow`
    /// adds an address to the internal server's allow list. Fails if a replaced line moved.
    static func example(publicListen: String, internalListen: String, upstream: String, certificate: Certificate,
                        alsoAllow: String? = nil) throws -> String {
        let text = try String(contentsOf: TestServerProcess.root.appendingPathComponent(path), encoding: .utf8)
        var replacements = [("listen 443 ssl;", "listen \(publicListen);"), ("listen 10.0.0.5:8443 ssl;", "listen \(internalListen);"),
                            ("server 127.0.0.1:8080;", "server \(upstream);")]
        for name in ["relay.example.com", "relay.internal.example.com"] {
            replacements += [("/etc/ssl/certs/\(name).pem;", certificate.certificate + ";"), ("/etc/ssl/private/\(name).key;", certificate.key + ";")]
        }
        if let alsoAllow { replacements.append(("    deny all;", "    allow \(alsoAllow);\n    deny all;")) }
        var site = text
        for (old, new) in replacements {
            guard site.components(separatedBy: old).count == 2 else { throw TestSetupError("\(path): expected one \"\(old)\"") }
            site = site.replacingOccurrences(of: old, with: new)
        }
        return site
    }

    /// `nginx -t` on a configuration whose http block includes `site`.
    static func test(_ site: String) async throws -> CommandLineTests.Run {
        let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw TestSetupError("nginx is not installed: run the suite with ./deploy/local.sh test") }
        let prefix = try TestServerProcess.temporaryDirectory("nginx-t").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        try site.write(toFile: prefix + "/site.conf", atomically: true, encoding: .utf8)
        try "pid \(prefix)/nginx.pid;\nevents {}\nhttp {\n    include \(prefix)/site.conf;\n}\n"
            .write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        return try await CommandLineTests.run(["-t", "-p", prefix, "-e", "stderr", "-c", prefix + "/nginx.conf"],
                                              env: ["PATH": "/usr/bin:/bin"], executable: binary)
    }

    /// A request with curl from the loopback address `source` (TLS unverified: the certificate is
    /// throwaway), a POST when `post` is given.
    static func fetch(_ url: String, from source: String, post: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> Answer {
        var arguments = ["-sS", "-k", "--interface", source, "-w", "\n%{http_code}", url]
        var bodyFile: URL?
        if let post {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
            try Data(post).write(to: file)
            bodyFile = file
            arguments += ["-X", "POST", "--data-binary", "@" + file.path]
        }
        defer { if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) } }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        let run = try await CommandLineTests.run(arguments, env: ["PATH": "/usr/bin:/bin"], executable: "/usr/bin/curl")
        guard run.status == 0, let cut = run.stdout.lastIndex(of: "\n"), let status = Int(run.stdout[run.stdout.index(after: cut)...]) else {
            throw TestSetupError("curl \(url): \(run.status) \(run.stderr)")
        }
        return Answer(status: status, body: String(run.stdout[..<cut]))
    }
}
