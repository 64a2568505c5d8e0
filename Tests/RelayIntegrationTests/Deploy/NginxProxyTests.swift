import Foundation
import RelayModel
import Testing

/// The receiver behind a real nginx (from Debian's package, installed by deploy/lib/test-tools.sh).
@Suite("Behind nginx", .timeLimit(.minutes(3)))
struct NginxProxyTests {
    /// Runs nginx in the foreground with a private prefix, proxying a free port to `upstream`.
    /// `site` is the http block's content for that port (`LISTEN` and `UPSTREAM` in it are
    /// replaced); by default a plain, unbuffered proxy.
    static func withNginx<T: Sendable>(upstream: Int, site: String? = nil, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw TestSetupError("nginx is not installed: run the suite with ./deploy/local.sh test") }
        let port = try await freePort()
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        let plain = """
            server {
                listen LISTEN;
                client_max_body_size 2m;
                location / {
                    proxy_pass http://UPSTREAM;
                    proxy_http_version 1.1;
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    proxy_request_buffering off;
                }
            }
            """
        let server = (site ?? plain).replacingOccurrences(of: "LISTEN", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "UPSTREAM", with: "127.0.0.1:\(upstream)")
        let config = """
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log warn;
            events { worker_connections 512; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
            \(server)
            }
            """
        try config.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = try RelayProcess(binary: binary, ["-p", prefix, "-c", prefix + "/nginx.conf", "-g", "daemon off; master_process off;"])
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        do {
            // Any answer will do: the example site answers 404 outside /webhooks/.
            guard try await eventually(timeout: .seconds(10), { (try? await HTTPProbe(port: port).status("/healthz")) != nil }) else {
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
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_TRUSTED_PROXIES": "127.0.0.1/32", "ENTRUPY_RELAY_WEBHOOK_MAX_BODY_BYTES": "4096"]) { relay async throws in
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

    /// Issue 27, 1: the shipped example (`deploy/nginx/entrupy-relay.conf`) reads whole bodies
    /// before the relay sees them and caps one address's connections. Drips through it hold
    /// nginx connections, never the relay's body slots (all 8 of which one address could take
    /// here): a real webhook from elsewhere is stored. The unbuffered proxy c765048 shipped
    /// passed every drip on, and the same webhook got 503.
    @Test func theExampleConfigurationBuffersBodiesAndLimitsConnections() async throws {
        let certificate = try await ShippedNginx.certificate()
        defer { try? FileManager.default.removeItem(atPath: certificate.folder) }
        let site = try ShippedNginx.example(publicListen: "LISTEN", internalListen: "127.0.0.1:\(try await freePort()) ssl",
                                            upstream: "UPSTREAM", certificate: certificate)
        let env = ["ENTRUPY_RELAY_TRUSTED_PROXIES": "127.0.0.1/32", "ENTRUPY_RELAY_WEBHOOK_MAX_CONCURRENT_BODIES": "8", "ENTRUPY_RELAY_WEBHOOK_BODIES_PER_CLIENT": "8",
                   "ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS": "20"]
        try await TestRelay.withFresh(env: env) { relay async throws in
            try await Self.withNginx(upstream: relay.port, site: site) { port async throws in
                let head = ReceiverStarvationTests.dripHead(signed: true)
                let drips = (0..<40).map { _ in
                    Task { try await dripHTTP(port: port, head: head, interval: .milliseconds(200), limit: .seconds(8)) }
                }
                try await Task.sleep(for: .seconds(1))
                let fixture = WebhookFixture.entrupy(#"{"event":"session.completed","id":"past-the-drips","entrupy_id":"ENT-D"}"#)
                let sent = try await Self.curl(port: port, source: "127.0.0.2", fixture: fixture, extraHeaders: [])
                #expect(sent.stdout.hasSuffix("\n200"), "\(sent.stdout) \(sent.stderr)")
                var answers: [String] = []
                for drip in drips {
                    drip.cancel()
                    answers.append((try? await drip.value.answer) ?? "")
                }
                // limit_conn 32: the other 8 were refused by nginx at once.
                #expect(answers.filter { $0.hasPrefix("HTTP/1.1 503") }.count >= 8, "\(answers.map { $0.prefix(24) })")
                #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE event_id = 'past-the-drips'") == 1)
            }
        }
    }

    /// Issue 44: the whole shipped file passes `nginx -t` with only what a host must fill in
    /// replaced (its certificates, its private address; a free port for 443, as nginx -t binds).
    @Test func theExampleConfigurationPassesNginxTest() async throws {
        let certificate = try await ShippedNginx.certificate()
        defer { try? FileManager.default.removeItem(atPath: certificate.folder) }
        let site = try ShippedNginx.example(publicListen: "127.0.0.1:\(try await freePort()) ssl",
                                            internalListen: "127.0.0.1:\(try await freePort()) ssl",
                                            upstream: "127.0.0.1:8080", certificate: certificate)
        let checked = try await ShippedNginx.test(site)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr.contains("test is successful"), "\(checked.stderr)")
        // And nginx -t does fail on a broken file, so the check above means something.
        let broken = try await ShippedNginx.test(site.replacingOccurrences(of: "deny all;", with: "deny all"))
        #expect(broken.status != 0)
    }

    /// Issue 44: each audience has its server. Over TLS, the public server passes signed webhooks
    /// to the relay and answers 404 for the console, the API, /openapi.json and health; the
    /// internal server serves those to an allowed address, 403 to any other, and no webhooks.
    @Test func theExampleServesEachAudienceOnItsOwnServer() async throws {
        let certificate = try await ShippedNginx.certificate()
        defer { try? FileManager.default.removeItem(atPath: certificate.folder) }
        let internalPort = try await freePort()
        // 127.0.0.2 stands for the internal networks the example allows; 127.0.0.3 for anyone else.
        let site = try ShippedNginx.example(publicListen: "LISTEN ssl", internalListen: "127.0.0.1:\(internalPort) ssl", upstream: "UPSTREAM",
                                            certificate: certificate, alsoAllow: "127.0.0.2")
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_TRUSTED_PROXIES": "127.0.0.1/32"]) { relay async throws in
            let token = try await APIAccess.token(relay.database, role: .admin)
            try await Self.withNginx(upstream: relay.port, site: site) { port async throws in
                let fixture = WebhookFixture.entrupy(#"{"event":"session.completed","id":"public-webhook","entrupy_id":"ENT-P"}"#)
                let sent = try await ShippedNginx.fetch("https://127.0.0.1:\(port)/webhooks/entrupy", from: "127.0.0.3",
                                                        post: fixture.body, headers: fixture.headers)
                #expect(sent.status == 200, "\(sent.body)")
                #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE event_id = 'public-webhook' AND client_address = '127.0.0.3'") == 1)
                // Just over the relay's default limit (1 MiB): nginx's is slightly higher, so the relay answers 413 itself.
                let big = WebhookFixture.entrupy(#"{"entrupy_id":"E","pad":""# + String(repeating: "x", count: 1 << 20) + #""}"#)
                let refused = try await ShippedNginx.fetch("https://127.0.0.1:\(port)/webhooks/entrupy", from: "127.0.0.3", post: big.body, headers: big.headers)
                #expect(refused.status == 413 && refused.body.contains(#""message":"request body exceeds 1048576 bytes""#), "\(refused.status) \(refused.body.prefix(200))")
                // Encoded traversals resolve, in nginx, to a path it does not pass: never the relay's routes.
                for path in ["/console", "/console/login", "/v1/items", "/openapi.json", "/healthz", "/readyz", "/metrics",
                             "/webhooks/x", "/v1/items/..%2F..%2Fwebhooks%2Fx", "/webhooks/entrupy/..%2F..%2Fv1%2Fitems"] {
                    let answer = try await ShippedNginx.fetch("https://127.0.0.1:\(port)\(path)", from: "127.0.0.3", headers: [("Authorization", "Bearer \(token)")])
                    #expect(answer.status == 404, "public \(path): \(answer.status)")
                }

                let inside = "https://127.0.0.1:\(internalPort)"
                let document = try await ShippedNginx.fetch(inside + "/openapi.json", from: "127.0.0.2")
                #expect(document.status == 200 && document.body.contains(#""/webhooks/entrupy""#), "\(document.status)")
                let items = try await ShippedNginx.fetch(inside + "/v1/items", from: "127.0.0.2", headers: [("Authorization", "Bearer \(token)")])
                #expect(items.status == 200 && items.body.hasPrefix("{"), "\(items.status) \(items.body.prefix(200))")
                #expect(try await ShippedNginx.fetch(inside + "/v1/items", from: "127.0.0.2").status == 401)
                let login = try await ShippedNginx.fetch(inside + "/console/login", from: "127.0.0.2")
                #expect(login.status == 200 && login.body.contains("<form"), "\(login.status)")
                for path in ["/metrics", "/healthz", "/readyz"] {
                    #expect(try await ShippedNginx.fetch(inside + path, from: "127.0.0.2").status == 404, "internal \(path)")
                }
                let webhook = try await ShippedNginx.fetch(inside + "/webhooks/entrupy", from: "127.0.0.2", post: fixture.body, headers: fixture.headers)
                #expect(webhook.status == 404)
                #expect(try await ShippedNginx.fetch(inside + "/openapi.json", from: "127.0.0.3").status == 403)
                #expect(try await ShippedNginx.fetch(inside + "/v1/items", from: "127.0.0.3", headers: [("Authorization", "Bearer \(token)")]).status == 403)
            }
        }
    }
}
