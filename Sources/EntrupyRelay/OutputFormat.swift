import Foundation
import RelayStore

/// Renders records for people (a padded table) or programs (pretty JSON, ISO 8601 dates).
enum OutputFormat {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func table(_ events: [WebhookEventRecord]) -> String {
        let header = ["ID", "RECEIVED", "STATE", "TYPE", "ENTRUPY ID", "CUSTOMER ITEM ID", "DUPS"]
        let formatter = ISO8601DateFormatter()
        let rows = events.map { event in
            [
                String(event.id), formatter.string(from: event.receivedAt), event.state, event.eventType ?? "-",
                event.entrupyID ?? "-", event.customerItemID ?? "-", String(event.duplicates),
            ]
        }
        if rows.isEmpty { return "no events" }
        return render(header: header, rows: rows)
    }

    static func item(_ item: ItemDetail) -> String {
        let formatter = ISO8601DateFormatter()
        var lines = [
            "\(item.entrupyID)  customer item \(item.customerItemID ?? "-")",
            "  result    \(item.result ?? "-")\(item.resultFinal ? " (final)" : "")    flag \(item.flag)",
            "  brand     \(item.brand ?? "-")    model \(item.model ?? "-")    category \(item.category ?? "-")",
            "  user      \(item.username ?? "-")",
            "  certificate \(item.certificateURL ?? "-")",
            "  first seen \(formatter.string(from: item.firstSeenAt))    updated \(formatter.string(from: item.updatedAt))    fetched \(formatter.string(from: item.fetchedAt))",
            "",
            "timeline:",
        ]
        lines += item.timeline.isEmpty ? ["  (none)"] : item.timeline.map { entry in
            "  \(formatter.string(from: entry.at))  \(entry.kind.padding(toLength: 14, withPad: " ", startingAt: 0))  \(entry.from ?? "-") → \(entry.to ?? "-")  (\(entry.source))"
        }
        lines += ["", "webhooks:"]
        lines += item.webhooks.isEmpty ? ["  (none)"] : item.webhooks.map { event in
            "  #\(event.id)  \(formatter.string(from: event.receivedAt))  \(event.eventType ?? "-")  \(event.state)" + (event.duplicates > 0 ? "  (+\(event.duplicates) duplicates)" : "")
        }
        return lines.joined(separator: "\n")
    }

    static func render(header: [String], rows: [[String]]) -> String {
        let clipped = rows.map { $0.map { $0.count > 40 ? String($0.prefix(39)) + "…" : $0 } }
        var widths = header.map(\.count)
        for row in clipped { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + clipped.map(line)).joined(separator: "\n")
    }
}
