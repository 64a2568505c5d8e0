/// How long after submission an item without a final result is overdue, per product category
/// (`ENTRUPY_RELAY_OVERDUE_AFTER`: `24h`, or `24h,luxury=48h`: a default, then categories).
/// The defaults are our choice, not Entrupy's: the references we read publish no turnaround
/// per category (docs/entrupy.md). Pure: the store turns them into the candidates' query.
public struct OverdueThresholds: Sendable, Equatable, CustomStringConvertible {
    /// How long, and how it is written (`24h`): the key of "one overdue per item per threshold".
    public struct Threshold: Sendable, Equatable {
        public var seconds: Int
        /// In hours when whole hours (`48h`, even for `2d`), else minutes: as a marketplace counts them.
        public var key: String { seconds % 3_600 == 0 ? "\(seconds / 3_600)h" : "\(seconds / 60)m" }

        public init(seconds: Int) { self.seconds = seconds }
    }

    public var fallback: Threshold
    /// Category name in lower case (`luxury`; items match it whatever their case) → its threshold.
    public var byCategory: [String: Threshold]

    /// How long after its threshold an item is still reported: an item unfinished for longer
    /// (one abandoned years ago, found on the first pass after an upgrade) is old news, not
    /// news, and is never fetched for it.
    public static let lookbackSeconds = 7 * 86_400
    /// Results that wait on nobody at Entrupy: the flow was cancelled, or the seller must retake
    /// (`result.retake_requested` said so). Such items are never overdue.
    public static let notAwaitingEntrupy = ["canceled", "data_required"]

    public static let standardText = "24h"
    // The standard text parses: a test checks it.
    public static let standard = try! OverdueThresholds(standardText)

    public init(fallback: Threshold, byCategory: [String: Threshold] = [:]) {
        self.fallback = fallback
        self.byCategory = byCategory
    }

    /// `DURATION` then `category=DURATION` entries, comma-separated; durations as `30m`, `24h`, `2d`.
    public init(_ text: String) throws(SettingProblem) {
        var fallback: Threshold?
        var byCategory: [String: Threshold] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let halves = part.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            guard halves.count <= 2, let duration = SyncTiers.duration(halves.last ?? ""), duration >= .seconds(60),
                  duration.components.seconds % 60 == 0 else {
                throw SettingProblem("expected whole minutes such as 24h, then category=LENGTH entries (luxury=48h), got \"\(part.prefix(40))\"")
            }
            let threshold = Threshold(seconds: Int(duration.components.seconds))
            if halves.count == 1 {
                guard fallback == nil else { throw SettingProblem("one default length only, got a second: \"\(part.prefix(40))\"") }
                fallback = threshold
            } else {
                let name = halves[0]
                guard (1...64).contains(name.count), byCategory[name] == nil,
                      name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isLowercase || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }) else {
                    throw SettingProblem("a category is lower-case letters, digits, _ or -, named once; got \"\(name.prefix(64))\"")
                }
                byCategory[name] = threshold
            }
        }
        guard let fallback else { throw SettingProblem("expected a default length first, such as 24h") }
        self.init(fallback: fallback, byCategory: byCategory)
    }

    /// The threshold of an item of `category` (nil or unnamed: the default).
    public func threshold(for category: String?) -> Threshold {
        category.flatMap { byCategory[$0.lowercased()] } ?? fallback
    }

    /// The longest of them: no item submitted earlier than this plus the lookback is reported.
    public var longest: Threshold {
        ([fallback] + byCategory.values).max { $0.seconds < $1.seconds } ?? fallback
    }

    /// The shortest of them: no item submitted later than this ago can be overdue.
    public var shortest: Threshold {
        ([fallback] + byCategory.values).min { $0.seconds < $1.seconds } ?? fallback
    }

    public var description: String {
        ([fallback.key] + byCategory.keys.sorted().map { "\($0)=\(byCategory[$0]!.key)" }).joined(separator: ",")
    }
}
