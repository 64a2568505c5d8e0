import Foundation
import Hummingbird
import RelayModel

/// The console's deliveries and targets pages: search deliveries by every filter, redrive the
/// dead (or failed) ones a search shows after seeing how many, and see and switch targets.
extension ConsoleController {
    static let targetNotices = [
        "target-enabled": "The target is enabled: its held deliveries are being released.",
        "target-disabled": "The target is disabled: its deliveries are held until it is enabled.",
    ]

    @Sendable func deliveriesPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        let pairs = try request.queryPairs().filter { !$0.1.isEmpty && $0.0 != "done" }
        do {
            let query = try DeliveryListQuery.parse(pairs)
            return try await deliveriesView(query, pairs: pairs, session: session)
        } catch let error as QueryParameterError {
            var view = ConsoleViews.deliveries([], query: DeliveryListQuery(), pairs: [], next: nil, session: session)
            view["problem"] = error.description
            return render("deliveries", view, status: .badRequest)
        }
    }

    /// A page of deliveries for `query`, with the bulk action's form (or its confirmation) when it applies.
    func deliveriesView(_ query: DeliveryListQuery, pairs: [(String, String)], session: ConsoleSession,
                        change: (inout [String: Any]) -> Void = { _ in }, status: HTTPResponse.Status = .ok) async throws -> Response {
        let fetched = try await deliveries.list(query.search, cursor: query.cursor, limit: query.limit + 1)
        let (shown, next) = PageCursor.page(fetched, limit: query.limit, cursor: \.pageCursor)
        var view = ConsoleViews.deliveries(shown, query: query, pairs: pairs, next: next, session: session)
        if session.caller.role.allows(.retryDeliveries), (try? Self.bulkFilter(query.search)) != nil {
            view["bulk"] = ["fields": pairs.filter { $0.0 != "cursor" && $0.0 != "limit" }.map { ["name": $0.0, "value": $0.1] },
                            "state": query.search.state?.rawValue ?? DeliveryState.dead.rawValue]
        }
        change(&view)
        return render("deliveries", view, status: status)
    }

    /// The bulk retry's filter for what a search shows: nil (no bulk action) for a search by
    /// webhook ID, or in a state a retry does not move.
    static func bulkFilter(_ search: DeliverySearch) throws -> DeliveryFilter? {
        guard search.webhookID == nil, search.state == nil || search.state == .dead || search.state == .failed
                || search.state == .silenced else { return nil }
        return try DeliveryFilter.parse(state: search.state?.rawValue, rule: search.rule, target: search.target, item: search.item,
                                        channel: search.channel?.rawValue, since: search.since, until: search.until)
    }

    /// `POST /console/deliveries/retry`: the search's filters. Without `expected`, shows how many
    /// match and asks to confirm; with it, retries them if the count is still that.
    @Sendable func bulkRetry(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        let pairs = DeliveryListQuery.parameterNames.subtracting(["cursor", "limit"]).sorted()
            .compactMap { name in form[name].flatMap { $0.isEmpty ? nil : (name, $0) } }
        let query: DeliveryListQuery
        do {
            query = try DeliveryListQuery.parse(pairs)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        guard let filter = try? Self.bulkFilter(query.search) else {
            throw APIError(.badRequest, "a bulk retry takes dead, failed or silenced deliveries, and not one webhook ID")
        }
        let by = "console \(session.caller.name)"
        let counted: BulkRetryReport
        do {
            counted = try await deliveries.retry(filter, requestedBy: by, dryRun: true)
        } catch let error as BulkRetryTooMany {
            return try await deliveriesView(query, pairs: pairs, session: session, change: { $0["problem"] = error.description }, status: .conflict)
        }
        let expected = form["expected"].flatMap { Int($0) }
        guard counted.matched > 0 else {
            return try await deliveriesView(query, pairs: pairs, session: session, change: { $0["notice"] = "No deliveries match: nothing to retry." })
        }
        guard let expected, expected == counted.matched else {
            return try await deliveriesView(query, pairs: pairs, session: session, change: { view in
                view["confirm"] = ["count": counted.matched, "state": filter.state.rawValue,
                                   "fields": pairs.map { ["name": $0.0, "value": $0.1] }]
                if let expected { view["problem"] = "The count changed from \(expected) to \(counted.matched) meanwhile: confirm again." }
            })
        }
        let report: BulkRetryReport
        do {
            report = try await deliveries.retry(filter, requestedBy: by, dryRun: false)
        } catch let error as BulkRetryTooMany {
            return try await deliveriesView(query, pairs: pairs, session: session, change: { $0["problem"] = error.description }, status: .conflict)
        }
        context.logger.info("console: bulk retry", metadata: ["matched": "\(report.matched)", "queued": "\(report.queued)", "by": "\(session.caller.name)"])
        return try await deliveriesView(query, pairs: pairs, session: session, change: { view in
            view["notice"] = "Retried: \(report.queued) of \(report.matched) queued again with their idempotency keys"
                + (report.skipped > 0 ? "; \(report.skipped) skipped (being attempted, delivered meanwhile, or without their payload)." : ".")
        })
    }

    @Sendable func targetsPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        guard let targets else { throw APIError(.serviceUnavailable, "targets are not available here") }
        let done = try request.queryPairs().first { $0.0 == "done" }?.1
        var view = ConsoleViews.targets(try await targets.list(), session: session, notice: done.flatMap { Self.targetNotices[$0] })
        if let targetTests { ConsoleViews.addTargetTests(&view, actions: targetTests.actions(), session: session) }
        return render("targets", view)
    }

    @Sendable func enableTarget(_ request: Request, context: RelayRequestContext) async throws -> Response {
        try await setTarget(request, context: context, enabled: true)
    }

    @Sendable func disableTarget(_ request: Request, context: RelayRequestContext) async throws -> Response {
        try await setTarget(request, context: context, enabled: false)
    }

    func setTarget(_ request: Request, context: RelayRequestContext, enabled: Bool) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        guard let targets else { throw APIError(.serviceUnavailable, "targets are not available here") }
        guard let id = Int64(try context.parameters.require("id")), id > 0,
              let health = try await targets.set(String(id), enabled: enabled, by: "console \(session.caller.name)") else {
            throw APIError(.notFound, "no such target")
        }
        context.logger.info("console: target \(enabled ? "enabled" : "disabled")", metadata: ["target": "\(health.key)", "by": "\(session.caller.name)"])
        return Self.redirect("/console/targets?done=\(enabled ? "target-enabled" : "target-disabled")")
    }
}
