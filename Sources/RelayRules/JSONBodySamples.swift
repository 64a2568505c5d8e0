import RelayModel

/// The values a `body:` template is rendered with when the rules file loads, so a template
/// that could send invalid JSON is refused then rather than at the partner: every variable
/// hostile (quotes, backslashes, line breaks, U+0000, U+2028), every variable empty, none
/// present, and each variable alone absent or alone present (sections that depend on it).
enum JSONBodySamples {
    static let hostile = "\"quoted\" back\\slash \\\" \nnew line\r\t\u{0}nul\u{1F}\u{7F} \u{2028}\u{2029} </script> {{brand}} é 😀"

    static func samples(_ variables: Set<String>) -> [(label: String, values: [String: String])] {
        let names = variables.sorted()
        let all = Dictionary(uniqueKeysWithValues: names.map { ($0, hostile) })
        var samples: [(label: String, values: [String: String])] = [
            ("hostile values", all), ("empty values", all.mapValues { _ in "" }), ("no values", [:]),
        ]
        for name in names {
            var without = all
            without[name] = nil
            samples.append(("every value but \(name)", without))
            samples.append(("only \(name)", [name: hostile]))
        }
        return samples
    }

    /// Why the template's rendering of a sample is not JSON, for the first sample that is not.
    static func firstInvalid(_ template: NotificationTemplate, variables: Set<String>) -> String? {
        for sample in samples(variables) {
            let text = template.render(sample.values)
            let bytes = Array(text.utf8)
            do {
                _ = try JSONParser.parse(bytes)
            } catch let failure as JSONParser.Failure {
                let start = max(0, failure.offset - 24), end = min(bytes.count, failure.offset + 24)
                let near = JSONStringContent.escape(String(decoding: bytes[start..<end], as: UTF8.self))
                return "with \(sample.label), \(failure.reason) at byte \(failure.offset) (near \"\(near)\")"
            } catch {
                return "with \(sample.label), \(error)"
            }
        }
        return nil
    }
}
