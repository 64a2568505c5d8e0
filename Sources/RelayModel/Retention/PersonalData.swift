/// What in an Entrupy item names a person, and the item without it (erasure). Entrupy's items
/// say who submitted them under `owner` (`owner.user` with the username, and in v2
/// `owner.user_id`); SDK variants and webhook envelopes may carry a person's `email` or names
/// at any depth. Everything else (the result, the flag, brand, photos of the goods, the
/// customer's item ID) is about the item and stays.
public enum PersonalData {
    /// Keys whose values name or reach a person, wherever they appear.
    public static let keys: Set<String> = ["user", "user_id", "username", "email", "first_name", "last_name", "unique_user_id", "phone"]
    /// What an erased value is replaced with, so a reader sees that something was there.
    public static let marker = JSONValue.string("[erased]")

    /// `document` with every personal key's value replaced by `marker` (at any depth, in
    /// objects within arrays too). A document with none comes back equal.
    public static func erasing(_ document: JSONValue) -> JSONValue {
        switch document {
        case .object(let members):
            var out: [String: JSONValue] = [:]
            out.reserveCapacity(members.count)
            for (key, value) in members {
                out[key] = keys.contains(key) && value != .null ? marker : erasing(value)
            }
            return .object(out)
        case .array(let elements):
            return .array(elements.map(erasing))
        default:
            return document
        }
    }
}

extension EntrupyItem {
    /// The item as an erased item is stored: no username, no personal fields in `raw`.
    public func erasingPeople() -> EntrupyItem {
        var item = self
        item.username = nil
        item.raw = PersonalData.erasing(raw)
        return item
    }
}
