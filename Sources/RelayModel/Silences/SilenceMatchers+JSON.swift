extension SilenceMatchers {
    /// From a JSON object of fields, each a string or a list of strings, as the API takes them
    /// (`{"brand": ["nike"], "transition": "result.final"}`); every field is checked.
    public static func parse(_ object: [String: JSONValue]) throws(Invalid) -> SilenceMatchers {
        var matchers = SilenceMatchers()
        for field in object.keys.sorted() {
            let given: [String]
            switch object[field] {
            case .string(let value)?: given = [value]
            case .array(let list)?:
                var values: [String] = []
                for element in list {
                    guard case .string(let value) = element else { throw Invalid(field: field, reason: "must be a string or a list of strings") }
                    values.append(value)
                }
                given = values
            default: throw Invalid(field: field, reason: "must be a string or a list of strings")
            }
            try matchers.set(field, given)
        }
        return matchers
    }

    /// As stored and shown: each field with its list of values.
    public var jsonValue: JSONValue {
        .object(values.mapValues { .array($0.map(JSONValue.string)) })
    }

    /// As a line says it: `brand=nike,adidas transition=result.final`.
    public var summary: String {
        Self.fields.compactMap { field in values[field].map { "\(field)=\($0.joined(separator: ","))" } }.joined(separator: " ")
    }
}
