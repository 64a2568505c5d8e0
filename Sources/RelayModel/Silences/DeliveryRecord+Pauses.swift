public import Foundation

extension DeliveryRecord {
    /// When the quiet hours holding it end, while they hold it: still pending or failed, and
    /// the time not yet passed (nothing clears the column once the window ends).
    public func shownQuietUntil(now: Date = Date()) -> Date? {
        guard state == .pending || state == .failed, let quietUntil, quietUntil > now else { return nil }
        return quietUntil
    }

    /// `silenced by silence N` or `held for quiet hours until T`, for the lines that show a state; nil otherwise.
    public func pauseText(now: Date = Date()) -> String? {
        if state == .silenced, let silenceID { return "silenced by silence \(silenceID)" }
        if let until = shownQuietUntil(now: now) { return "held for quiet hours until \(ISODate.text(until))" }
        return nil
    }
}
