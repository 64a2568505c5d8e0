/// One of `status.result.display.reasons[]`: an explanation shown with a result.
struct ResultReason: Sendable, Equatable {
    var text: String
    var image: String?

    var json: SimJSON { .object(["text": .string(text), "image": .optional(image)]) }

    /// Parses `[{text, image?}, ...]` (at most 20).
    static func parseList(_ elements: [SimJSON]) throws(SimInputError) -> [ResultReason] {
        var reasons: [ResultReason] = []
        for (index, element) in elements.enumerated() {
            guard let members = element.objectValue else { throw SimInputError("reasons[\(index)] must be an object {text, image}") }
            let fields = InputFields(members: members, path: "reasons[\(index)].")
            try fields.requireOnly(["text", "image"])
            guard let text = try fields.string("text", maxLength: 4096) else { throw SimInputError("reasons[\(index)].text is required") }
            reasons.append(ResultReason(text: text, image: try fields.string("image", maxLength: 2048)))
        }
        return reasons
    }
}
