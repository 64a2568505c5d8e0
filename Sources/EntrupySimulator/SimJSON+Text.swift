import Foundation

extension SimJSON {
    struct ParseFailure: Error {}

    /// Parses a request body; throws `ParseFailure` for anything that is not JSON.
    static func parse(_ bytes: [UInt8]) throws -> SimJSON {
        do {
            return try JSONDecoder().decode(SimJSON.self, from: Data(bytes))
        } catch {
            throw ParseFailure()
        }
    }

    /// Compact JSON with object keys sorted, so the same value always gives the same bytes
    /// (a re-sent webhook is byte-identical, and its signature with it).
    var text: String {
        var output = ""
        write(into: &output)
        return output
    }

    var bytes: [UInt8] { Array(text.utf8) }

    private func write(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): Self.write(number, into: &output)
        case .string(let text): Self.write(text, into: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.write(key, into: &output)
                output += ":"
                members[key]?.write(into: &output)
            }
            output += "}"
        }
    }

    private static func write(_ number: Double, into output: inout String) {
        guard number.isFinite else { output += "null"; return }
        if number.rounded() == number, abs(number) < 1.0e15 {
            output += String(Int64(number))
        } else {
            output += String(number)
        }
    }

    private static func write(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
