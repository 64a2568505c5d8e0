import Hummingbird
import NIOCore
import RelayModel

/// A request's JSON object body, read as every JSON-body route reads it: at most `maxBytes`
/// (413 over it; 408 when it does not arrive within the body deadline), a JSON object (400
/// otherwise, saying `expected`), and no field outside `fields` (400 naming the first unknown one).
enum JSONRequestBody {
    static func object(_ request: Request, maxBytes: Int, fields: Set<String>,
                       expected: String = "the body must be a JSON object") async throws -> [String: JSONValue] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            // Anything else (a body past its deadline, broken framing) is answered by the error middleware.
            throw APIError(.contentTooLarge, "request body exceeds \(maxBytes) bytes")
        }
        guard let json = try? JSONValue.parse(Array(buffer.readableBytesView)), let object = json.objectValue else {
            throw APIError(.badRequest, expected)
        }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(.badRequest, "field \"\(unknown.prefix(64))\": unknown field")
        }
        return object
    }

    /// 400 naming the first field that is `null`: for an action (an erasure, a bulk retry) that
    /// does exactly what its body names, a null is not read as a field left out.
    static func refuseNulls(_ object: [String: JSONValue]) throws {
        if let key = object.keys.sorted().first(where: { object[$0] == .null }) {
            throw APIError(.badRequest, "field \"\(key.prefix(64))\": must not be null; leave it out")
        }
    }

    /// `dry_run`: true or false, absent meaning false; 400 for anything else.
    static func dryRun(_ object: [String: JSONValue]) throws -> Bool {
        switch object["dry_run"] {
        case nil: return false
        case .bool(let flag)?: return flag
        default: throw APIError(.badRequest, "field \"dry_run\": must be true or false")
        }
    }

    /// A field of `object` that is a string or absent (nil for absent or null); 400 naming the
    /// field when it is anything else.
    static func string(_ object: [String: JSONValue], _ name: String) throws -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw APIError(.badRequest, "field \"\(name)\": must be a string")
        }
    }
}
