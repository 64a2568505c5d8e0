import Foundation
import RelayModel
import RelayHTTP
import RelayStore

/// Renders records for people (a padded table) or programs (the API's JSON, indented).
enum OutputFormat {
    static func json(_ value: some Encodable) throws -> String {
        try APIJSON.text(value, pretty: true)
    }

    static func table(_ events: [WebhookEventRecord]) -> String {
        let header = ["ID", "RECEIVED", "STATE", "TYPE", "ENTRUPY ID", "CUSTOMER ITEM ID", "DUPS"]
        let formatter = ISO8601DateFormatter()
        let rows = events.map { event in
            [
                String(event.id), formatter.string(from: event.receivedAt), event.state.rawValue, event.eventType ?? "-",
                event.entrupyID ?? "-", event.customerItemID ?? "-", String(event.duplicates),
            ]
        }
        if rows.isEmpty { return "no events" }
        return render(header: header, rows: rows)
    }

    static func item(_ detail: ItemDetail) -> String {
        let formatter = ISO8601DateFormatter()
        let item = detail.item
        var lines = [
            "\(item.entrupyID)  customer item \(item.customerItemID ?? "-")",
            "  result    \(item.result ?? "-")\(item.resultFinal ? " (final)" : "")    flag \(item.flag)",
            "  brand     \(item.brand ?? "-")    model \(detail.model ?? "-")    category \(item.category ?? "-")",
            "  user      \(item.username ?? "-")" + submitterText(detail.submitter),
            "  certificate \(detail.certificateURL ?? "-")",
            "  first seen \(formatter.string(from: detail.firstSeenAt))    updated \(formatter.string(from: item.updatedAt))    fetched \(formatter.string(from: detail.fetchedAt))",
        ]
        lines += detailsLines(detail.details, formatter: formatter)
        if !detail.resubmissions.isEmpty {
            lines += ["", "other authentications of \(item.customerItemID ?? "-") (newest first):"]
            lines += detail.resubmissions.map { other in
                "  \(other.entrupyID)  \(other.submittedAt.map(formatter.string) ?? "-")  \(other.result ?? "-")\(other.resultFinal ? " (final)" : "")  flag \(other.flag)"
            }
        }
        lines += ["", "timeline:"]
        lines += detail.transitions.isEmpty ? ["  (none)"] : detail.transitions.map { entry in
            "  \(formatter.string(from: entry.at))  \(entry.kind.padding(toLength: 14, withPad: " ", startingAt: 0))  \(entry.from ?? "-") → \(entry.to ?? "-")  (\(entry.source))"
        }
        lines += flagRequestLines(detail.flagRequests, formatter: formatter)
        lines += ["", "webhooks:"]
        let webhooks = detail.webhooks ?? []
        lines += webhooks.isEmpty ? ["  (none)"] : webhooks.map { event in
            "  #\(event.id)  \(formatter.string(from: event.receivedAt))  \(event.eventType ?? "-")  \(event.state)" + (event.duplicates > 0 ? "  (+\(event.duplicates) duplicates)" : "")
        }
        lines += ["", "fetches:"]
        lines += detail.reconciliations.isEmpty ? ["  (none)"] : detail.reconciliations.map { fetch in
            "  \(formatter.string(from: fetch.at))  \(fetch.source.padding(toLength: 8, withPad: " ", startingAt: 0))  \(fetch.outcome)" + (fetch.transitions > 0 ? ", \(fetch.transitions) transition(s)" : "")
        }
        lines += ["", "deliveries:"]
        let deliveries = detail.deliveries ?? []
        if deliveries.isEmpty { lines.append("  (none)") }
        for history in deliveries {
            let delivery = history.delivery
            lines.append("  #\(delivery.id)  \(delivery.transition)  rule \(delivery.rule)  \(delivery.channel.rawValue) to \(delivery.target)  \(delivery.state.rawValue)  key \(delivery.idempotencyKey)")
            for attempt in history.attempts {
                var line = "      attempt \(attempt.attempt)  \(formatter.string(from: attempt.startedAt))  \(attempt.outcome.rawValue)  \(attempt.durationMilliseconds) ms"
                if let status = attempt.statusCode { line += "  HTTP \(status)" }
                if let reply = attempt.smtpReply { line += "  SMTP \(reply)" }
                if let error = attempt.error { line += "  \(error)" }
                lines.append(line)
            }
        }
        return lines.map(TerminalText.printable).joined(separator: "\n")
    }

    static func submitterText(_ submitter: Submitter?) -> String {
        guard let submitter else { return "" }
        let name = [submitter.firstName, submitter.lastName].compactMap { $0 }.joined(separator: " ")
        return "    submitted by \(submitter.uniqueUserID)" + (name.isEmpty ? "" : "  \(name)") + (submitter.email.map { "  <\($0)>" } ?? "")
    }

    /// What Entrupy said beyond the state: result text and reasons, flag info, photos, times, fields.
    static func detailsLines(_ d: ItemDetails, formatter: ISO8601DateFormatter) -> [String] {
        var lines: [String] = []
        if d.resultHeader != nil || d.resultMessage != nil {
            lines.append("  says      \([d.resultHeader, d.resultMessage].compactMap { $0 }.joined(separator: ": "))")
        }
        if let reason = d.resultReason { lines.append("  reason    \(reason)") }
        if let initial = d.initialResult { lines.append("  first result \(ItemLabels.result(initial))") }
        lines += d.reasons.map { "  because   \($0.text)" + ($0.image.map { "  (\($0))" } ?? "") }
        if let info = d.flagInfo {
            lines.append("  flag info \([info.label, info.message].compactMap { $0 }.joined(separator: ": "))" + (info.id.map { "  [\($0)]" } ?? ""))
        }
        if let flaggable = d.isFlaggable { lines.append("  flaggable \(flaggable ? "yes" : "no")") }
        if !d.flagReasons.isEmpty { lines.append("  flag reasons " + d.flagReasons.compactMap(\.id).joined(separator: ", ")) }
        if let organization = d.organization { lines.append("  organisation \(organization)") }
        if d.certificatePreview != nil || d.certificateID != nil {
            lines.append("  certificate preview \(d.certificatePreview ?? "-")" + (d.certificateID.map { "    id \($0)" } ?? ""))
        }
        lines += d.photos.enumerated().map { "  photo \($0.offset + 1)   \($0.element.original)" }
        lines += d.eventTimes.map { time in
            "  \(ItemLabels.eventTime(time.name).padding(toLength: 20, withPad: " ", startingAt: 0)) \(time.at.map(formatter.string) ?? time.display ?? "-")"
        }
        lines += d.textFields.map { "  \(($0.displayName ?? $0.name).padding(toLength: 20, withPad: " ", startingAt: 0)) \($0.content)" }
        return lines
    }

    static func table(_ items: [ItemSummary]) -> String {
        let formatter = ISO8601DateFormatter()
        let rows = items.map { item in
            [item.entrupyID, item.customerItemID ?? "-", (item.result ?? "-") + (item.resultFinal ? "" : " (not final)"), item.flag,
             item.brand ?? "-", item.category ?? "-", item.username ?? "-", formatter.string(from: item.listedAt)]
        }
        return render(header: ["ENTRUPY ID", "CUSTOMER ITEM ID", "RESULT", "FLAG", "BRAND", "CATEGORY", "USERNAME", "SUBMITTED"], rows: rows)
    }

    static func render(header: [String], rows: [[String]]) -> String {
        let clipped = rows.map { $0.map(TerminalText.printable).map { $0.count > 40 ? String($0.prefix(39)) + "…" : $0 } }
        var widths = header.map(\.count)
        for row in clipped { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + clipped.map(line)).joined(separator: "\n")
    }
}
