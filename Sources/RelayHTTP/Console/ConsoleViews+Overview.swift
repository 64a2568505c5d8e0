import Foundation
import RelayModel

extension ConsoleViews {
    /// The overview page: items per day by result, the flag rate, time to a final result,
    /// deliveries by state and the queue's lag, as server-drawn SVG and plain numbers.
    static func overview(_ o: Overview, days: Int, session: ConsoleSession, now: Date = Date()) -> [String: Any] {
        var context = base(title: "Overview", session: session, csrf: session.csrfToken)
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let today = utc.startOfDay(for: now)
        let dayList = (0..<days).reversed().compactMap { utc.date(byAdding: .day, value: -$0, to: today) }
        let label: (Date) -> String = { String(ISODate.text($0).dropFirst(5).prefix(5)) }
        let byDay = Dictionary(o.days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        var keys = results.map { ItemLabels.result($0) }
        var columns: [SVGChart.Column] = []
        for day in dayList {
            let counts = byDay[day]?.byResult ?? [:]
            var segments: [(key: String, value: Double)] = results.map { (ItemLabels.result($0), Double(counts[$0] ?? 0)) }
            let other = counts.filter { !results.contains($0.key) }.values.reduce(0, +)
            if other > 0 { segments.append(("Other", Double(other))) }
            columns.append(SVGChart.Column(label: label(day), segments: segments))
        }
        if columns.contains(where: { $0.segments.contains { $0.key == "Other" } }) { keys.append("Other") }
        context["itemsChart"] = SVGChart.stackedColumns(columns, keys: keys, title: "Items per day by result, last \(days) days")
        let total = o.days.reduce(0) { $0 + $1.total }
        context["totalItems"] = total
        context["flagRate"] = String(format: "%.2f %%", o.flagRate * 100)
        context["flagged"] = o.days.reduce(0) { $0 + $1.flagged }
        let latency = Dictionary(o.latency.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        context["latencyChart"] = SVGChart.lines(dayList.map(label), series: [
            ("median", dayList.map { latency[$0].map { $0.medianSeconds / 60 } }),
            ("p90", dayList.map { latency[$0].map { $0.p90Seconds / 60 } }),
        ], title: "Submission to final result, minutes", unit: " min")
        context["latencyDays"] = o.latency.suffix(7).reversed().map { l -> [String: Any] in
            ["day": label(l.day), "count": l.count, "median": minutes(l.medianSeconds), "p90": minutes(l.p90Seconds)]
        }
        let states: [DeliveryState] = [.delivered, .pending, .failed, .dead]
        context["deliveriesChart"] = SVGChart.stackedColumns(
            states.map { SVGChart.Column(label: $0.rawValue, segments: [($0.rawValue, Double(o.deliveries[$0] ?? 0))]) },
            keys: states.map(\.rawValue), title: "Deliveries created in the last \(days) days, by state", width: 360, height: 180)
        context["deliveries"] = states.map { ["state": $0.rawValue, "count": o.deliveries[$0] ?? 0] }
        context["queue"] = ["available": o.queueAvailable, "lag": minutes(o.queueLagSeconds), "dead": o.queueDead]
        context["days"] = days
        return context
    }

    static func minutes(_ seconds: Double) -> String {
        seconds < 120 ? String(format: "%.0f s", seconds) : seconds < 7_200 ? String(format: "%.1f min", seconds / 60)
            : String(format: "%.1f h", seconds / 3_600)
    }
}
