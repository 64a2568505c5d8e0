import Foundation
import RelayModel

extension OutputFormat {
    /// `items show`'s flags raised from the relay (none: no section), each as the timeline says it.
    static func flagRequestLines(_ requests: [FlagRequest], formatter: ISO8601DateFormatter) -> [String] {
        guard !requests.isEmpty else { return [] }
        return ["", "flags raised from the relay:"] + requests.map { request in
            TerminalText.printable("  \(formatter.string(from: request.requestedAt))  flag.requested  \(request.summary)")
        }
    }
}
