import Foundation
public import RelayModel

/// A job to enqueue. With a `uniqueKey`, it is not enqueued while another unfinished job
/// has the same key (the insert is skipped, not failed).
public struct NewJob: Sendable, Equatable {
    public var kind: String
    /// The encoded arguments (a JSON object).
    public var args: String
    public var uniqueKey: String?
    public var runAfter: Duration
    public var maxAttempts: Int

    public init<Args: JobArgs>(_ args: Args, uniqueKey: String? = nil, runAfter: Duration = .zero, maxAttempts: Int = 25) throws {
        self.kind = Args.kind
        self.args = try JobArgsCoding.encode(args)
        self.uniqueKey = uniqueKey
        self.runAfter = runAfter
        self.maxAttempts = max(1, maxAttempts)
    }
}

/// The one JSON form of job arguments: keys sorted, so equal arguments are equal text.
enum JobArgsCoding {
    static func encode<Args: Encodable>(_ args: Args) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(args), as: UTF8.self)
    }

    static func decode<Args: Decodable>(_ type: Args.Type, from text: String) throws -> Args {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
