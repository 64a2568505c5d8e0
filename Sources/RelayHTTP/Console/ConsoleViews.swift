import Foundation
import RelayModel

/// Turns records into the plain dictionaries the console's templates read (pure).
enum ConsoleViews {
    static let results = ["authentic", "unknown", "not_supported", "needs_review", "invalid"]

    static func time(_ date: Date?) -> String {
        guard let date else { return "–" }
        return ISODate.text(date).replacingOccurrences(of: "T", with: " ")
    }

    static func base(title: String, session: ConsoleSession?, csrf: String) -> [String: Any] {
        var context: [String: Any] = ["title": title, "csrf": csrf]
        if let session {
            context["caller"] = ["name": session.caller.name, "role": session.caller.role.rawValue]
        }
        return context
    }

    static func items(_ page: ItemSearchPage, query: ItemSearchQuery, lastDays: String?, session: ConsoleSession) -> [String: Any] {
        var context = base(title: "Items", session: session, csrf: session.csrfToken)
        context["filters"] = [
            "customer_item_id": query.customerItemIDs.first ?? "", "brand": query.brands.first ?? "",
            "category": query.categories.first ?? "", "username": query.usernames.first ?? "", "last_days": lastDays ?? "",
        ]
        context["results"] = (results + query.results.filter { !results.contains($0) }).map {
            ["value": $0, "selected": query.results.contains($0)] as [String: Any]
        }
        context["flags"] = ItemSearchQuery.flags.map { ["value": $0, "selected": query.flags.contains($0)] as [String: Any] }
        context["total"] = page.totalCount
        context["shown"] = page.items.count
        context["hasItems"] = !page.items.isEmpty
        context["items"] = page.items.map { item -> [String: Any] in
            ["entrupy_id": item.entrupyID, "link": PercentEncoding.pathSegment(item.entrupyID), "customer_item_id": item.customerItemID ?? "–",
             "result": item.result ?? "–", "final": item.resultFinal, "flag": item.flag, "brand": item.brand ?? "–",
             "category": item.category ?? "–", "username": item.username ?? "–", "listed_at": time(item.listedAt)]
        }
        context["exportQuery"] = FormURLEncoding.encode(query.filterPairs)
        if let next = page.nextCursor {
            var pairs = query.filterPairs
            if let lastDays { // keep "last N days" relative rather than pinning the first page's date
                pairs.removeAll { $0.0 == "since" }
                pairs.append(("last_days", lastDays))
            }
            pairs.append(("limit", String(query.limit)))
            pairs.append(("cursor", next.text))
            context["next"] = FormURLEncoding.encode(pairs)
        }
        return context
    }

    static func item(_ detail: ItemDetail, session: ConsoleSession, notice: String?) -> [String: Any] {
        let role = session.caller.role
        var context = base(title: detail.entrupyID, session: session, csrf: session.csrfToken)
        if let notice { context["notice"] = notice }
        let item = detail.item
        context["item"] = [
            "entrupy_id": item.entrupyID, "link": PercentEncoding.pathSegment(item.entrupyID),
            "customer_item_id": item.customerItemID ?? "–", "result": item.result ?? "–", "final": item.resultFinal,
            "flag": item.flag, "brand": item.brand ?? "–", "model": detail.model ?? "–", "category": item.category ?? "–",
            "username": item.username ?? "–", "certificate_url": detail.certificateURL ?? detail.details.certificateID.map { "ID " + $0 } ?? "–",
            "first_seen_at": time(detail.firstSeenAt), "fetched_at": time(detail.fetchedAt),
        ] as [String: Any]
        let shown = detail.visible(to: role)
        context["details"] = itemDetails(shown)
        context["timeline"] = shown.timeline.map { event -> [String: Any] in
            ["at": time(event.at), "kind": event.kind, "summary": event.summary, "css": event.kind.replacingOccurrences(of: ".", with: "-")]
        }
        context["canReconcile"] = role.allows(.reconcileItems)
        context["showDeliveries"] = role.allows(.readDeliveries)
        context["itemID"] = detail.entrupyID
        context["deliveries"] = (shown.deliveries ?? []).reversed().map { history -> [String: Any] in
            let d = history.delivery
            var view: [String: Any] = [
                "id": d.id, "rule": d.rule, "channel": d.channel.rawValue, "target": d.target, "state": d.state.rawValue,
                "transition": d.transition, "attempt_count": d.attempts, "idempotency_key": d.idempotencyKey,
                "canRetry": role.allows(.retryDeliveries) && (d.state == .failed || d.state == .dead || d.state == .silenced),
                "attempts": history.attempts.map { a -> [String: Any] in
                    ["attempt": a.attempt, "started_at": time(a.startedAt), "outcome": a.outcome.rawValue,
                     "duration_ms": a.durationMilliseconds,
                     "status": a.statusCode.map { "HTTP \($0)" } ?? a.smtpReply.map { "SMTP \($0)" } ?? "–",
                     "error": attemptNote(a)]
                },
            ]
            if let error = d.lastError { view["last_error"] = error }
            if let behind = d.shownHeldBehind { view["held_behind"] = String(behind) }
            if let pause = d.pauseText() { view["pause"] = pause }
            if let group = groupNote(d) { view["group"] = group }
            return view
        }
        return context
    }
}
