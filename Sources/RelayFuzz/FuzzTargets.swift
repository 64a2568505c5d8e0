import Foundation
import RelayModel
import RelayNotify
import RelayRules

/// The parsers that read what comes from outside, each as a libFuzzer target: any input must
/// give a value or a thrown error, never a trap, a hang or a leak. `deploy/fuzz.sh TARGET
/// SECONDS` runs one; the target is chosen by `RELAY_FUZZ_TARGET`.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "json": { bytes in _ = try? JSONParser.parse(bytes) },
        "webhook": { bytes in
            let parsed = WebhookPayloadParser.parse(body: bytes, headers: ["webhook-id": "msg_fuzz"], verifiedBy: .standardWebhooks)
            _ = parsed.dedupKey
        },
        "item": { bytes in
            guard let json = try? JSONParser.parse(bytes) else { return }
            _ = try? EntrupyItemParser.parse(json)
        },
        "rules": { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? RuleSetParser(secret: { _ in "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }).parse(text)
        },
        "query": { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let pairs = try? FormURLEncoding.decode(text) else { return }
            _ = try? ItemSearchQuery.parse(pairs, now: Date(timeIntervalSince1970: 1_795_000_000))
            _ = try? EventListQuery.parse(pairs)
            _ = try? DeliveryListQuery.parse(pairs)
        },
        "cursor": { bytes in _ = PageCursor(text: String(decoding: bytes, as: UTF8.self)) },
        "smtp-reply": { bytes in
            var parser = SMTPReplyParser()
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                guard (try? parser.feed(String(line))) != nil else { return }
            }
        },
        "address": { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            if let address = IPAddress(text) { _ = address.restrictedScope; _ = address.description }
            if let block = CIDRBlock(text) { _ = block.contains(IPAddress("10.1.2.3")!) }
            _ = ClientAddressResolver(trustedProxies: [CIDRBlock("127.0.0.1/32")!])
                .clientAddress(peer: "127.0.0.1", forwardedFor: [text])
        },
        "retry-after": { bytes in
            _ = RetryAfter.parse(String(decoding: bytes, as: UTF8.self), now: Date(timeIntervalSince1970: 1_795_000_000),
                                 maximum: .seconds(86_400))
        },
    ]
}
