/// A job whose one argument is the ID of a row written in the same statement as the job (a
/// webhook event's reconcile, a delivery's send): the queue builds its arguments
/// (`{"<idArgument>": id}`) and its unique key (`<uniqueKeyPrefix><id>`, one live job per
/// row) in SQL from this description (`JobInsert`).
public protocol RowJobArgs: JobArgs {
    /// The key of the one argument; the `CodingKey` of the ID, so the job decodes as written.
    static var idArgument: String { get }
    static var uniqueKeyPrefix: String { get }
}
