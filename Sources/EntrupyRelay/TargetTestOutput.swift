import RelayModel

/// How `targets test` prints an answer: a line for what was sent, a line for the answer, the
/// headers worth showing, then the body's first bytes; every peer-given text made printable.
enum TargetTestOutput {
    static func text(_ answer: TargetTestAnswer) -> String {
        var lines: [String] = []
        let sent = answer.channel == .webhook ? "webhook POST \(answer.target)" : "email to \(answer.target)"
        let what = answer.rule.map { "rule \($0) action \(answer.action ?? 0): " } ?? ""
        lines.append(TerminalText.printable("\(what)\(sent) (sample \(answer.transition), \(answer.channel == .webhook ? "webhook-id" : "Message-ID") \(answer.messageID))"))
        if let status = answer.statusCode {
            lines.append("HTTP \(status) in \(answer.milliseconds) ms")
        } else if let reply = answer.smtpReply {
            lines.append(TerminalText.printable("SMTP \(reply) in \(answer.milliseconds) ms"))
        }
        for name in TargetTestAnswer.shownHeaders {
            if let value = answer.headers[name] { lines.append(TerminalText.printable("\(name): \(value)")) }
        }
        if let excerpt = answer.excerpt { lines.append(TerminalText.printable(excerpt)) }
        if let error = answer.error, !answer.succeeded { lines.append(TerminalText.printable("failed: \(error)")) }
        return lines.joined(separator: "\n")
    }
}
