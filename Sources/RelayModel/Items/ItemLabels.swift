/// How people read Entrupy's names: event times and results, as the console and the CLI label them.
public enum ItemLabels {
    /// `submitted_at` → "Submitted". `started` is `timestamp.epoch`: when the authentication
    /// started (capture), not when it was submitted.
    public static func eventTime(_ name: String) -> String {
        switch name {
        case "capture_started_at": "Capture started"
        case "submitted_at": "Submitted"
        case "initial_result_set_at": "First result"
        case "result_returned_at": "Result returned"
        case "started": "Authentication started"
        case "created": "Created"
        case "last_updated": "Last updated"
        default: name
        }
    }

    /// Entrupy's display names of results (`unknown` is shown as Unidentified).
    public static func result(_ id: String) -> String {
        switch id {
        case "authentic": "Authentic"
        case "unknown": "Unidentified"
        case "not_supported": "Not Supported"
        case "needs_review": "Under Review"
        case "invalid": "Invalid"
        default: id.replacingOccurrences(of: "_", with: " ").capitalized
        }
    }
}
