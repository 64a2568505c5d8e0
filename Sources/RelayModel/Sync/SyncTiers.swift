public import Foundation

/// How far back each sync pass looks, so that a pass costs what changed rather than the whole
/// history: the last day every pass, the last week hourly, the whole window daily, by default
/// (`ENTRUPY_RELAY_SYNC_TIERS`: `1d@0,7d@1h,all@1d`). Each tier is `SPAN@EVERY`: a pass walks
/// the widest tier that is due (EVERY since that tier last completed, 0 meaning every pass),
/// and its completion counts for every narrower tier too. Entrupy's search finds items by
/// submission time only (contract section 2; v2 documents no search by `last_updated_at`), so
/// the windows are of submissions. Pure: the caller passes the clock and what completed when.
public struct SyncTiers: Sendable, Equatable, CustomStringConvertible {
    public struct Tier: Sendable, Equatable {
        /// How it is written (`1d`, `all`): its key in the store.
        public var name: String
        /// How far back it looks; nil for the whole lookback.
        public var span: Duration?
        /// How long after its last completion it is due again; zero for every pass.
        public var every: Duration
    }

    /// Narrowest first; the last is the whole window (`all`).
    public let tiers: [Tier]

    public static let standardText = "1d@0,7d@1h,all@1d"
    // The standard text parses: a test checks it.
    public static let standard = try! SyncTiers(standardText)

    public init(_ text: String) throws(SettingProblem) {
        var tiers: [Tier] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let halves = part.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
            guard halves.count == 2 else { throw SettingProblem("expected SPAN@EVERY entries such as \(Self.standardText), got \"\(part.prefix(40))\"") }
            let span: Duration?
            if halves[0] == "all" {
                span = nil
            } else {
                guard let parsed = Self.duration(halves[0]), parsed > .zero else {
                    throw SettingProblem("a span is all or a length such as 12h or 7d, got \"\(halves[0].prefix(40))\"")
                }
                span = parsed
            }
            guard let every = halves[1] == "0" ? .zero : Self.duration(halves[1]) else {
                throw SettingProblem("how often is 0 (every pass) or a length such as 30m or 1d, got \"\(halves[1].prefix(40))\"")
            }
            if let last = tiers.last {
                guard let previous = last.span else { throw SettingProblem("all must be the last tier") }
                if let span, span <= previous { throw SettingProblem("each tier must look further back than the one before it") }
            }
            tiers.append(Tier(name: halves[0], span: span, every: every))
        }
        guard tiers.count <= 8 else { throw SettingProblem("at most 8 tiers") }
        guard tiers.last?.span == nil else { throw SettingProblem("the last tier must be all (the whole lookback), such as all@1d") }
        self.tiers = tiers
    }

    /// The narrowest tier when it is walked every pass (`1d@0`): a wide pass walks it again each
    /// interval, so a wide pass never holds back the day's changes.
    public var everyPass: Tier? {
        tiers.first.flatMap { $0.every == .zero && $0.span != nil ? $0 : nil }
    }

    /// The tier a pass starting `now` walks: the widest one due. Nil when none is (every tier
    /// completed within its EVERY): then the pass is skipped.
    public func due(now: Date, lastCompleted: [String: Date]) -> Tier? {
        tiers.last { tier in
            // Every pass means every pass, even when a completion seems to lie ahead (a clock stepped back, a restored backup).
            guard tier.every > .zero, let completed = lastCompleted[tier.name] else { return true }
            return now.timeIntervalSince(completed) >= Double(tier.every.components.seconds)
        }
    }

    /// The tiers a complete pass of `tier` has walked: it and every narrower one.
    public func covered(by tier: Tier) -> [String] {
        guard let index = tiers.firstIndex(of: tier) else { return [tier.name] }
        return tiers[...index].map(\.name)
    }

    /// The tiers a complete pass of the tier named `name` walked: by name when it is one of
    /// these; otherwise (a pass begun under other settings, or before tiers) those whose window
    /// fits in the one it walked, `walked` long, so a narrower pass is never credited as wider.
    public func covered(byTierNamed name: String?, walked: Duration, lookback: Duration) -> [String] {
        if let tier = tiers.first(where: { $0.name == name }) { return covered(by: tier) }
        return tiers.filter { span(of: $0, lookback: lookback) <= walked + .seconds(1) }.map(\.name)
    }

    /// The window's length for `tier`, at most `lookback`.
    public func span(of tier: Tier, lookback: Duration) -> Duration {
        tier.span.map { min($0, lookback) } ?? lookback
    }

    public var description: String {
        tiers.map { "\($0.name)@\($0.every == .zero ? "0" : Self.text($0.every))" }.joined(separator: ",")
    }

    /// `90s`, `30m`, `12h`, `7d`: at most a year.
    static func duration(_ text: String) -> Duration? {
        guard let unit = text.last, let number = Int(text.dropLast()), number > 0, number <= 366 * 86_400 else { return nil }
        let seconds: Int
        switch unit {
        case "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3_600
        case "d": seconds = number * 86_400
        default: return nil
        }
        return seconds <= 366 * 86_400 ? .seconds(seconds) : nil
    }

    static func text(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60)] where seconds % size == 0 { return "\(seconds / size)\(unit)" }
        return "\(seconds)s"
    }
}
