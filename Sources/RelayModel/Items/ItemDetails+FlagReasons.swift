extension ItemDetails {
    /// Where an item may name its flag reasons (the SDK's flag details call them
    /// `supported_flag_reasons`, each `{id, label, message}`; a plain string is an id): beside
    /// the flag object, under `status`, or on the item itself. Our reading; the first found wins.
    static let flagReasonPaths = ["status.flag.supported_flag_reasons", "status.supported_flag_reasons", "supported_flag_reasons"]

    static func flagReasons(in item: JSONValue) -> [FlagInfo] {
        for path in flagReasonPaths {
            guard let list = item[path: path]?.arrayValue else { continue }
            let reasons = list.prefix(50).compactMap { value -> FlagInfo? in
                if let id = text(value) { return FlagInfo(id: String(id.prefix(64)), label: nil, message: nil) }
                guard let info = flagInfo(value), info.id != nil else { return nil }
                return info
            }
            if !reasons.isEmpty { return reasons }
        }
        return []
    }

    /// `is_flaggable` where an item may carry it: the flag object (the SDK's), `status`, the item.
    static func isFlaggable(in item: JSONValue) -> Bool? {
        item[path: "status.flag.is_flaggable"]?.boolValue ?? item[path: "status.is_flaggable"]?.boolValue ?? item["is_flaggable"]?.boolValue
    }
}
