/// `status.flag.flag_info`: why a flag was raised, or how support resolved it.
struct FlagInfo: Sendable, Equatable {
    var id: String
    var label: String
    var message: String

    var json: SimJSON {
        .object(["id": .string(id), "label": .string(label), "message": .string(message)])
    }

    static func parse(_ fields: InputFields) throws(SimInputError) -> FlagInfo {
        try fields.requireOnly(["id", "label", "message"])
        guard let id = try fields.string("id", maxLength: 64) else {
            throw SimInputError("\(fields.path)id is required")
        }
        return FlagInfo(id: id, label: try fields.string("label", maxLength: 256, allowEmpty: true) ?? "",
                        message: try fields.string("message", maxLength: 4096, allowEmpty: true) ?? "")
    }
}
