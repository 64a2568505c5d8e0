extension EntrupyItem {
    /// The item with every string made storable (`StoredText`): an API answer with U+0000 in
    /// any field, raw or read, is stored with U+FFFD there instead of failing forever.
    public var storable: EntrupyItem {
        guard hasNUL else { return self }
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
        hasNUL ? "the item's data had U+0000 (NUL) in it, stored as U+FFFD" : nil
    }

    /// Whether any string of the item, raw or read, has U+0000 (what `storable` replaces).
    var hasNUL: Bool {
        [entrupyID, customerItemID, result, resultHeader, resultMessage, flag, brand, model, category, username, certificateURL]
            .contains { StoredText.hasNUL($0) } || raw.hasNUL
    }
}

extension JSONValue {
    /// Every string and key with U+0000 replaced by U+FFFD.
    public var storable: JSONValue {
        guard hasNUL else { return self }
        return switch self {
        case .string(let text): .string(StoredText.clean(text))
        case .array(let values): .array(values.map(\.storable))
        case .object(let members):
            .object(Dictionary(members.map { (StoredText.clean($0.key), $0.value.storable) }, uniquingKeysWith: { first, _ in first }))
        default: self
        }
    }

    /// Whether any string or key has U+0000 (read without building anything).
    var hasNUL: Bool {
        switch self {
        case .string(let text): text.utf8.contains(0)
        case .array(let values): values.contains { $0.hasNUL }
        case .object(let members): members.contains { $0.key.utf8.contains(0) || $0.value.hasNUL }
        default: false
        }
    }
}
