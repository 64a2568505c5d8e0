import Foundation
@testable import RelayModel
@testable import RelayNotify
import Synchronization
import Testing

/// Where a callback connects (issue 10, defect 8): to an address the relay resolved and
/// vetted, never to what a second lookup says.
@Suite("Callback targets are resolved once and pinned", .timeLimit(.minutes(2)))
struct CallbackTargetTests {
    static func request(_ url: String) -> CallbackRequest {
        CallbackRequest(url: url, body: Array(#"{"type":"result.final"}"#.utf8), messageID: "dlv_pin",
                        secret: WebhookSecret.standardWebhooks(TestCallbackServer.secret)!)
    }

    /// `rebind.test` answers 127.0.0.1 (treated as public here) the first time and 127.0.0.2
    /// (refused) afterwards, like a rebinding DNS server. The first callback reaches the sink
    /// at the vetted address with its Host header intact, although nothing but our resolver
    /// can resolve that name; the second is refused before any connection.
    @Test func theConnectionGoesToTheVettedAddress() async throws {
        try await TestCallbackServer.with { sink async throws in
            let lookups = Mutex(0)
            let sender = CallbackSender(
                timeout: .seconds(10), connectionsPerHost: 2, allowPrivate: false,
                refusal: { $0.description == "127.0.0.1" ? nil : $0.restrictedScope },
                resolve: { _ in
                    let n = lookups.withLock { $0 += 1; return $0 }
                    return [IPAddress(n == 1 ? "127.0.0.1" : "127.0.0.2")!]
                })
            let url = "http://rebind.test:\(sink.port)/pinned"
            let response = try await sender.send(Self.request(url))
            #expect(response.status == 200)
            let received = try await sink.waitForRequests(1, path: "/pinned")
            #expect(received.first?.headers["host"]?.stringValue == "rebind.test:\(sink.port)")
            #expect(received.first?.verified == true)
            do {
                _ = try await sender.send(Self.request(url))
                Issue.record("a rebound answer was not refused")
            } catch let error as CallbackError {
                #expect(error == .refusedAddress(host: "rebind.test", address: "127.0.0.2", scope: "loopback"))
            }
            #expect(lookups.withLock { $0 } == 2, "one lookup per send")
            #expect(try sink.requests().count == 1)
            await sender.shutdown()
        }
    }

    /// An octal-looking literal is resolved as the C library reads it (012 is 10) and refused
    /// as the private address it is, not vetted as 12.0.0.1.
    @Test func anOctalLiteralIsVettedAsWhatItReaches() async throws {
        let sender = CallbackSender(timeout: .seconds(5), connectionsPerHost: 1, allowPrivate: false)
        do {
            _ = try await sender.send(Self.request("http://012.0.0.1/hook"))
            Issue.record("012.0.0.1 was not refused")
        } catch let error as CallbackError {
            #expect(error == .refusedAddress(host: "012.0.0.1", address: "10.0.0.1", scope: "private"))
        }
        await sender.shutdown()
    }
}
