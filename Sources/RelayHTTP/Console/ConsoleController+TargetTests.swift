import Hummingbird
import Logging
import RelayModel

/// The targets page's "Send test": a sample event through one rule action, its answer shown on
/// the page. The form names a rule and an action, never a URL.
extension ConsoleController {
    @Sendable func testTarget(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        guard let targets, let targetTests else { throw APIError(.serviceUnavailable, "test sends are not available here") }
        var view = ConsoleViews.targets(try await targets.list(), session: session, notice: nil)
        ConsoleViews.addTargetTests(&view, actions: targetTests.actions(), session: session)
        guard let rule = form["rule"], !rule.isEmpty, rule.count <= 200, let action = form["action"].flatMap(Int.init), action >= 0 else {
            view["problem"] = "Choose a rule action to test."
            return render("targets", view, status: .badRequest)
        }
        do {
            let answer = try await targetTests.test(rule: rule, action: action, transition: nil, by: "console \(session.caller.name)")
            view["testAnswer"] = ConsoleViews.testAnswer(answer)
            return render("targets", view)
        } catch let problem as TargetTestProblem {
            view["problem"] = problem.description
            return render("targets", view, status: problem.isNotFound ? .notFound : .badRequest)
        }
    }
}
