/// Entrupy names brands, categories and results by ids: lowercase words joined by `_`
/// (`louis_vuitton`, `not_supported`). People type display names (`Louis Vuitton`,
/// `Off-White`, `Unidentified`, `Under Review`), and v2 items may carry a brand's name instead
/// of its id; both become the id here, so a search or a stored value matches either way.
public enum CatalogueID {
    /// `Louis Vuitton` → `louis_vuitton`, `Off-White` → `off_white`, `NIKE` → `nike`.
    public static func from(_ text: String) -> String {
        var id = ""
        var pendingSeparator = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " || scalar == "-" || scalar == "_" || scalar == "\t" {
                pendingSeparator = !id.isEmpty
                continue
            }
            if pendingSeparator { id.append("_") }
            pendingSeparator = false
            id.unicodeScalars.append(scalar)
        }
        return id
    }

    /// Results as Entrupy displays them, by the id they stand for (contract section 3).
    static let resultDisplayNames: [String: String] = ["unidentified": "unknown", "under_review": "needs_review"]

    /// A result as typed: an id in any case, or a display name (`Unidentified` → `unknown`).
    public static func result(_ text: String) -> String {
        let id = from(text)
        return resultDisplayNames[id] ?? id
    }
}
