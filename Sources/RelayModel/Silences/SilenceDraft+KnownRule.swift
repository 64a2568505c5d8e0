extension SilenceDraft {
    /// Refused when it names a rule the rules file does not have: a misspelt rule would silence
    /// nothing while its author believes the incident is quiet. `known`: the rule names of the
    /// rules file in force (checked where one is set; without one nothing is sent anyway).
    public func requireKnownRule(in known: Set<String>) throws(Invalid) {
        guard let rule, !known.contains(rule) else { return }
        let names = known.sorted()
        let list = names.isEmpty ? "it has no rules" : "its rules: " + names.prefix(20).joined(separator: ", ") + (names.count > 20 ? ", …" : "")
        throw Invalid(field: "rule", reason: "no rule named \"\(rule.prefix(80))\" in the rules file (\(list))")
    }
}
