import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

extension DeliveriesCommand {
    /// One delivery: its state and why it waits, if it does (held by its target's breaker, or
    /// held behind an earlier delivery for the same item and target), and the email group it is sent in.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one delivery: its state, and what holds it back, if anything.")

        @Argument(help: "The delivery's ID (`deliveries list` shows it).")
        var id: Int64

        @Flag(help: "Print it as the API's JSON.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger, id = self.id
            let found = try await CommandEnvironment.database(environment) { client in
                try await PostgresDeliveryStore(client: client, logger: logger).delivery(id: id)
            }
            guard let delivery = found else { throw ValidationError("no delivery \(id): see `deliveries list`") }
            if json {
                print(try OutputFormat.json(APIDelivery(delivery)))
                return
            }
            print(Self.lines(delivery).map { TerminalText.printable($0.0) + ": " + TerminalText.printable($0.1) }.joined(separator: "\n"))
        }

        static func lines(_ delivery: DeliveryRecord) -> [(String, String)] {
            var lines: [(String, String)] = [
                ("delivery", String(delivery.id)), ("item", delivery.entrupyID ?? "-"), ("transition", delivery.transition),
                ("rule", delivery.rule), ("channel", delivery.channel.rawValue), ("target", delivery.target),
                ("state", Self.state(of: delivery)), ("attempts", String(delivery.attempts)),
                ("webhook id", delivery.idempotencyKey), ("created", delivery.createdAt.ISO8601Format()),
            ]
            if delivery.state == .pending || delivery.state == .failed, let next = delivery.nextAttemptAt {
                lines.append(("next attempt", next.ISO8601Format()))
            }
            if case .email(let email)? = delivery.payload, let group = email.group {
                lines.append(("group", "grouped by \(group.label), \(Self.timing(group.timing)), due "
                              + group.timing.due(createdAt: delivery.createdAt).ISO8601Format()))
            }
            if let delivered = delivery.deliveredAt { lines.append(("delivered", delivered.ISO8601Format())) }
            if let error = delivery.lastError { lines.append(("last error", error)) }
            return lines
        }

        /// `group_wait 600s` or `digest 08:00 Europe/Paris`, as the API's `group.timing` says it.
        static func timing(_ timing: EmailGroupTiming) -> String {
            switch timing {
            case .wait(let seconds): "group_wait \(seconds)s"
            case .digest(let schedule): "digest \(schedule.atText) \(schedule.timeZone.identifier)"
            }
        }

        /// The state, and what holds it back: `pending, held behind delivery 12` (and the breaker's
        /// target when `breaker`; `deliveries list` leaves that to `targets list`).
        static func state(of delivery: DeliveryRecord, breaker: Bool = true) -> String {
            var text = delivery.state.rawValue
            if breaker, let by = delivery.heldBy { text += ", held by target \(by)" }
            if let behind = delivery.shownHeldBehind { text += ", held behind delivery \(behind)" }
            if let pause = delivery.pauseText() { text += ", \(pause)" }
            return text
        }
    }
}
