/// The waits between delivery attempts, e.g. `5s,5m,30m,2h,5h,10h,14h,20h,24h`: after the
/// Nth failed attempt the Nth wait applies, jittered; when the list is spent the delivery is dead.
public struct RetrySchedule: Sendable, Equatable, CustomStringConvertible {
    public static let defaultText = "5s,5m,30m,2h,5h,10h,14h,20h,24h"
    public static let standard = RetrySchedule(parsing: defaultText)!

    public let delays: [Duration]

    public init(delays: [Duration]) {
        self.delays = delays
    }

    /// Parses comma-separated durations with a unit each: `ms`, `s`, `m`, `h`, `d`.
    /// Nil when any entry is malformed, negative, or the list is empty.
    public init?(parsing text: String) {
        var delays: [Duration] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let delay = Self.duration(entry.trimmingCharacters(in: .whitespaces)) else { return nil }
            delays.append(delay)
        }
        guard !delays.isEmpty else { return nil }
        self.delays = delays
    }

    /// Attempts in all: the first plus one per wait.
    public var maxAttempts: Int { delays.count + 1 }

    /// The wait after `attempt` (from 1) failed, jittered by up to a fifth either way; nil
    /// when no attempt is left. `unit` is a random number in 0..<1, injected so tests are exact.
    public func delay(afterAttempt attempt: Int, unit: Double) -> Duration? {
        guard attempt >= 1, attempt <= delays.count else { return nil }
        let factor = 0.8 + 0.4 * min(max(unit, 0), 1)
        return delays[attempt - 1] * factor
    }

    public func delay(afterAttempt attempt: Int) -> Duration? {
        delay(afterAttempt: attempt, unit: Double.random(in: 0..<1))
    }

    public var description: String {
        delays.map(Self.text).joined(separator: ",")
    }

    static func duration(_ text: String) -> Duration? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (suffix, milliseconds) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "ms" also ends in "s": only accept a plain number before the unit.
            guard !number.isEmpty, number.allSatisfy(\.isASCII), let value = Int64(number), value >= 0,
                  value <= Int64.max / milliseconds / 1_000_000 else { continue }
            return .milliseconds(value * milliseconds)
        }
        return nil
    }

    static func text(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        for (suffix, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1_000)] where ms >= size && ms % size == 0 {
            return "\(ms / size)\(suffix)"
        }
        return "\(ms)ms"
    }
}
