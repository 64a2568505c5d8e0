import Foundation

/// Fresh identifiers, unique across runs whatever the seed.
enum SimIdentifier {
    /// `evt_…`, `msg_…`, `trf_…` followed by a lowercase UUID.
    static func make(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased()
    }

    /// `SIM` + the ten-digit creation sequence (so ids sort in creation order) + four hex digits.
    static func entrupyID(sequence: Int) -> String {
        let digits = String(sequence)
        return "SIM" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits + UUID().uuidString.prefix(4)
    }
}
