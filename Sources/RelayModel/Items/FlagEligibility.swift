/// Whether support may flag an item now, and with which reasons, from what the relay knows
/// of it (pure). Entrupy's own word comes first: `is_flaggable` and the reasons its item
/// names (`supported_flag_reasons`); the reasons setting when it names none; any reason when
/// neither does (Entrupy then decides). Without `is_flaggable`, a final result not already
/// flagged may be flagged (the SDK's rule: flag `none` or `resolved`).
public struct FlagEligibility: Sendable, Equatable {
    public enum ReasonSource: String, Sendable {
        /// The item's `supported_flag_reasons`.
        case entrupy
        /// `ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS`.
        case setting
        /// None known: any reason is passed on.
        case any
    }

    /// Why the item cannot be flagged now, or nil when it can.
    public var refusal: String?
    public var reasons: [ItemDetails.FlagInfo]
    public var reasonSource: ReasonSource

    public var flaggable: Bool { refusal == nil }

    public init(_ detail: ItemDetail, configuredReasons: [String]) {
        let details = detail.details
        if detail.item.flag == "flagged" {
            refusal = "the item is already flagged; Entrupy's support resolves the flag"
        } else if details.isFlaggable == false {
            refusal = "Entrupy says this item cannot be flagged (is_flaggable is false)"
        } else if details.isFlaggable == nil, !detail.item.resultFinal {
            refusal = "the item has no final result yet; only a result can be flagged"
        } else {
            refusal = nil
        }
        if !details.flagReasons.isEmpty {
            reasons = details.flagReasons
            reasonSource = .entrupy
        } else if !configuredReasons.isEmpty {
            reasons = configuredReasons.map { ItemDetails.FlagInfo(id: $0, label: nil, message: nil) }
            reasonSource = .setting
        } else {
            reasons = []
            reasonSource = .any
        }
    }

    /// Why `reason` is not one offered, or nil when it is (any reason when none are known).
    public func problem(reason: String) -> String? {
        guard reasonSource != .any, !reasons.contains(where: { $0.id == reason }) else { return nil }
        let ids = reasons.compactMap(\.id).prefix(20).joined(separator: ", ")
        return "reason \"\(reason.prefix(64))\" is not one \(reasonSource == .entrupy ? "Entrupy offers for this item" : "this relay offers"): \(ids)"
    }
}
