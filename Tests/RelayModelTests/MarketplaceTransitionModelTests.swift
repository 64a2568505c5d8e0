import Foundation
import Testing
@testable import RelayModel

/// Issue 45's pure parts: when a retake request is a transition, how overdue thresholds are
/// written, and what a data_required item says about its retake.
@Suite("Retake requests and overdue thresholds")
struct MarketplaceTransitionModelTests {
    func snap(_ result: String?, _ final: Bool = false) -> ItemSnapshot {
        ItemSnapshot(result: result, resultFinal: final, flag: "none")
    }

    @Test func aResultBecomingDataRequiredIsOneRetakeRequest() {
        #expect(TransitionDiffer.diff(from: snap("needs_review"), to: snap("data_required")) == [
            Transition(kind: .resultChanged, from: "needs_review", to: "data_required"),
            Transition(kind: .resultRetakeRequested, from: "needs_review", to: "data_required"),
        ])
        // First seen asking for a retake.
        #expect(TransitionDiffer.diff(from: nil, to: snap("data_required")).map(\.kind) == [.itemCreated, .resultRetakeRequested])
        // Fetched again unchanged: nothing; a retake's result, then another request: once more.
        #expect(TransitionDiffer.diff(from: snap("data_required"), to: snap("data_required")).isEmpty)
        #expect(TransitionDiffer.diff(from: snap("data_required"), to: snap("needs_review")).map(\.kind) == [.resultChanged])
        #expect(TransitionDiffer.diff(from: snap("needs_review"), to: snap("data_required")).map(\.kind).filter { $0 == .resultRetakeRequested }.count == 1)
        // Other results never are.
        #expect(!TransitionDiffer.diff(from: snap("needs_review"), to: snap("authentic", true)).contains { $0.kind == .resultRetakeRequested })
    }

    @Test func thresholdsAreADefaultThenCategories() throws {
        let thresholds = try OverdueThresholds("24h, luxury=2d,apparel=90m")
        #expect(thresholds.threshold(for: "luxury").seconds == 172_800 && thresholds.threshold(for: "luxury").key == "48h")
        #expect(thresholds.threshold(for: "sneakers").key == "24h" && thresholds.threshold(for: nil).key == "24h")
        // Items keep Entrupy's spelling of a category; the setting's names are lower case.
        #expect(thresholds.threshold(for: "Luxury").key == "48h")
        #expect(thresholds.longest.key == "48h" && thresholds.shortest.key == "90m")
        #expect(thresholds.shortest.key == "90m")
        #expect(thresholds.description == "24h,apparel=90m,luxury=48h")
        #expect(OverdueThresholds.standard == (try OverdueThresholds(OverdueThresholds.standardText)))
        for bad in ["", "luxury=2d", "24h,12h", "24h,luxury=2d,luxury=3d", "30s", "24h,Luxury=2d", "24h,lux ury=2d", "1y", "24h,=2d", "24h,a=b=c", "90s"] {
            #expect(throws: SettingProblem.self, "\(bad)") { try OverdueThresholds(bad) }
        }
    }

    @Test func retakeReasonsAndCustomerStateAreReadInAnyShape() throws {
        let item = try JSONValue.parse(Array("""
            {"entrupy_id": "e1", "status": {"result": {"id": "data_required", "final": false}},
             "batch_request": {"retake_reasons": ["Blurry tag", {"label": "Insole missing"}, {"id": "angle"}, 7, null, ""]},
             "customer_state": {"id": "awaiting_photos"}}
            """.utf8))
        let details = ItemDetails.read(from: item)
        #expect(details.retakeReasons == ["Blurry tag", "Insole missing", "angle"])
        #expect(details.customerState == "awaiting_photos")
        let bare = ItemDetails.read(from: try JSONValue.parse(Array(#"{"entrupy_id": "e2", "batch_request": "x"}"#.utf8)))
        #expect(bare.retakeReasons.isEmpty && bare.customerState == nil)
    }
}
