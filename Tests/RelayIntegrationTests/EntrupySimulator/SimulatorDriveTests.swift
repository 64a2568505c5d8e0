import Foundation
import RelayModel
import Testing

/// `POST /_sim/drive`, the load benchmarks' driver: the simulator itself finalises items on
/// schedule, each sending its webhook, and refuses a plan it cannot read.
@Suite("Simulator drive", .timeLimit(.minutes(2)))
struct SimulatorDriveTests {
    @Test func itMakesEveryItemOnScheduleAndSendsEachOneItsWebhook() async throws {
        try await TestCallbackServer.with { sink in
            try await TestSimulator.with(webhookURL: sink.url("/entrupy")) { sim in
                let started = ContinuousClock.now
                let (status, answer) = try await sim.call(.POST, "/_sim/drive", .object([
                    "rate": .number(20), "seconds": .number(1), "prefix": .string("drive-t-"),
                    "item": .object(["brand": .string("gucci"), "result": .string("authentic"), "final": .bool(true)]),
                ]))
                // Item n is due n/20 s after the start: the last one, 0.95 s after it.
                #expect(ContinuousClock.now - started >= .milliseconds(950))
                #expect(status == 201, "\(answer)")
                #expect(answer["created"]?.doubleValue == 20)
                #expect(answer["behind_ms_max"]?.doubleValue != nil)

                let items = try await sim.call(.GET, "/_sim/items").1["items"]?.arrayValue ?? []
                let made = items.filter { $0[path: "text_fields.customer_item_id"]?.stringValue?.hasPrefix("drive-t-") == true }
                #expect(Set(made.compactMap { $0[path: "text_fields.customer_item_id"]?.stringValue }) == Set((0..<20).map { "drive-t-\($0)" }))
                #expect(made.allSatisfy { $0[path: "properties.brand.id"]?.stringValue == "gucci" && $0[path: "status.result.id"]?.stringValue == "authentic" },
                        "\(made.first ?? .null)")

                let received = try await sink.waitForRequests(20, path: "/entrupy")
                #expect(Set(received.compactMap { $0.body["customer_item_id"]?.stringValue }) == Set((0..<20).map { "drive-t-\($0)" }))
            }
        }
    }

    @Test(arguments: [
        (#"{"seconds": 1, "prefix": "p"}"#, "rate is required"),
        (#"{"rate": 0, "seconds": 1, "prefix": "p"}"#, "rate"),
        (#"{"rate": 9999999, "seconds": 1, "prefix": "p"}"#, "rate"),
        (#"{"rate": 1.5, "seconds": 1, "prefix": "p"}"#, "rate"),
        (#"{"rate": 10, "seconds": 100000, "prefix": "p"}"#, "seconds"),
        (#"{"rate": 5000, "seconds": 3600, "prefix": "p"}"#, "at most 1000000 items"),
        (#"{"rate": 10, "seconds": 1}"#, "prefix is required"),
        (#"{"rate": 10, "seconds": 1, "prefix": "p", "speed": 2}"#, "speed"),
        (#"{"rate": 10, "seconds": 1, "prefix": "p", "item": {"customer_item_id": "x"}}"#, "item.customer_item_id"),
        (#"{"rate": 10, "seconds": 1, "prefix": "p", "item": {"final": "yes"}}"#, "item: final"),
        (#"{"rate": 10, "seconds": 1, "prefix": "p", "item": []}"#, "item must be an object"),
        (#"[1, 2]"#, "body must be a JSON object"),
    ])
    func aPlanItCannotReadIsRefusedWithItsReason(body: String, reason: String) async throws {
        try await TestSimulator.with(webhookURL: nil) { sim in
            let (status, answer) = try await sim.call(.POST, "/_sim/drive", JSONValue(jsonText: body))
            #expect(status == 400, "\(answer)")
            #expect(answer["detail"]?.stringValue?.contains(reason) == true, "\(answer)")
            #expect(try await sim.call(.GET, "/_sim/items").1["items"]?.arrayValue?.isEmpty == true)
        }
    }
}
