public import RelayModel

/// Where flags raised from the relay are recorded (`flag_requests`; an in-memory double in tests).
public protocol FlagRequestStoring: Sendable {
    /// A new pending request, or the live one (pending or succeeded) it repeats, `isNew` false.
    func open(entrupyID: String, reason: String, comment: String?, requestedBy: String) async throws -> (request: FlagRequest, isNew: Bool)
    /// Records how the request ended.
    func finish(id: Int64, state: FlagRequest.State, entrupyStatus: Int?, answer: String) async throws -> FlagRequest?
}
