import Hummingbird
import Logging
import RelayModel

/// `POST /v1/targets/test`: sends a sample event through one action of a loaded rule and
/// answers with what the target said. Only a rule's own target: the body names a rule and an
/// action, never a URL, so the API cannot be made to reach an address of the caller's choosing.
public struct TargetTestAPIController: Sendable {
    let tests: any TargetTesting

    public init(tests: any TargetTesting) {
        self.tests = tests
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.post, "targets/test", needs: .testTargets, use: test)
    }

    /// Body: `rule` (a string), optionally `action` (a whole number from 0, default 0) and
    /// `transition` (a kind the rule matches). 200 with the answer, whatever the target said;
    /// 404 for an unknown rule; 400 for anything else wrong.
    @Sendable func test(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONRequestBody.object(request, maxBytes: 4_096, fields: ["rule", "action", "transition"])
        let choice = try Self.choice(body)
        do {
            let answer = try await tests.test(rule: choice.rule, action: choice.action, transition: choice.transition, by: "token \(caller.name)")
            return try JSONResponse.make(APITargetTest(answer))
        } catch let problem as TargetTestProblem {
            throw APIError(problem.isNotFound ? .notFound : .badRequest, problem.description)
        }
    }

    static func choice(_ body: [String: JSONValue]) throws -> (rule: String, action: Int, transition: String?) {
        guard let rule = try JSONRequestBody.string(body, "rule"), !rule.isEmpty, rule.unicodeScalars.count <= 200 else {
            throw APIError(.badRequest, "field \"rule\": required, the name of a rule in the rules file")
        }
        var action = 0
        switch body["action"] {
        case nil, .null?: break
        case .number(let number)?:
            guard let value = number.int64.map(Int.init), (0...999).contains(value) else {
                throw APIError(.badRequest, "field \"action\": must be a whole number from 0 (the action's position in the rule's notify list)")
            }
            action = value
        default:
            throw APIError(.badRequest, "field \"action\": must be a whole number from 0 (the action's position in the rule's notify list)")
        }
        let transition = try JSONRequestBody.string(body, "transition")
        if let transition, transition.unicodeScalars.count > 64 { throw APIError(.badRequest, "field \"transition\": unknown transition kind") }
        return (rule, action, transition)
    }
}
