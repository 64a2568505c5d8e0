import Foundation
import PostgresNIO
import RelayModel
import RelayStore

/// Settings for a relay that notifies: a rules file written to a temporary folder, the SMTP
/// sink, callbacks to loopback allowed, and a short retry schedule.
enum NotifyEnvironment {
    static func make(rules: String, smtpPort: Int? = nil, schedule: String = "100ms,100ms,100ms",
                     extra: [String: String] = [:]) throws -> [String: String] {
        let folder = try TestServerProcess.temporaryDirectory("rules")
        let path = folder.appendingPathComponent("rules.yaml").path
        try rules.write(toFile: path, atomically: true, encoding: .utf8)
        var env = [
            "ENTRUPY_RELAY_RULES_FILE": path, "ENTRUPY_RELAY_DELIVERY_RETRY_SCHEDULE": schedule, "ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS": "true",
            "CALLBACK_SECRET": TestCallbackServer.secret, "ENTRUPY_RELAY_SMTP_FROM": "Entrupy Relay <relay@example.com>",
            "ENTRUPY_RELAY_SMTP_TIMEOUT_SECONDS": "5",
        ]
        if let smtpPort { env["ENTRUPY_RELAY_SMTP_URL"] = "smtp://127.0.0.1:\(smtpPort)?tls=none" }
        env.merge(extra) { _, new in new }
        return env
    }

    /// Settings under which no target's breaker ever opens: for tests of retries and dead
    /// deliveries that fail one target many times on purpose.
    static let withoutBreaker = [
        "ENTRUPY_RELAY_TARGET_FAILURE_THRESHOLD": "100000", "ENTRUPY_RELAY_TARGET_FAILURE_MIN_ATTEMPTS": "100000",
    ]

    /// One rule posting every final result to the sink's `/fail` (always 500): a delivery that
    /// fails along `schedule` and ends dead, for the tests that read, page and retry deliveries.
    static func failingCallback(_ callbacks: TestCallbackServer, schedule: String) throws -> [String: String] {
        try make(rules: """
            rules:
              - name: partner-callback
                when: {transition: [result.final]}
                notify:
                  - webhook: {url: "\(callbacks.url("/fail"))", secret: "${CALLBACK_SECRET}"}
            """, schedule: schedule, extra: withoutBreaker)
    }

    static func deliveries(_ database: DatabaseURL, item: String? = nil) async throws -> [DeliveryRecord] {
        try await TestDatabase.withClient(database) { client in
            try await PostgresDeliveryStore(client: client, logger: TestDatabase.logger).list(DeliverySearch(item: item), limit: 1000)
        }
    }

    static func attempts(_ database: DatabaseURL, delivery: Int64) async throws -> [DeliveryAttempt] {
        try await TestDatabase.withClient(database) { client in
            try await PostgresDeliveryStore(client: client, logger: TestDatabase.logger).attempts(deliveryID: delivery)
        }
    }

    /// Waits until every delivery of the item has reached `state`; returns them.
    static func waitForDeliveries(_ database: DatabaseURL, item: String, count: Int, state: DeliveryState,
                                  timeout: Duration = .seconds(20)) async throws -> [DeliveryRecord] {
        _ = try await eventually(timeout: timeout) {
            let found = try await deliveries(database, item: item)
            return found.count == count && found.allSatisfy { $0.state == state }
        }
        return try await deliveries(database, item: item)
    }
}
