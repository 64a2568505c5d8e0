import Synchronization

/// The SDK users mirror's answers (`unique_user_id` by username, nil for none) a reconcile
/// store read before. Every webhook whose rules fire looked its submitter up: one statement
/// and a round trip per reconcile, for an answer that changes when someone is authorized
/// again or erased. A remembered answer is only a guess: the commit checks it in its own
/// statement and is refused when the mirror changed (`SubmitterLookup`), and the store then
/// forgets it and reads again.
final class SubmitterIDCache: Sendable {
    /// At most this many usernames are remembered; when full, the cache starts again empty.
    static let capacity = 4_096
    /// A longer username (the API's answer is bounded only by its 8 MiB body) is looked up
    /// every time, so the cache holds at most `capacity` × this many bytes of names.
    static let longestUsername = 256

    private let answers = Mutex<[String: String?]>([:])

    /// The remembered answer for `username` (`.some(nil)`: remembered as none), or nil.
    func answer(for username: String) -> String?? {
        answers.withLock { $0[username] }
    }

    func remember(_ uniqueUserID: String?, for username: String) {
        guard username.utf8.count <= Self.longestUsername else { return }
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            answers[username] = .some(uniqueUserID)
        }
    }

    func forget(_ username: String) {
        answers.withLock { _ = $0.removeValue(forKey: username) }
    }
}
