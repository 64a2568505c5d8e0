import Foundation
import RelayModel

extension ConsoleViews {
    /// What a support agent reads in a dispute: Entrupy's words on the result and the flag,
    /// the photos and certificate, the times, the submitter (if the role may see people) and
    /// the other authentications of the same customer item ID.
    static func itemDetails(_ shown: ItemDetail) -> [String: Any] {
        let d = shown.details
        var context: [String: Any] = [
            "result_label": shown.item.result.map(ItemLabels.result) ?? "–",
            "reasons": d.reasons.map { reason -> [String: Any] in
                var view: [String: Any] = ["text": reason.text]
                if let image = linkable(reason.image) { view["image"] = image }
                return view
            },
            "photos": d.photos.compactMap { photo -> [String: Any]? in
                guard let original = linkable(photo.original) else { return nil }
                return ["original": original, "thumbnail": linkable(photo.thumbnail) ?? original]
            },
            "event_times": d.eventTimes.map { ["label": ItemLabels.eventTime($0.name), "at": $0.at.map { time($0) } ?? $0.display ?? "–"] },
            "text_fields": d.textFields.map { ["label": $0.displayName ?? $0.name, "content": $0.content] },
            "resubmissions": shown.resubmissions.map { other -> [String: Any] in
                ["entrupy_id": other.entrupyID, "link": PercentEncoding.pathSegment(other.entrupyID), "submitted_at": time(other.submittedAt ?? other.listedAt),
                 "result": other.result.map(ItemLabels.result) ?? "–", "final": other.resultFinal, "flag": other.flag]
            },
        ]
        for name in ["reasons", "photos", "event_times", "text_fields", "resubmissions"] {
            context["has_" + name] = (context[name] as? [Any])?.isEmpty == false
        }
        if let header = d.resultHeader { context["result_header"] = header }
        if let message = d.resultMessage { context["result_message"] = message }
        if let reason = d.resultReason { context["result_reason"] = reason }
        // Shown only when a review changed it: the same result twice says nothing.
        if let initial = d.initialResult, initial != shown.item.result { context["initial_result"] = ItemLabels.result(initial) }
        if let info = d.flagInfo {
            context["flag_info"] = ["label": info.label ?? "–", "message": info.message ?? "–", "id": info.id ?? "–"]
        }
        if let flaggable = d.isFlaggable { context["is_flaggable"] = flaggable ? "yes" : "no" }
        if !d.retakeReasons.isEmpty || d.customerState != nil {
            context["retake"] = ["reasons": d.retakeReasons.isEmpty ? "–" : d.retakeReasons.joined(separator: "; "), "customer_state": d.customerState ?? "–"]
        }
        if let organization = d.organization { context["organization"] = organization }
        if let preview = linkable(d.certificatePreview) {
            context["certificate_preview"] = ["image": preview, "site": linkable(d.certificateSite) ?? preview]
        }
        if let person = shown.submitter {
            let name = [person.firstName, person.lastName].compactMap { $0 }.joined(separator: " ")
            context["submitter"] = ["unique_user_id": person.uniqueUserID, "name": name.isEmpty ? "–" : name, "email": person.email ?? "–"]
        }
        return context
    }

    /// A URL from Entrupy that a page may link to or show: http(s) only, so a `javascript:`
    /// or `data:` value in an item can never become a link (the text is escaped anyway).
    static func linkable(_ text: String?) -> String? {
        guard let text, let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", url.host?.isEmpty == false else { return nil }
        return text
    }
}
