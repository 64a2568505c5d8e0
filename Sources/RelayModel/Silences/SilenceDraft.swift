public import Foundation

/// A silence as asked for, before it is stored: checked against the clock it is made at.
/// The expiry is required, either as a time or as a duration from the start, in the future,
/// and at most `maxLength` after the start: a silence that outlives the incident it was made
/// for stops notifications nobody meant to stop.
public struct SilenceDraft: Sendable, Equatable {
    public var rule: String?
    public var matchers: SilenceMatchers
    public var reason: String
    public var startsAt: Date
    public var expiresAt: Date

    /// The longest a silence may last.
    public static let maxLength: TimeInterval = 90 * 86_400
    /// How far ahead a silence may start.
    public static let maxLead: TimeInterval = 30 * 86_400

    /// Why a draft is refused: the field and what is wrong.
    public typealias Invalid = SilenceMatchers.Invalid

    /// Checks what was given: `startsAt` nil starts now; exactly one of `expiresAt` and
    /// `duration` (`30m`, `2h`, `1d`, `1h30m`); at least a rule or one matcher; a reason.
    public static func make(rule: String?, matchers: SilenceMatchers, reason: String?, startsAt: Date?, expiresAt: Date?,
                            duration: String?, now: Date) throws(Invalid) -> SilenceDraft {
        if let rule, rule.isEmpty || rule.unicodeScalars.count > 200 || rule.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw Invalid(field: "rule", reason: "must be a rule's name: 1 to 200 characters, without control characters")
        }
        guard rule != nil || !matchers.isEmpty else {
            throw Invalid(field: "matchers", reason: "a silence needs a rule or at least one field to match (it would stop everything)")
        }
        // Lengths in Unicode scalars, as JSON Schema's maxLength counts them (the OpenAPI document's
        // limits): a name of 150 accented letters written with combining marks is 300 long.
        let trimmed = reason?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty, (reason?.unicodeScalars.count ?? 0) <= 1_000,
              !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
            throw Invalid(field: "reason", reason: "required: why, in 1 to 1,000 characters")
        }
        let start = startsAt ?? now
        guard start.timeIntervalSince(now) <= maxLead else { throw Invalid(field: "starts_at", reason: "must be within 30 days from now") }
        let end: Date
        switch (expiresAt, duration) {
        case (let at?, nil): end = at
        case (nil, let text?):
            guard let seconds = parseDuration(text) else {
                throw Invalid(field: "duration", reason: "must be a duration like 30m, 2h, 1d or 1h30m")
            }
            end = start.addingTimeInterval(seconds)
        case (nil, nil): throw Invalid(field: "expires_at", reason: "required: when the silence ends (expires_at or duration)")
        case (_?, _?): throw Invalid(field: "duration", reason: "give expires_at or duration, not both")
        }
        guard end > now, end > start else { throw Invalid(field: "expires_at", reason: "must be in the future, after the start") }
        guard end.timeIntervalSince(start) <= maxLength else {
            throw Invalid(field: "expires_at", reason: "a silence lasts at most 90 days")
        }
        return SilenceDraft(rule: rule, matchers: matchers, reason: trimmed, startsAt: start, expiresAt: end)
    }

    /// `1d`, `2h`, `30m`, `45s`, or several in that order (`1h30m`); nil for anything else or zero.
    public static func parseDuration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        var total: TimeInterval = 0, digits = "", seen = false
        guard text.count <= 32 else { return nil }
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let number = Int(digits), number <= 100_000 {
                total += TimeInterval(number) * unit
                digits = ""
                seen = true
            } else {
                return nil
            }
        }
        return seen && digits.isEmpty && total > 0 ? total : nil
    }
}
