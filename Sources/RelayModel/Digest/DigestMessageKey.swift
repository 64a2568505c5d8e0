import Crypto

/// The local part of a digest's Message-ID: `digest.` and a hash of exactly what it carries
/// (each member's delivery ID with the attempt number it goes as, in ID order). A group retried
/// with more members, or the same members' next attempt, gets a new Message-ID, so a client
/// that drops repeated Message-IDs never drops an email whose content it has not seen.
public enum DigestMessageKey {
    /// `members`: each delivery's ID and the number of the attempt the email is for it.
    public static func make(members: [(id: Int64, attempt: Int)]) -> String {
        let text = members.sorted { $0.id < $1.id }.map { "\($0.id):\($0.attempt)" }.joined(separator: ",")
        return "digest." + String(HexBytes.encode(SHA256.hash(data: Array(text.utf8))).prefix(32))
    }
}
