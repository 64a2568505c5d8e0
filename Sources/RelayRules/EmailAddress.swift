/// The plain `local@domain` addresses the rules file accepts: ASCII, no display names, nothing
/// that could end a header or add a recipient.
enum EmailAddress {
    static func isValid(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, address.utf8.count <= 254 else { return false }
        let local = parts[0], domain = parts[1]
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-")
        guard (1...64).contains(local.count), local.allSatisfy(localAllowed.contains),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        return !labels.isEmpty && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy(labelAllowed.contains) && !label.hasPrefix("-") && !label.hasSuffix("-")
        }
    }
}
