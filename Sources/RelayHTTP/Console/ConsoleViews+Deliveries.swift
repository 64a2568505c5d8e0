import Foundation
import RelayModel

extension ConsoleViews {
    static func deliveries(_ records: [DeliveryRecord], query: DeliveryListQuery, pairs: [(String, String)], next: PageCursor?,
                           session: ConsoleSession) -> [String: Any] {
        var context = base(title: "Deliveries", session: session, csrf: session.csrfToken)
        let search = query.search
        context["filters"] = [
            "rule": search.rule ?? "", "target": search.target ?? "", "item": search.item ?? "", "webhook_id": search.webhookID ?? "",
            "since": pairs.first { $0.0 == "since" }?.1 ?? "", "until": pairs.first { $0.0 == "until" }?.1 ?? "",
        ]
        context["states"] = DeliveryState.allCases.map { ["value": $0.rawValue, "selected": search.state == $0] as [String: Any] }
        context["channels"] = DeliveryChannel.allCases.map { ["value": $0.rawValue, "selected": search.channel == $0] as [String: Any] }
        context["hasDeliveries"] = !records.isEmpty
        context["shown"] = records.count
        context["deliveries"] = records.map { d -> [String: Any] in
            var row: [String: Any] = [
                "id": d.id, "rule": d.rule, "channel": d.channel.rawValue, "target": d.target, "state": d.state.rawValue,
                "transition": d.transition, "attempts": d.attempts, "idempotency_key": d.idempotencyKey, "created_at": time(d.createdAt),
                "last_error": d.lastError ?? "–",
            ]
            if let item = d.entrupyID { row["item"] = ["entrupy_id": item, "link": PercentEncoding.pathSegment(item)] }
            if let held = d.heldSince { row["held"] = time(held) }
            if let behind = d.shownHeldBehind { row["held_behind"] = String(behind) }
            if let pause = d.pauseText() { row["pause"] = pause }
            if let group = groupNote(d) { row["group"] = group }
            return row
        }
        if let next {
            var nextPairs = pairs.filter { $0.0 != "cursor" }
            nextPairs.append(("cursor", next.text))
            context["next"] = FormURLEncoding.encode(nextPairs)
        }
        return context
    }

    static func targets(_ targets: [TargetSummary], session: ConsoleSession, notice: String?) -> [String: Any] {
        var context = base(title: "Targets", session: session, csrf: session.csrfToken)
        if let notice { context["notice"] = notice }
        let canSwitch = session.caller.role.allows(.retryDeliveries)
        context["hasTargets"] = !targets.isEmpty
        context["targets"] = targets.map { summary -> [String: Any] in
            let health = summary.health
            var row: [String: Any] = [
                "id": health.id.map(String.init) ?? health.key, "target": health.key, "state": health.state.rawValue, "since": time(health.stateSince),
                "held": summary.held, "oldest_held": time(summary.oldestHeldSince), "failures": health.consecutiveFailures,
                "failing_since": time(health.failingSince), "last_error": health.lastError ?? "–",
                "next_probe": health.state == .open ? time(health.nextProbeAt) : "–",
                "disabled_by": health.state == .disabled ? health.disabledBy ?? "–" : "–",
                "rate_limit": summary.rateLimit?.text ?? "–",
            ]
            // A target listed for its rate limit alone has no row (no ID) to enable or disable.
            if canSwitch, health.id != nil {
                row["canEnable"] = health.state != .healthy
                row["canDisable"] = health.state != .disabled
            }
            return row
        }
        return context
    }
}
