import Foundation
import Testing
@testable import RelayModel

@Suite("Item count plan")
struct ItemCountPlanTests {
    typealias Span = ItemCountPlan.Span

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func openRangesAreAllMonths() {
        let plan = ItemCountPlan(since: nil, until: nil)
        #expect(plan.months == Span(from: nil, to: nil) && plan.days.isEmpty && plan.direct.isEmpty)
        #expect(plan.rolledUp == Span(from: nil, to: nil))
    }

    @Test func aRangeSplitsIntoEdgesDaysAndMonths() {
        let since = Self.at("2026-03-14T10:30:00Z"), until = Self.at("2026-06-02T08:00:00Z")
        let plan = ItemCountPlan(since: since, until: until)
        #expect(plan.direct == [Span(from: since, to: Self.at("2026-03-15T00:00:00Z")),
                                Span(from: Self.at("2026-06-02T00:00:00Z"), to: until)])
        #expect(plan.days == [Span(from: Self.at("2026-03-15T00:00:00Z"), to: Self.at("2026-04-01T00:00:00Z")),
                              Span(from: Self.at("2026-06-01T00:00:00Z"), to: Self.at("2026-06-02T00:00:00Z"))])
        #expect(plan.months == Span(from: Self.at("2026-04-01T00:00:00Z"), to: Self.at("2026-06-01T00:00:00Z")))
        #expect(plan.rolledUp == Span(from: Self.at("2026-03-15T00:00:00Z"), to: Self.at("2026-06-02T00:00:00Z")))
    }

    @Test func alignedBoundsNeedNoEdges() {
        let plan = ItemCountPlan(since: Self.at("2026-01-01T00:00:00Z"), until: Self.at("2026-03-01T00:00:00Z"))
        #expect(plan.direct.isEmpty && plan.days.isEmpty)
        #expect(plan.months == Span(from: Self.at("2026-01-01T00:00:00Z"), to: Self.at("2026-03-01T00:00:00Z")))
    }

    @Test func withinAMonthIsDaysOnly() {
        let plan = ItemCountPlan(since: Self.at("2026-03-05T00:00:00Z"), until: Self.at("2026-04-01T00:00:00Z"))
        #expect(plan.months == nil && plan.direct.isEmpty)
        #expect(plan.days == [Span(from: Self.at("2026-03-05T00:00:00Z"), to: Self.at("2026-04-01T00:00:00Z"))])
    }

    @Test func withinADayIsCountedDirectly() {
        let since = Self.at("2026-03-05T01:00:00Z"), until = Self.at("2026-03-05T23:00:00Z")
        let plan = ItemCountPlan(since: since, until: until)
        #expect(plan.direct == [Span(from: since, to: until)] && plan.days.isEmpty && plan.months == nil && plan.rolledUp == nil)
        // Across one midnight but with no whole day inside: still one direct count.
        let across = ItemCountPlan(since: since, until: Self.at("2026-03-06T02:00:00Z"))
        #expect(across.direct == [Span(from: since, to: Self.at("2026-03-06T02:00:00Z"))])
        #expect(across.days.isEmpty && across.months == nil && across.rolledUp == nil)
    }

    @Test func oneSidedRanges() {
        let since = ItemCountPlan(since: Self.at("2026-10-20T12:00:00Z"), until: nil)
        #expect(since.direct == [Span(from: Self.at("2026-10-20T12:00:00Z"), to: Self.at("2026-10-21T00:00:00Z"))])
        #expect(since.days == [Span(from: Self.at("2026-10-21T00:00:00Z"), to: Self.at("2026-11-01T00:00:00Z"))])
        #expect(since.months == Span(from: Self.at("2026-11-01T00:00:00Z"), to: nil))
        let until = ItemCountPlan(since: nil, until: Self.at("2026-02-10T06:00:00Z"))
        #expect(until.months == Span(from: nil, to: Self.at("2026-02-01T00:00:00Z")))
        #expect(until.days == [Span(from: Self.at("2026-02-01T00:00:00Z"), to: Self.at("2026-02-10T00:00:00Z"))])
        #expect(until.direct == [Span(from: Self.at("2026-02-10T00:00:00Z"), to: Self.at("2026-02-10T06:00:00Z"))])
    }

    /// Every instant in a range is in exactly one part, and none outside it is in any: checked hour by hour.
    @Test func thePartsCoverTheRangeOnce() {
        var random = SystemRandomNumberGenerator()
        let origin = Self.at("2025-12-20T00:00:00Z")
        func contains(_ span: Span, _ t: Date) -> Bool { (span.from.map { t >= $0 } ?? true) && (span.to.map { t < $0 } ?? true) }
        var failures: [String] = []
        for _ in 0..<200 {
            let a = origin.addingTimeInterval(Double(Int.random(in: 0..<(120 * 24), using: &random)) * 3600 + 1800)
            let b = a.addingTimeInterval(Double(Int.random(in: 1..<(90 * 24), using: &random)) * 3600)
            let plan = ItemCountPlan(since: a, until: b)
            let rolledParts = [plan.months].compactMap { $0 } + plan.days
            var t = origin
            while t < origin.addingTimeInterval(220 * 86_400) {
                let inside = contains(Span(from: a, to: b), t)
                if (rolledParts + plan.direct).filter({ contains($0, t) }).count != (inside ? 1 : 0)
                    || (plan.rolledUp.map { contains($0, t) } ?? false) != rolledParts.contains(where: { contains($0, t) }) {
                    failures.append("\(a) to \(b) at \(t)")
                }
                t.addTimeInterval(3600)
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    @Test func bucketsAreUTCDates() {
        #expect(ItemCountPlan.bucketText(Self.at("2026-03-05T23:59:59Z")) == "2026-03-05")
        #expect(ItemCountPlan.bucketText(Self.at("0999-01-02T00:00:00Z")) == "0999-01-02")
    }
}
