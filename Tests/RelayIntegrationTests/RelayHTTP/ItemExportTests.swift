import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import RelayModel

/// Issue 12: a search's whole result as CSV, streamed: 100,000 items through a separate relay
/// process whose memory is watched while the client reads.
@Suite("CSV export", .timeLimit(.minutes(5)))
struct ItemExportTests {
    @Test func exportsAHundredThousandItemsInConstantMemory() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 100_000)
            try await TestDatabase.withClient(db) { client in
                try await client.query("""
                    INSERT INTO items (entrupy_id, customer_item_id, result, result_final, flag, brand, username, fetched_at, raw)
                    VALUES ('hostile-1', '=HYPERLINK("http://evil")', 'authentic', true, 'none', 'nike', 'a,b"c' || chr(10) || 'd', now(), '{}')
                    """, logger: TestDatabase.logger)
            }
            let token = try await APIAccess.token(db, role: .consumer)
            let port = try await freePort()
            let relay = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: db,
                                         env: ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret])
            defer { Task { _ = await relay.stop() } }
            let probe = HTTPProbe(port: port)
            #expect(try await eventually(timeout: .seconds(30)) { (try? await probe.status("/readyz")) == 200 })
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            defer { Task { try? await http.shutdown() } }

            func export(_ query: String) async throws -> (status: Int, type: String?, lines: Int, bytes: Int, head: String) {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/items/export\(query)")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await http.execute(request, timeout: .seconds(120))
                var lines = 0, bytes = 0
                var head = ""
                for try await chunk in response.body {
                    bytes += chunk.readableBytes
                    lines += chunk.readableBytesView.lazy.filter { $0 == 0x0A }.count
                    if head.count < 4096 { head += String(buffer: chunk) }
                }
                return (Int(response.status.code), response.headers.first(name: "Content-Type"), lines, bytes, head)
            }
            // Warm up (pools, code paths), then take the baseline.
            let small = try await export("?brand=adidas&last_days=1")
            #expect(small.status == 200 && small.type?.hasPrefix("text/csv") == true)
            let baseline = try Self.residentKiB(relay.pid)
            let peak = Peak()
            let watcher = Task {
                while !Task.isCancelled {
                    if let kib = try? Self.residentKiB(relay.pid) { await peak.note(kib) }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            let all = try await export("")
            watcher.cancel()
            // A header, 100,000 rows, and one more whose username holds a line break inside its quotes.
            #expect(all.status == 200 && all.lines == 100_003, "\(all.lines) lines")
            #expect(all.head.hasPrefix("entrupy_id,customer_item_id,result,result_final,flag,brand,category,username,submitted_at,listed_at,updated_at\r\n"))
            #expect(all.head.contains(#"hostile-1,"'=HYPERLINK(""http://evil"")",authentic,true,none,nike,,"a,b""c"#), "\(all.head.prefix(600))")
            let grown = await peak.value - baseline
            print("export: \(all.bytes) bytes, relay RSS \(baseline) KiB before, peak +\(grown) KiB")
            // The CSV is about 12 MB; the server holds one chunk of 2,000 rows at a time.
            #expect(all.bytes > 10_000_000 && grown * 1024 < all.bytes / 2, "RSS grew \(grown) KiB for \(all.bytes) bytes")

            // The same filters as the search, checked before the first byte.
            let flagged = try await export("?flag=flagged&brand=Nike")
            let expected = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE flag = 'flagged' AND brand = 'nike'")
            #expect(flagged.lines == expected + 1)
            #expect(try await export("?flag=maybe").status == 400)
        }
    }

    actor Peak {
        var value = 0
        func note(_ kib: Int) { value = max(value, kib) }
    }

    /// VmRSS of a process, in KiB.
    static func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw TestSetupError("no VmRSS for \(pid)")
        }
        return kib
    }
}
