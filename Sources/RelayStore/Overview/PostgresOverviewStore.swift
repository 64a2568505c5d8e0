import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayQueue

/// The overview's numbers, each from the cheapest source: per-day counts from the count
/// rollup (migration 0006, never a scan of items), final-result times from the timeline's
/// `result.final` rows of the period, deliveries of the period by state, the queue's lag.
public struct PostgresOverviewStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func overview(days: Int = 30) async throws -> Overview {
        let days = min(max(days, 1), 366)
        var byDay: [Date: Overview.Day] = [:]
        let counts = try await client.query("""
            WITH counted AS (
                SELECT bucket, result, flag, n FROM item_counts
                WHERE period = 'day' AND bucket > (now() AT TIME ZONE 'UTC')::date - \(days)::int
                UNION ALL
                SELECT bucket, result, flag, n FROM item_count_changes
                WHERE bucket > (now() AT TIME ZONE 'UTC')::date - \(days)::int)
            SELECT bucket::timestamp AT TIME ZONE 'UTC', result, sum(n)::int8, (sum(n) FILTER (WHERE flag = 'flagged'))::int8
            FROM counted GROUP BY 1, 2 ORDER BY 1
            """, logger: logger)
        for try await (day, result, n, flagged) in counts.decode((Date, String, Int64, Int64?).self) {
            var entry = byDay[day] ?? Overview.Day(day: day, byResult: [:], flagged: 0)
            entry.byResult[result, default: 0] += Int(n)
            entry.flagged += Int(flagged ?? 0)
            byDay[day] = entry
        }
        var latency: [Overview.Latency] = []
        let times = try await client.query("""
            SELECT date_trunc('day', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*)::int8,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM occurred_at - submitted_at))::float8,
                   percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM occurred_at - submitted_at))::float8
            FROM item_events
            WHERE kind = 'result.final' AND occurred_at > now() - \(days) * interval '1 day'
              AND submitted_at IS NOT NULL AND occurred_at >= submitted_at
            GROUP BY 1 ORDER BY 1
            """, logger: logger)
        for try await (day, count, median, p90) in times.decode((Date, Int64, Double, Double).self) {
            latency.append(Overview.Latency(day: day, count: Int(count), medianSeconds: median, p90Seconds: p90))
        }
        var deliveries: [DeliveryState: Int] = [:]
        let states = try await client.query("""
            SELECT state, count(*)::int8 FROM deliveries WHERE created_at > now() - \(days) * interval '1 day' GROUP BY state
            """, logger: logger)
        for try await (state, n) in states.decode((DeliveryState, Int64).self) { deliveries[state] = Int(n) }
        // The queue's own figures, as the metrics report them: the queue alone reads `jobs`.
        let queue = try await PostgresJobQueue(client: client, logger: logger).stats()
        return Overview(days: byDay.values.sorted { $0.day < $1.day }, latency: latency, deliveries: deliveries,
                        queueAvailable: queue.available, queueLagSeconds: queue.oldestAvailableSeconds, queueDead: queue.dead)
    }
}
