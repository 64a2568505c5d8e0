import Foundation

/// The most deliveries a target takes, from the rules file's `targets:` list (`rate_limit: 5/s`):
/// `count` per second or per minute, shared by every replica (`PostgresTargetThrottle`). A
/// delivery waits for the next free slot, one `period` after the last one taken.
public struct TargetRateLimit: Sendable, Equatable {
    public enum Unit: String, Sendable {
        case second = "s", minute = "m"

        var seconds: Double { self == .second ? 1 : 60 }
    }

    /// Deliveries per `unit`: positive, perhaps fractional (`0.5/s`).
    public let count: Double
    public let unit: Unit

    /// The fastest limit: 1,000 a second (a slot each millisecond).
    public static let shortestPeriod = Duration.milliseconds(1)
    /// The slowest limit: one an hour (`1/60` a minute is written `0.0167/m`, a little faster).
    public static let longestPeriod = Duration.seconds(3_600)

    /// Nil unless `count` is positive and the period between slots within the bounds.
    public init?(count: Double, unit: Unit) {
        guard count.isFinite, count > 0 else { return nil }
        let seconds = unit.seconds / count
        guard seconds >= Self.shortestPeriod.timeInterval, seconds <= Self.longestPeriod.timeInterval else { return nil }
        self.count = count
        self.unit = unit
    }

    /// The time between two slots, to the microsecond.
    public var period: Duration {
        .microseconds(periodMicroseconds)
    }

    /// `period` in whole microseconds, for SQL intervals.
    public var periodMicroseconds: Int64 {
        Int64((unit.seconds * 1_000_000 / count).rounded())
    }

    /// As written in a rules file: `5/s`, `0.5/s`, `30/m`.
    public var text: String {
        let whole = count.rounded() == count && count < 1e15
        return "\(whole ? String(Int64(count)) : String(count))/\(unit.rawValue)"
    }

    /// Reads `N/s` or `N/m`: N digits with at most one decimal point (no sign, exponent,
    /// `inf` or `nan`), at most 12 characters. The error says what is wrong, for the rules
    /// file's problem line.
    public static func parse(_ text: String) -> Result<TargetRateLimit, ParseError> {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let unit = Unit(rawValue: String(parts[1])) else { return .failure(.shape) }
        let number = parts[0]
        let dots = number.filter { $0 == "." }.count
        guard !number.isEmpty, number.count <= 12, dots <= 1, number.first != ".", number.last != ".",
              number.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }), let count = Double(number) else {
            return .failure(.shape)
        }
        guard count > 0 else { return .failure(.zero) }
        guard let limit = TargetRateLimit(count: count, unit: unit) else {
            return .failure(unit.seconds / count < shortestPeriod.timeInterval ? .tooFast : .tooSlow)
        }
        return .success(limit)
    }

    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case shape, zero, tooFast, tooSlow

        public var description: String {
            switch self {
            case .shape: "expected a rate such as 5/s or 30/m: a positive number, `/`, then s (a second) or m (a minute)"
            case .zero: "must be more than 0; to stop a target's deliveries, disable it (`entrupy-relay targets disable`)"
            case .tooFast: "at most 1000/s"
            case .tooSlow: "at least one an hour (0.0167/m)"
            }
        }
    }
}
