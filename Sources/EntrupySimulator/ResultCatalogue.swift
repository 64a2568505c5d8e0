/// What the contract says about result ids: the text Entrupy shows for each, and which are
/// final when an item does not say (contract section 3: `authentic`, `unknown`,
/// `not_supported` and `invalid`; every other id, known or not, is not).
enum ResultCatalogue {
    static let finalWhenUnstated: Set<String> = ["authentic", "unknown", "not_supported", "invalid"]

    static func isFinalWhenUnstated(_ id: String) -> Bool { finalWhenUnstated.contains(id) }

    /// `display.header` and `display.message` for a result id; unknown ids pass through with
    /// their id as the header.
    static func display(for id: String) -> (header: String, message: String) {
        switch id {
        case "authentic": ("Authentic", "This item was found to be authentic.")
        case "unknown": ("Unidentified", "The item could not be identified.")
        case "not_supported": ("Not supported", "This item type is not supported.")
        case "needs_review": ("Under Review", "Our experts are reviewing this item.")
        case "invalid": ("Invalid", "The submission was invalid.")
        case "data_required": ("Data Required", "Please retake the requested photos.")
        case "received": ("Received", "The submission was received.")
        case "canceled": ("Canceled", "The authentication was canceled.")
        default: (id, "")
        }
    }

    /// `status.result.reason` for an `invalid` result when the caller gave none.
    static let defaultInvalidReason = "The photos do not show the item clearly enough."
}
