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
