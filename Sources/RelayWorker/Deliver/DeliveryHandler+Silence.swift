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
        var items: [String: EntrupyItem?] = [:]
        guard let silence = try await matchingSilence(delivery, among: await pauses.silences.current(), now: Date(), items: &items) else {
            return nil
        }
        countSilenced(delivery, by: silence.id)
        return pauses.records.finish(recordingSilenceOf: delivery.id, by: silence.id)
    }

    /// The first of `silences` in force at `now` that matches `delivery`; nil when none does,
    /// or an operator redrove it after a silence (`silenceID` set). The item's fields are read
    /// only when a candidate names them, once per item: `items` keeps those read (an email
    /// group's members share it).
    func matchingSilence(_ delivery: DeliveryRecord, among silences: [Silence], now: Date,
                         items: inout [String: EntrupyItem?]) async throws -> Silence? {
        guard let pauses, delivery.silenceID == nil else { return nil }
        let candidates = silences
            .filter { $0.isActive(at: now) && $0.matches(rule: delivery.rule, transition: delivery.transition) }
        guard !candidates.isEmpty else { return nil }
        var item: EntrupyItem?
        if candidates.contains(where: \.matchers.readsItems), let entrupyID = delivery.entrupyID, !delivery.isOperational {
            if let known = items[entrupyID] {
                item = known
            } else {
                item = try await pauses.reader.silenceFields(entrupyID: entrupyID)
                items[entrupyID] = item
            }
        }
        return candidates.first { $0.matches(rule: delivery.rule, transition: delivery.transition, item: item) }
    }

    /// A silenced delivery's metric and log line.
    func countSilenced(_ delivery: DeliveryRecord, by silenceID: Int64) {
        MetricHandles.counter(.deliveriesSilenced, [("channel", delivery.channel.rawValue)]).increment()
        logger.info("delivery silenced", metadata: [
            "delivery_id": "\(delivery.id)", "rule": "\(delivery.rule)", "silence_id": "\(silenceID)",
            "entrupy_id": "\(delivery.entrupyID ?? "-")",
        ])
    }
}
