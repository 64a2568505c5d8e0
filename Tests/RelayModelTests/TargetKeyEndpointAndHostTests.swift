import Foundation
import RelayModel
import Testing

/// One parse of a callback's URL gives the deliver handler both of its keys: the breaker's
/// (the endpoint) and the limiter's (the host), each as the separate parses gave them.
@Suite("A callback URL's endpoint and host from one parse")
struct TargetKeyEndpointAndHostTests {
    @Test func theEndpointAndTheLowerCasedHost() {
        let (endpoint, host) = TargetKey.endpointAndHost(of: "https://Partner.Example:8443/hook?x=1")
        #expect(endpoint == "https://partner.example:8443/***#" + String(TargetKey.endpoint(of: "https://a.example/hook").suffix(16)))
        #expect(host == "partner.example")
        #expect(TargetKey.endpointAndHost(of: "http://127.0.0.1:8080/hook") == ("http://127.0.0.1:8080/***#6fc2d0517addd295", "127.0.0.1"))
    }

    @Test func aURLWithoutAHostIsMaskedAndHasNone() {
        let (endpoint, host) = TargetKey.endpointAndHost(of: "not a url")
        #expect(endpoint == TargetKey.endpoint(of: "not a url"))
        #expect(host == nil)
    }

    @Test func theSameAsTheSeparateParses() {
        for url in ["https://hooks.example.com/services/T0/B0/SECRET", "https://hooks.example.com", "HTTP://[::1]:80/a?b#c",
                    "https:///nohost", "mailto:ops@example.com", "https://xn--bcher-kva.example/%7Euser", ""] {
            let (endpoint, host) = TargetKey.endpointAndHost(of: url)
            #expect(endpoint == TargetKey.endpoint(of: url), "\(url)")
            #expect(host == URLComponents(string: url)?.host?.lowercased(), "\(url)")
        }
    }

    /// A delivery's two keys: a callback's endpoint and its host (lower-cased), email's the SMTP server's.
    @Test func aDeliversBreakerAndLimitKeys() {
        func delivery(_ channel: DeliveryChannel, _ payload: DeliveryPayload) -> DeliveryRecord {
            DeliveryRecord(id: 1, itemEventID: 1, entrupyID: "e", rule: "r", actionIndex: 0, channel: channel, target: "masked",
                           payload: payload, idempotencyKey: "k", state: .pending, attempts: 0, scheduleBase: 0, createdAt: Date(), transition: "t")
        }
        let url = "https://Partner.Example:8443/hook?x=1"
        let callback = TargetKey.keys(of: delivery(.webhook, .webhook(.init(url: url, headers: [], body: "{}"))))
        #expect(callback.breaker == TargetKey.endpoint(of: url) && callback.limit == "http:partner.example")
        #expect(TargetKey.of(delivery(.webhook, .webhook(.init(url: url, headers: [], body: "{}")))) == callback.breaker)
        let hostless = TargetKey.keys(of: delivery(.webhook, .webhook(.init(url: "not a url", headers: [], body: "{}"))))
        #expect(hostless.limit == "http:not a url")
        let email = TargetKey.keys(of: delivery(.email, .webhook(.init(url: url, headers: [], body: "{}"))))
        #expect(email.breaker == TargetKey.smtp && email.limit == "smtp")
    }
}
