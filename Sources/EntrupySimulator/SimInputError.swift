/// Bad input from a caller: answered 400 with `{"detail": message}` by `SimErrorMiddleware`,
/// never a crash.
struct SimInputError: Error, Sendable {
    let detail: String

    init(_ detail: String) { self.detail = detail }
}
