public import Foundation

/// Which deliveries a bulk redrive takes (`deliveries retry --rule …`, `POST /v1/deliveries/retry`):
/// dead (or failed) ones, narrowed by rule, target, item and creation time. Pure: parsed and
/// checked here, turned into SQL by `PostgresBulkRetry`.
public struct DeliveryFilter: Sendable, Equatable {
    /// `dead` (the default), `failed` or `silenced`: the states a retry can move on.
    public var state: DeliveryState = .dead
    public var rule: String?
    /// As deliveries show it: scheme and host (`https://hooks.example.com/***`), or an email's recipients.
    public var target: String?
    /// An Entrupy ID.
    public var item: String?
    public var channel: DeliveryChannel?
    /// Created at or after.
    public var since: Date?
    /// Created before.
    public var until: Date?

    public init() {}

    /// Why a filter is refused: the field and what is wrong with it.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let field: String
        public let reason: String
        public var description: String { "\(field): \(reason)" }
    }

    /// Builds a filter from its fields as people give them (nil: not given), checking each.
    public static func parse(state: String?, rule: String?, target: String?, item: String?, channel: String? = nil,
                             since: Date?, until: Date?) throws(Invalid) -> DeliveryFilter {
        var filter = DeliveryFilter()
        if let state {
            guard let parsed = DeliveryState(rawValue: state), parsed == .dead || parsed == .failed || parsed == .silenced else {
                throw Invalid(field: "state", reason: "must be dead, failed or silenced (the states a retry moves on)")
            }
            filter.state = parsed
        }
        func text(_ value: String?, _ field: String) throws(Invalid) -> String? {
            guard let value else { return nil }
            guard !value.isEmpty, value.unicodeScalars.count <= 256,
                  !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Invalid(field: field, reason: "must be a non-empty string of at most 256 characters, without control characters")
            }
            return value
        }
        filter.rule = try text(rule, "rule")
        filter.target = try text(target, "target")
        filter.item = try text(item, "item")
        if let channel {
            guard let parsed = DeliveryChannel(rawValue: channel) else { throw Invalid(field: "channel", reason: "must be email or webhook") }
            filter.channel = parsed
        }
        filter.since = since
        filter.until = until
        if let since, let until, since >= until {
            throw Invalid(field: "until", reason: "must be after since")
        }
        return filter
    }

    /// The filter as recorded with a bulk action (only what was given).
    public var recorded: [String: String] {
        var fields = ["state": state.rawValue]
        if let rule { fields["rule"] = rule }
        if let target { fields["target"] = target }
        if let item { fields["item"] = item }
        if let channel { fields["channel"] = channel.rawValue }
        if let since { fields["since"] = ISODate.text(since) }
        if let until { fields["until"] = ISODate.text(until) }
        return fields
    }
}
