import Foundation
import Yams

extension RuleSetParser.State {
    /// `quiet_hours: {from: "22:00", to: "07:00", time_zone: Europe/Paris}`: times `HH:MM` or
    /// `HH:MM:SS`, different from each other, and a named IANA time zone.
    mutating func quietHours(_ node: Node) -> QuietHours? {
        guard let fields = mapping(node, field: "quiet_hours", allowed: ["from", "to", "time_zone"]) else { return nil }
        let before = problems.count
        var times: [Int] = []
        for key in ["from", "to"] {
            guard let text = string(fields[key], field: "quiet_hours.\(key)", required: true, at: node) else { continue }
            if let seconds = QuietHours.seconds(text) {
                times.append(seconds)
            } else {
                problem("quiet_hours.\(key)", "expected a time of day as HH:MM or HH:MM:SS (24-hour), got \"\(text)\"", at: fields[key])
            }
        }
        var zone: TimeZone?
        if let name = string(fields["time_zone"], field: "quiet_hours.time_zone", required: true, at: node) {
            zone = TimeZone.knownTimeZoneIdentifiers.contains(name) || name == "UTC" ? TimeZone(identifier: name) : nil
            if zone == nil { problem("quiet_hours.time_zone", "unknown time zone \"\(name)\"; expected an IANA name like Europe/Paris", at: fields["time_zone"]) }
        }
        guard problems.count == before, times.count == 2, let zone else { return nil }
        if times[0] == times[1] {
            problem("quiet_hours", "from and to are the same time: the window would be empty", at: node)
            return nil
        }
        return QuietHours(from: times[0], to: times[1], timeZone: zone)
    }
}
