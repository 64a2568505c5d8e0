/// Which of the public item shapes (contract section 3) an item is rendered in. Chosen once per
/// item, so the API, its webhooks and the ground truth always show that item the same way.
struct ItemVariant: Sendable, Equatable {
    /// How `status.flag` is written.
    enum FlagStyle: String, Sendable, CaseIterable {
        /// `"none"`, `"flagged"` or `"resolved"`.
        case string
        /// `{id, is_flaggable, flag_info}` as in the SDK.
        case object
        /// `null` for `none` (REST v1 examples), the string otherwise.
        case null
    }

    var flagStyle: FlagStyle
    /// Leave `status.result.final` out, so a reader must apply the contract's rule. Only done
    /// while the stored finality agrees with that rule; otherwise the item would lie.
    var omitFinal: Bool

    /// Today's plain shape: flag as a string, `final` present.
    static let plain = ItemVariant(flagStyle: .string, omitFinal: false)

    static func random(using generator: inout SeededGenerator) -> ItemVariant {
        let style = FlagStyle.allCases.randomElement(using: &generator) ?? .string
        return ItemVariant(flagStyle: style, omitFinal: Bool.random(using: &generator))
    }
}
