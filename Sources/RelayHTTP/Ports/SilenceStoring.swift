public import RelayModel

/// Silences as the API and the console make, list and end them (`PostgresSilenceStore`).
public protocol SilenceStoring: Sendable {
    func create(_ draft: SilenceDraft, author: String) async throws -> Silence
    func list(activeOnly: Bool, limit: Int) async throws -> [Silence]
    func silence(id: Int64) async throws -> Silence?
    /// Nil: no such silence; `ended` false: it had already ended (and comes back unchanged).
    func expire(id: Int64, by: String) async throws -> (silence: Silence, ended: Bool)?
}
