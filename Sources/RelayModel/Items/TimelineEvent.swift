public import Foundation

/// One line of an item's merged timeline, for people: what happened, when, in a sentence.
public struct TimelineEvent: Sendable, Equatable {
    /// `webhook.received`, `support.message`, `certificate.transfer`, `reconciled`, a transition kind (`result.final`, ...), or
    /// `delivery.delivered` / `delivery.failed` / `delivery.dead` for an attempt.
    public var kind: String
    public var at: Date
    public var summary: String
    public var webhookEventID: Int64?
    public var deliveryID: Int64?
    /// Orders same-instant entries by cause: webhook, fetch, transition, delivery.
    let rank: Int

    /// Pure: the detail's sections as one list in time order.
    static func merge(_ detail: ItemDetail) -> [TimelineEvent] {
        var events: [TimelineEvent] = []
        for webhook in detail.webhooks ?? [] {
            var summary = "\(webhook.eventType ?? "webhook") received (\(webhook.state.rawValue))"
            if webhook.duplicates > 0 { summary += ", \(webhook.duplicates) duplicate(s)" }
            if let removed = webhook.bodyRemoved { summary += ", body \(removed)" }
            events.append(.init(kind: "webhook.received", at: webhook.receivedAt, summary: summary,
                                webhookEventID: webhook.id, deliveryID: nil, rank: 1))
        }
        for note in detail.notes {
            events.append(.init(kind: note.kind, at: note.at, summary: note.text, webhookEventID: note.webhookEventID,
                                deliveryID: nil, rank: 1))
        }
        for flag in detail.flagRequests {
            events.append(.init(kind: "flag.requested", at: flag.requestedAt, summary: flag.summary, webhookEventID: nil,
                                deliveryID: nil, rank: 1))
        }
        for fetch in detail.reconciliations {
            events.append(.init(kind: "reconciled", at: fetch.at,
                                summary: "fetched (\(fetch.source)): \(fetch.outcome), \(fetch.transitions) transition(s)"
                                    + (fetch.note.map { "; \($0)" } ?? ""),
                                webhookEventID: fetch.webhookEventID, deliveryID: nil, rank: 2))
        }
        for transition in detail.transitions {
            events.append(.init(kind: transition.kind, at: transition.at,
                                summary: "\(transition.from ?? "–") → \(transition.to ?? "–")",
                                webhookEventID: transition.webhookEventID, deliveryID: nil, rank: 3))
        }
        for history in detail.deliveries ?? [] {
            let delivery = history.delivery
            if history.attempts.isEmpty, let removedAt = delivery.attemptsRemovedAt {
                // Its attempt rows are gone; the delivery's own record says how it ended.
                events.append(.init(kind: "delivery.\(delivery.state.rawValue)", at: delivery.deliveredAt ?? removedAt,
                                    summary: "\(delivery.rule): \(delivery.channel.rawValue) to \(delivery.target), \(delivery.state.rawValue) "
                                        + "after \(delivery.attempts) attempt(s); attempt records expired",
                                    webhookEventID: nil, deliveryID: delivery.id, rank: 4))
            }
            for attempt in history.attempts {
                var summary = "\(delivery.rule): \(delivery.channel.rawValue) to \(delivery.target), attempt \(attempt.attempt) \(attempt.outcome.rawValue)"
                if let status = attempt.statusCode { summary += " (HTTP \(status))" }
                if let error = attempt.error { summary += ": \(error)" }
                if let digest = attempt.responseExcerpt, digest.hasPrefix("sent in digest ") { summary += "; \(digest)" }
                events.append(.init(kind: "delivery.\(attempt.outcome.rawValue)", at: attempt.startedAt, summary: summary,
                                    webhookEventID: nil, deliveryID: delivery.id, rank: 4))
            }
            if let pause = TimelineEvent.pause(of: delivery) { events.append(pause) }
        }
        return events.enumerated().sorted { a, b in
            if a.element.at != b.element.at { return a.element.at < b.element.at }
            if a.element.rank != b.element.rank { return a.element.rank < b.element.rank }
            return a.offset < b.offset
        }.map(\.element)
    }
}
