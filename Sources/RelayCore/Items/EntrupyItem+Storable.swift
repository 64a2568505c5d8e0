extension EntrupyItem {
    /// The item with every string made storable (`StoredText`): an API answer with U+0000 in
    /// any field, raw or read, is stored with U+FFFD there instead of failing forever.
    public var storable: EntrupyItem {
        var item = self
        item.entrupyID = StoredText.clean(entrupyID)
        item.customerItemID = StoredText.clean(customerItemID)
        item.result = StoredText.clean(result)
        item.resultHeader = StoredText.clean(resultHeader)
        item.resultMessage = StoredText.clean(resultMessage)
        item.flag = StoredText.clean(flag)
        item.brand = StoredText.clean(brand)
        item.model = StoredText.clean(model)
        item.category = StoredText.clean(category)
        item.username = StoredText.clean(username)
        item.certificateURL = StoredText.clean(certificateURL)
        item.raw = raw.storable
        return item
    }

    /// What the timeline says when storing changed the item: nil when it is stored as fetched.
    public var storageNote: String? {
        storable == self ? nil : "the item's data had U+0000 (NUL) in it, stored as U+FFFD"
    }
}

extension JSONValue {
    /// Every string and key with U+0000 replaced by U+FFFD.
    public var storable: JSONValue {
        switch self {
        case .string(let text): .string(StoredText.clean(text))
        case .array(let values): .array(values.map(\.storable))
        case .object(let members):
            .object(Dictionary(members.map { (StoredText.clean($0.key), $0.value.storable) }, uniquingKeysWith: { first, _ in first }))
        default: self
        }
    }
}
