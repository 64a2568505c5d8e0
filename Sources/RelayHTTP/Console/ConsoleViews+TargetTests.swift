import RelayModel

extension ConsoleViews {
    /// The rule actions a test can try, on the targets page; the button only for a role that may.
    static func addTargetTests(_ context: inout [String: Any], actions: [TestableAction], session: ConsoleSession) {
        context["hasTestActions"] = !actions.isEmpty
        context["canTest"] = session.caller.role.allows(.testTargets)
        context["testActions"] = actions.map { action -> [String: Any] in
            ["rule": action.rule, "action": action.action, "channel": action.channel.rawValue, "target": action.target]
        }
    }

    /// A test send's answer as the page shows it: what was sent, the status or SMTP reply, the
    /// headers worth showing and the body's first bytes (escaped by the template).
    static func testAnswer(_ answer: TargetTestAnswer) -> [String: Any] {
        var view: [String: Any] = [
            "rule": answer.rule ?? "–", "action": answer.action ?? 0, "channel": answer.channel.rawValue, "target": answer.target,
            "transition": answer.transition, "webhook_id": answer.messageID, "succeeded": answer.succeeded,
            "outcome": answer.statusCode.map { "HTTP \($0)" } ?? answer.smtpReply.map { "SMTP \($0)" } ?? "no answer",
            "milliseconds": answer.milliseconds,
            "headers": TargetTestAnswer.shownHeaders.compactMap { name in answer.headers[name].map { ["name": name, "value": $0] } },
        ]
        if let excerpt = answer.excerpt { view["excerpt"] = excerpt }
        if let error = answer.error, !answer.succeeded { view["error"] = error }
        return view
    }
}
