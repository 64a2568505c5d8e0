import Foundation
import RelayModel
import Testing

/// Silences: what a silence matches (pure), and what a request to make one must say.
@Suite("Silences")
struct SilenceTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let item = EntrupyItem(entrupyID: "E1", customerItemID: "SKU-1", result: "authentic", flag: "none", brand: "nike",
                                  category: "sneakers", username: "ann")

    static func silence(rule: String? = nil, _ fields: [String: [String]] = [:], starts: TimeInterval = -60, ends: TimeInterval = 3_600,
                        expiredAt: Date? = nil) throws -> Silence {
        var matchers = SilenceMatchers()
        for (field, values) in fields { try matchers.set(field, values) }
        return Silence(id: 1, rule: rule, matchers: matchers, author: "token ops", reason: "incident", startsAt: now.addingTimeInterval(starts),
                       expiresAt: now.addingTimeInterval(ends), createdAt: now, expiredAt: expiredAt)
    }

    @Test func matchesByRuleTransitionAndItemFields() throws {
        let silence = try Self.silence(rule: "partner", ["brand": ["Nike"], "transition": ["result.final"]])
        #expect(silence.matches(rule: "partner", transition: "result.final", item: Self.item))
        #expect(!silence.matches(rule: "other", transition: "result.final", item: Self.item), "another rule")
        #expect(!silence.matches(rule: "partner", transition: "flag.resolved", item: Self.item), "another transition")
        var adidas = Self.item
        adidas.brand = "adidas"
        #expect(!silence.matches(rule: "partner", transition: "result.final", item: adidas), "another brand")
        #expect(!silence.matches(rule: "partner", transition: "result.final", item: nil), "an operational delivery has no brand")
        #expect(silence.matches(rule: "partner", transition: "result.final"), "rule and transition alone allow it")
    }

    @Test func exactFieldsCompareWithCaseAndAMissingValueMatchesNothing() throws {
        let silence = try Self.silence(["customer_item_id": ["SKU-1"], "category": ["SNEAKERS"]])
        #expect(silence.matches(rule: "any", transition: "result.final", item: Self.item))
        var lower = Self.item
        lower.customerItemID = "sku-1"
        #expect(!silence.matches(rule: "any", transition: "result.final", item: lower))
        var none = Self.item
        none.category = nil
        #expect(!silence.matches(rule: "any", transition: "result.final", item: none))
        #expect(try Self.silence(rule: "ops", ["transition": ["delivery.dead"]]).matches(rule: "ops", transition: "delivery.dead", item: nil))
    }

    @Test func activeOnlyBetweenItsStartAndItsExpiry() throws {
        #expect(try Self.silence().isActive(at: Self.now))
        #expect(try !Self.silence(starts: 10).isActive(at: Self.now), "not started")
        #expect(try !Self.silence(ends: 0).isActive(at: Self.now), "expired at this instant")
        #expect(try !Self.silence(expiredAt: Self.now).isActive(at: Self.now), "expired early")
        #expect(try Self.silence(starts: 10).status(at: Self.now) == "pending")
        #expect(try Self.silence(expiredAt: Self.now).status(at: Self.now) == "expired")
    }

    @Test func matchersRefuseUnknownFieldsBadValuesAndUnknownTransitions() {
        #expect(throws: SilenceMatchers.Invalid.self) { try SilenceMatchers.parse(["colour": .string("red")]) }
        #expect(throws: SilenceMatchers.Invalid.self) { try SilenceMatchers.parse(["brand": .number(JSONNumber(3))]) }
        #expect(throws: SilenceMatchers.Invalid.self) { try SilenceMatchers.parse(["brand": .array([])]) }
        #expect(throws: SilenceMatchers.Invalid.self) { try SilenceMatchers.parse(["brand": .string("a\u{0}b")]) }
        #expect(throws: SilenceMatchers.Invalid.self) { try SilenceMatchers.parse(["transition": .string("result.later")]) }
        #expect(throws: SilenceMatchers.Invalid.self) {
            try SilenceMatchers.parse(["brand": .string(String(repeating: "x", count: 257))])
        }
    }

    @Test func aBulkRetryTakesSilencedDeliveries() throws {
        let filter = try DeliveryFilter.parse(state: "silenced", rule: "partner", target: nil, item: nil, since: nil, until: nil)
        #expect(filter.state == .silenced)
        #expect(throws: DeliveryFilter.Invalid.self) {
            try DeliveryFilter.parse(state: "delivered", rule: nil, target: nil, item: nil, since: nil, until: nil)
        }
    }

    @Test func aDraftNeedsAFutureBoundedExpiryAReasonAndSomethingToMatch() throws {
        func make(rule: String? = "r", reason: String? = "why", expires: Date? = nil, duration: String? = "2h",
                  starts: Date? = nil) throws -> SilenceDraft {
            try SilenceDraft.make(rule: rule, matchers: SilenceMatchers(), reason: reason, startsAt: starts, expiresAt: expires,
                                  duration: duration, now: Self.now)
        }
        #expect(try make().expiresAt == Self.now.addingTimeInterval(7_200))
        #expect(try make(duration: "1h30m").expiresAt == Self.now.addingTimeInterval(5_400))
        #expect(try make(expires: Self.now.addingTimeInterval(60), duration: nil).startsAt == Self.now)
        func refused(_ field: String, _ body: () throws -> SilenceDraft) {
            #expect { _ = try body() } throws: { ($0 as? SilenceDraft.Invalid)?.field == field }
        }
        refused("expires_at") { try make(duration: nil) }
        refused("expires_at") { try make(expires: Self.now.addingTimeInterval(-1), duration: nil) }
        refused("expires_at") { try make(duration: "91d") }
        refused("duration") { try make(duration: "soon") }
        refused("duration") { try make(duration: "0m") }
        refused("duration") { try make(expires: Self.now.addingTimeInterval(60), duration: "1h") }
        refused("reason") { try make(reason: "  ") }
        refused("reason") { try make(reason: nil) }
        refused("matchers") { try make(rule: nil) }
        refused("rule") { try make(rule: "") }
        refused("starts_at") { try make(starts: Self.now.addingTimeInterval(31 * 86_400)) }
        // Lengths count Unicode scalars, as the OpenAPI document's maxLength does: 150 letters each
        // with a combining accent are 150 characters but 300 scalars (schemathesis sent such a name).
        let combined = String(repeating: "e\u{301}", count: 150)
        refused("rule") { try make(rule: combined) }
        refused("reason") { try make(reason: String(repeating: "e\u{301}", count: 600)) }
        refused("reason") { try make(reason: " " + String(repeating: "x", count: 1_000)) }
        #expect(try make(rule: String(repeating: "e\u{301}", count: 100)).rule?.unicodeScalars.count == 200)
    }
}

extension SilenceTests {
    /// A silence must name a rule the rules file has: a misspelt one would silence nothing. One
    /// that names no rule (fields only) is not checked.
    @Test func aSilenceNamingNoRuleOfTheFileIsRefusedWithTheRules() throws {
        let draft = try SilenceDraft.make(rule: "partnr", matchers: SilenceMatchers(), reason: "incident", startsAt: nil, expiresAt: nil,
                                          duration: "1h", now: Self.now)
        #expect(throws: SilenceDraft.Invalid.self) { try draft.requireKnownRule(in: ["partner", "finals"]) }
        do {
            try draft.requireKnownRule(in: ["partner", "finals"])
        } catch {
            #expect(error.field == "rule")
            #expect(error.reason == #"no rule named "partnr" in the rules file (its rules: finals, partner)"#)
        }
        var known = draft
        known.rule = "partner"
        try known.requireKnownRule(in: ["partner"])
        var fieldsOnly = draft
        fieldsOnly.rule = nil
        try fieldsOnly.requireKnownRule(in: [])
        #expect(throws: SilenceDraft.Invalid.self) { try draft.requireKnownRule(in: []) }
    }
}
