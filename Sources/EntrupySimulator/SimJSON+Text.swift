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
    var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number): Self.write(number, into: &output)
        case .string(let text): Self.write(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(key, into: &output)
                output.append(UInt8(ascii: ":"))
                members[key]?.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ number: Double, into output: inout [UInt8]) {
        guard number.isFinite else { output.append(contentsOf: "null".utf8); return }
        if number.rounded() == number, abs(number) < 1.0e15 {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: String(number).utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A string with `"`, `\\` and control characters escaped; everything else as its UTF-8.
    private static func write(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
