extension String {
    /// Trims Unicode whitespace and newlines from both ends without Foundation (whose
    /// `trimmingCharacters` showed up in the receiver's profile). Returns `self` untouched in
    /// the common case of nothing to trim.
    func trimmingWhitespace() -> String {
        let utf8 = self.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
