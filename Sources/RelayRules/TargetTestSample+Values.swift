import Foundation
import RelayModel

extension TargetTestSample {
    /// The sample item for `transition`: the first value each condition list allows (so the
    /// rule would match it), else a plausible one; every detail a template can name filled in,
    /// read from a raw item shaped as Entrupy's REST v1 sends it.
    static func subject(for condition: RuleCondition, transition kind: TransitionKind, now: Date) -> NotificationSubject {
        let result = condition.results?.sorted().first ?? (kind == .resultRetakeRequested ? "data_required" : "authentic")
        let flag = condition.flags?.sorted().first ?? Self.flag(after: kind)
        let item = EntrupyItem(
            entrupyID: entrupyID, customerItemID: "sample-0001", result: result, resultFinal: kind != .resultRetakeRequested,
            resultHeader: "Sample result", resultMessage: "A sample event sent by `targets test`; no item is concerned.",
            flag: flag, brand: condition.brands?.sorted().first ?? "sample_brand", model: "Sample model",
            category: condition.categories?.sorted().first ?? "handbag", username: "sample-user",
            certificateURL: "https://example.com/certificate/test_sample", submittedAt: now.addingTimeInterval(-3600),
            raw: raw(now: now))
        let transition = Transition(kind: kind, from: from(kind, result: result, flag: flag), to: to(kind, result: result, flag: flag))
        return NotificationSubject(item: item, transition: transition, occurredAt: now, uniqueUserID: "sample-user-0001")
    }

    static func flag(after kind: TransitionKind) -> String {
        switch kind {
        case .flagRaised, .flagChanged: "flagged"
        case .flagResolved: "resolved"
        case .flagReviewed: "reviewed_ok"
        default: "none"
        }
    }

    static func from(_ kind: TransitionKind, result: String, flag: String) -> String? {
        switch kind {
        case .itemCreated: nil
        case .resultChanged, .resultFinal, .resultRetakeRequested: "pending"
        case .resultOverdue: result
        case .flagRaised, .flagChanged: "none"
        case .flagCleared, .flagResolved, .flagReviewed: "flagged"
        }
    }

    static func to(_ kind: TransitionKind, result: String, flag: String) -> String? {
        switch kind {
        case .itemCreated, .resultChanged, .resultFinal, .resultRetakeRequested: result
        case .resultOverdue: "24h"
        case .flagRaised, .flagChanged, .flagResolved, .flagReviewed: flag
        case .flagCleared: "none"
        }
    }

    /// The raw item `ItemDetails.read` fills every detail from.
    static func raw(now: Date) -> JSONValue {
        let submitted = JSONValue.object(["epoch": .number(JSONNumber(Int64(now.timeIntervalSince1970) - 3600))])
        return .object(["item": .object([
            "status": .object([
                "result": .object(["reason": .string("sample reason"),
                                   "display": .object(["header": .string("Sample result"),
                                                       "message": .string("A sample event sent by `targets test`; no item is concerned.")])]),
                "flag": .object(["flag_info": .object(["id": .string("sample_flag"), "label": .string("Sample flag reason"),
                                                       "message": .string("A sample flag message.")])]),
            ]),
            "images": .object(["item_photo": .object(["urls": .object(["original": .string("https://example.com/photos/test_sample.jpg")])])]),
            "certificate": .object(["site": .string("https://example.com/certificate/test_sample"),
                                    "preview": .string("https://example.com/certificate/test_sample.png"),
                                    "certificate_id": .string("TEST-0001")]),
            "event_times": .object(["submitted_at": submitted]),
            "owner": .object(["organization": .object(["name": .string("Sample organisation")])]),
            "batch_request": .object(["retake_reasons": .array([.string("Sample retake reason")]), "customer_state": .string("sample")]),
        ])])
    }

    /// A sample operational event of `kind`: a target failing, or a delivery dead.
    static func event(_ kind: OperationalKind, now: Date) -> OperationalEvent {
        let target = "https://partner.example.com"
        switch kind {
        case .deliveryDead:
            let delivery = DeliveryRecord(id: 0, itemEventID: nil, entrupyID: entrupyID, rule: "sample-rule", actionIndex: 0, channel: .webhook,
                                          target: target + "/***", idempotencyKey: "test_sample_delivery", state: .dead, attempts: 9,
                                          scheduleBase: 0, createdAt: now, transition: TransitionKind.resultFinal.rawValue)
            return OperationalEvent(kind: kind, occurredAt: now, target: target, error: "HTTP 500 (a sample error)", delivery: delivery)
        case .targetOpened, .targetDisabled, .targetRecovered, .targetEnabled:
            let state: TargetState = kind == .targetOpened ? .open : kind == .targetDisabled ? .disabled : .healthy
            return OperationalEvent(kind: kind, occurredAt: now, target: target, state: state, error: "HTTP 500 (a sample error)",
                                    failingSince: now.addingTimeInterval(-600), by: kind == .targetDisabled || kind == .targetEnabled ? "cli (sample)" : nil)
        }
    }
}
