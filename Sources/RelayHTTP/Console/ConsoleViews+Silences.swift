import Foundation
import RelayModel

extension ConsoleViews {
    /// The durations the console's form offers.
    static let silenceDurations = [("30m", "30 minutes"), ("1h", "1 hour"), ("2h", "2 hours"), ("4h", "4 hours"), ("8h", "8 hours"),
                                   ("1d", "1 day"), ("3d", "3 days"), ("7d", "7 days")]

    /// The Silences page: the form (for who may make one, filled again after a problem) and every silence, newest first.
    static func silences(_ silences: [Silence], session: ConsoleSession, form: [String: String] = [:], notice: String? = nil,
                         problem: String? = nil) -> [String: Any] {
        var context = base(title: "Silences", session: session, csrf: session.csrfToken)
        if let notice { context["notice"] = notice }
        if let problem { context["problem"] = problem }
        let canSilence = session.caller.role.allows(.retryDeliveries)
        context["canSilence"] = canSilence
        context["form"] = ["rule": form["rule"] ?? "", "reason": form["reason"] ?? ""]
        context["fields"] = SilenceMatchers.fields.map { ["name": $0, "value": form[$0] ?? ""] }
        let chosen = form["duration"] ?? "1h"
        context["durations"] = silenceDurations.map { ["value": $0.0, "label": $0.1, "selected": $0.0 == chosen] as [String: Any] }
        let now = Date()
        context["hasSilences"] = !silences.isEmpty
        context["silences"] = silences.map { silence -> [String: Any] in
            let status = silence.status(at: now)
            var row: [String: Any] = [
                "id": silence.id, "status": status, "rule": silence.rule ?? "any", "author": silence.author, "reason": silence.reason,
                "matches": silence.matchers.summary.isEmpty ? "–" : silence.matchers.summary, "starts": time(silence.startsAt),
                "ends": time(silence.expiredAt ?? silence.expiresAt), "canExpire": canSilence && status != "expired",
            ]
            if let by = silence.expiredBy { row["expired_by"] = by }
            return row
        }
        return context
    }
}
