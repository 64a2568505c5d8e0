/// A validated `POST /_sim/drive` body: how many items Entrupy's users finish, how fast, and
/// what they look like. Item `n` (from 0) is the template's item with customer item ID
/// `prefix` + `n`.
struct DrivePlan: Sendable {
    var rate: Int
    var seconds: Int
    var prefix: String
    /// `POST /_sim/items`' body for every item, without `customer_item_id`.
    var template: ItemDraft

    static let keys: Set<String> = ["rate", "seconds", "prefix", "item"]

    var total: Int { rate * seconds }

    static func parse(_ body: SimJSON, organisation: String) throws(SimInputError) -> DrivePlan {
        let fields = try InputFields(body)
        try fields.requireOnly(keys)
        guard let rate = try fields.integer("rate", in: 1...5_000) else { throw SimInputError("rate is required (items a second, 1 to 5000)") }
        guard let seconds = try fields.integer("seconds", in: 1...3_600) else { throw SimInputError("seconds is required (1 to 3600)") }
        // Every item stays in memory: a million is far past any benchmark here, and far short of exhausting it.
        guard rate * seconds <= 1_000_000 else { throw SimInputError("rate × seconds must be at most 1000000 items") }
        guard let prefix = try fields.string("prefix", maxLength: 128) else { throw SimInputError("prefix is required") }
        var members = try fields.object("item")?.members ?? [:]
        guard members["customer_item_id"] == nil else { throw SimInputError("item.customer_item_id is not allowed: prefix names the items") }
        members["customer_item_id"] = .string(prefix + "0")
        let template: ItemDraft
        do {
            template = try ItemDraft.parse(.object(members), organisation: organisation)
        } catch {
            throw SimInputError("item: \(error.detail)")
        }
        return DrivePlan(rate: Int(rate), seconds: Int(seconds), prefix: prefix, template: template)
    }

    /// The draft of item `n`.
    func draft(_ n: Int) -> ItemDraft {
        var draft = template
        draft.customerItemID = prefix + String(n)
        return draft
    }
}
