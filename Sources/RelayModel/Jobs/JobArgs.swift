/// A job's typed parameters: the kind's name, and a `Codable` payload stored as the job's
/// `args`. A handler declares the `JobArgs` it runs, so a job is enqueued and read through
/// one type instead of by untyped keys.
public protocol JobArgs: Codable, Sendable {
    static var kind: String { get }
}
