import Foundation
import RelayCore
import Testing

/// The receiver behind a real nginx (from Debian's package, installed by deploy/lib/test-tools.sh).
@Suite("Behind nginx", .timeLimit(.minutes(3)))
struct NginxProxyTests {
    /// Runs nginx in the foreground with a private prefix, proxying a free port to `upstream`.
    static func withNginx<T: Sendable>(upstream: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw TestSetupError("nginx is not installed: run the suite with ./deploy/local.sh test") }
        let port = try await freePort()
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        let config = """
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    client_max_body_size 2m;
                    location / {
                        proxy_pass http://127.0.0.1:\(upstream);
                        proxy_http_version 1.1;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_request_buffering off;
                    }
                }
            }
            """
        try config.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = try RelayProcess(binary: binary, ["-p", prefix, "-c", prefix + "/nginx.conf", "-g", "daemon off; master_process off;"])
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        do {
            guard try await eventually(timeout: .seconds(10), { (try? await HTTPProbe(port: port).status("/healthz")) == 200 }) else {
                throw TestSetupError("nginx did not start: \(nginx.output)")
            }
            let result = try await body(port)
            await stop(nginx)
            return result
        } catch {
            await stop(nginx)
            throw error
        }
    }

    /// nginx spawned from the test process inherits its blocked signal mask and, with no master
    /// process, never sees SIGTERM; it holds no state worth a graceful stop, so SIGKILL it.
    static func stop(_ nginx: RelayProcess) async {
        nginx.kill(SIGKILL)
        _ = await nginx.waitForExit()
    }

    /// POSTs with curl from `source` (another loopback address, so nginx sees a client that is not a trusted proxy).
    static func curl(port: Int, source: String, fixture: WebhookFixture, extraHeaders: [(String, String)]) async throws -> CommandLineTests.Run {
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        try Data(fixture.body).write(to: bodyFile)
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        var arguments = ["-sS", "--interface", source, "-w", "\n%{http_code}", "-X", "POST",
                         "http://127.0.0.1:\(port)/webhooks/entrupy", "--data-binary", "@" + bodyFile.path]
        for (name, value) in fixture.headers + extraHeaders { arguments += ["-H", "\(name): \(value)"] }
        return try await CommandLineTests.run(arguments, env: ProcessInfo.processInfo.environment, executable: "/usr/bin/curl")
    }

    @Test func signedBodiesPassUntouchedAndSpoofedForwardingIsIgnored() async throws {
        try await TestDatabase.with { db async throws in
            try await TestRelay.with(database: db, env: ["TRUSTED_PROXIES": "127.0.0.1/32", "WEBHOOK_MAX_BODY_BYTES": "4096"]) { relay async throws in
                try await Self.withNginx(upstream: relay.port) { port async throws in
                    let fixture = WebhookFixture.entrupy(#"{"event":"session.completed","id":"via-nginx","entrupy_id":"ENT-N","note":"é ü \n"}"#)
                    let sent = try await Self.curl(port: port, source: "127.0.0.2", fixture: fixture, extraHeaders: [("X-Forwarded-For", "6.6.6.6")])
                    #expect(sent.stdout.hasSuffix("\n200"), "\(sent.stdout) \(sent.stderr)")
                    // nginx saw 127.0.0.2 and appended it; the spoofed 6.6.6.6 before it is not believed.
                    #expect(try await relay.count("""
                        SELECT count(*) FROM webhook_events WHERE event_id = 'via-nginx' AND client_address = '127.0.0.2'
                          AND headers ->> 'x-forwarded-for' = '6.6.6.6, 127.0.0.2'
                        """) == 1)

                    let big = WebhookFixture.entrupy(#"{"entrupy_id":"E","pad":""# + String(repeating: "x", count: 5000) + #""}"#)
                    let refused = try await Self.curl(port: port, source: "127.0.0.2", fixture: big, extraHeaders: [])
                    #expect(refused.stdout.hasSuffix("\n413"))
                    #expect(refused.stdout.contains(#""message":"request body exceeds 4096 bytes""#))
                    #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 1)
                }
            }
        }
    }
}
