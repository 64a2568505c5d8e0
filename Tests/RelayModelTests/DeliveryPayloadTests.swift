import RelayModel
import Testing

/// The stored form of a delivery's payload reads back as written, and a stored one that lacks
/// what its channel sends reads as nothing (the deliverer then fails it for good).
@Suite("Delivery payloads")
struct DeliveryPayloadTests {
    @Test func theStoredFormReadsBack() throws {
        let payloads: [DeliveryPayload] = [
            .email(.init(to: ["ops@example.com", "b@example.com"], subject: "s", text: "t", html: "<p>h</p>")),
            .email(.init(to: ["ops@example.com"], subject: "s", text: "t")),
            .webhook(.init(url: "https://x.example/h?k=1", headers: [.init(name: "X-A", value: "1")], body: #"{"a":1}"#)),
        ]
        for payload in payloads {
            let stored = try #require(JSONValue(jsonText: payload.json.jsonText))
            #expect(DeliveryPayload(stored: stored, channel: payload.channel) == payload)
        }
    }

    @Test func aRowStoredByEarlierVersionsReads() throws {
        let row = try #require(JSONValue(jsonText: #"{"url":"https://x.example/h","headers":[["X-A","1"],["bad"]],"body":"{}"}"#))
        #expect(DeliveryPayload(stored: row, channel: .webhook) == .webhook(.init(url: "https://x.example/h", headers: [.init(name: "X-A", value: "1")], body: "{}")))
    }

    @Test func anIncompleteOneReadsAsNothing() throws {
        for (text, channel) in [(#"{"to":[],"subject":"s","text":"t"}"#, DeliveryChannel.email), (#"{"subject":"s","text":"t"}"#, .email),
                                (#"{"url":"https://x.example"}"#, .webhook), ("null", .webhook),
                                (#"{"url":"https://x.example","body":"{}"}"#, .email)] {
            let stored = try #require(JSONValue(jsonText: text))
            #expect(DeliveryPayload(stored: stored, channel: channel) == nil, "\(text) as \(channel)")
        }
    }
}
