import AsyncHTTPClient
import Foundation
import NIOCore
import RelayModel
import Testing

/// Issue 27, 3: at c765048 a token's slot was given back when the export's handler returned,
/// before the streamed CSV ran its chunk queries, so one token could run any number of exports
/// at once. Now the slot is held until the last byte is written, and exports have a cap of
/// their own across tokens.
@Suite("An export holds its token's slot", .timeLimit(.minutes(3)))
struct ExportSlotTests {
    @Test func aStalledExportKeepsItsSlotUntilItsLastByte() async throws {
        try await TestDatabase.with { db async throws in
            // About 24 MB of CSV: far more than the kernel buffers between the two ends, so a
            // reader that stops reading leaves the relay with most of it still to write.
            try await APIAccess.seedItems(db, count: 200_000)
            let env = ["ENTRUPY_RELAY_API_TOKEN_CONCURRENCY": "1", "ENTRUPY_RELAY_EXPORT_CONCURRENCY": "1"]
            try await TestRelay.with(database: db, env: env, worker: false) { relay async throws in
                let exporter = try await APIAccess.token(db, role: .consumer)
                let other = try await APIAccess.token(db, role: .consumer)
                let http = HTTPClient(eventLoopGroupProvider: .singleton)
                defer { Task { try? await http.shutdown() } }
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(relay.port)/v1/items/export")
                request.headers.add(name: "Authorization", value: "Bearer \(exporter)")
                let response = try await http.execute(request, timeout: .seconds(120))
                #expect(response.status == .ok)
                var chunks = response.body.makeAsyncIterator()
                let first = try await chunks.next()
                #expect(first.map { String(buffer: $0).hasPrefix("entrupy_id,") } == true)
                // The reader stalls: the export is still being written.
                try await Task.sleep(for: .milliseconds(500))
                let busy = try await relay.get("/v1/items?limit=1", token: exporter)
                #expect(busy.status == 429, "the token's one slot is the export's: \(busy.body)")
                let second = try await relay.get("/v1/items/export", token: other)
                #expect(second.status == 503, "one export at a time on this relay: \(second.body)")
                #expect(second.header("Retry-After") != nil)
                #expect(try await relay.get("/v1/items?limit=1", token: other).status == 200, "another token is not held up")

                // Read the rest: the slot comes back with the last byte.
                var bytes = first?.readableBytes ?? 0
                while let chunk = try await chunks.next() { bytes += chunk.readableBytes }
                #expect(bytes > 20_000_000, "\(bytes) bytes")
                #expect(try await eventually(timeout: .seconds(5)) {
                    try await relay.get("/v1/items?limit=1", token: exporter).status == 200
                })
                #expect(try await relay.get("/v1/items/export?last_days=1&brand=nike", token: other).status == 200)
            }
        }
    }
}
