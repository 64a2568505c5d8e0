import Foundation
import Logging
import Metrics
public import RelayModel
public import RelayQueue
import RelayRuntime

extension DeliveryHandler {
    /// The handler with silences and quiet hours checked before each attempt.
    public func pausing(_ pauses: DeliveryPauses) -> DeliveryHandler {
        var handler = self
        handler.pauses = pauses
        return handler
    }

    /// Checked at attempt time, so a silence stops what is planned after it and the backlog
    /// already queued when it was made. A delivery a silence matches is completed `silenced`,
    /// never sent; one an operator redrove after a silence (`silenceID` set) is sent anyway.
    /// The silences come from the worker's copy (`SilenceCache`): no statement per delivery;
    /// the item's fields are read only when a silence in force could match and names them.
    func silence(_ delivery: DeliveryRecord) async throws -> JobResult? {
        guard let pauses, delivery.silenceID == nil else { return nil }
        let now = Date()
        let candidates = await pauses.silences.current()
            .filter { $0.isActive(at: now) && $0.matches(rule: delivery.rule, transition: delivery.transition) }
        guard !candidates.isEmpty else { return nil }
        var item: EntrupyItem?
        if candidates.contains(where: \.matchers.readsItems), let entrupyID = delivery.entrupyID, !delivery.isOperational {
            item = try await pauses.reader.silenceFields(entrupyID: entrupyID)
        }
        guard let silence = candidates.first(where: { $0.matches(rule: delivery.rule, transition: delivery.transition, item: item) }) else {
            return nil
        }
        MetricHandles.counter(.deliveriesSilenced, [("channel", delivery.channel.rawValue)]).increment()
        logger.info("delivery silenced", metadata: [
            "delivery_id": "\(delivery.id)", "rule": "\(delivery.rule)", "silence_id": "\(silence.id)",
            "entrupy_id": "\(delivery.entrupyID ?? "-")",
        ])
        return pauses.records.finish(recordingSilenceOf: delivery.id, by: silence.id)
    }
}
