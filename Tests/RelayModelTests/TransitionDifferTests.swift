import Testing
@testable import RelayModel

@Suite("Deriving transitions from two states")
struct TransitionDifferTests {
    func snap(_ result: String?, _ final: Bool, _ flag: String = "none") -> ItemSnapshot {
        ItemSnapshot(result: result, resultFinal: final, flag: flag)
    }

    func kinds(_ old: ItemSnapshot?, _ new: ItemSnapshot) -> [TransitionKind] {
        TransitionDiffer.diff(from: old, to: new).map(\.kind)
    }

    @Test func firstSightIsItemCreatedPlusWhatIsAlreadyTrue() {
        #expect(kinds(nil, snap("needs_review", false)) == [.itemCreated])
        #expect(kinds(nil, snap("authentic", true)) == [.itemCreated, .resultFinal])
        #expect(kinds(nil, snap("authentic", true, "flagged")) == [.itemCreated, .resultFinal, .flagRaised])
        #expect(kinds(nil, snap("authentic", true, "resolved")) == [.itemCreated, .resultFinal, .flagRaised, .flagResolved])
        #expect(kinds(nil, snap(nil, false)) == [.itemCreated])
    }

    @Test func resultTransitions() {
        let review = snap("needs_review", false)
        #expect(TransitionDiffer.diff(from: review, to: snap("authentic", true)) == [
            Transition(kind: .resultChanged, from: "needs_review", to: "authentic"),
            Transition(kind: .resultFinal, from: "needs_review", to: "authentic"),
        ])
        // A final result changing to another final one is final again.
        #expect(kinds(snap("authentic", true), snap("unknown", true)) == [.resultChanged, .resultFinal])
        // Becoming final without changing the ID.
        #expect(kinds(snap("unknown", false), snap("unknown", true)) == [.resultFinal])
        // A change that is not final.
        #expect(kinds(snap("needs_review", false), snap("new_value", false)) == [.resultChanged])
        // Going back to non-final is a change, never a second final.
        #expect(kinds(snap("authentic", true), snap("needs_review", false)) == [.resultChanged])
    }

    @Test func flagTransitionsFollowTheLifecycle() {
        let base = snap("authentic", true)
        #expect(TransitionDiffer.diff(from: base, to: snap("authentic", true, "flagged")) == [Transition(kind: .flagRaised, from: "none", to: "flagged")])
        #expect(kinds(snap("authentic", true, "flagged"), base) == [.flagCleared])
        #expect(kinds(snap("authentic", true, "flagged"), snap("authentic", true, "resolved")) == [.flagResolved])
        #expect(kinds(snap("authentic", true, "resolved"), snap("authentic", true, "flagged")) == [.flagRaised])
    }

    @Test func missedIntermediateFlagIsInferred() {
        #expect(TransitionDiffer.diff(from: snap("authentic", true), to: snap("authentic", true, "resolved")) == [
            Transition(kind: .flagRaised, from: "none", to: "flagged"),
            Transition(kind: .flagResolved, from: "flagged", to: "resolved"),
        ])
        #expect(kinds(snap("authentic", true, "resolved"), snap("authentic", true, "none")) == [.flagRaised, .flagCleared])
    }

    /// Issue 30: v2's reviewed_ok is a flag reviewed; any other unknown value is a flag changed.
    @Test func everyFlagValueMeansSomething() {
        #expect(TransitionDiffer.diff(from: snap("authentic", true, "flagged"), to: snap("authentic", true, "reviewed_ok"))
            == [Transition(kind: .flagReviewed, from: "flagged", to: "reviewed_ok")])
        #expect(kinds(nil, snap("authentic", true, "reviewed_ok")) == [.itemCreated, .resultFinal, .flagReviewed])
        #expect(TransitionDiffer.diff(from: snap("authentic", true, "none"), to: snap("authentic", true, "weird"))
            == [Transition(kind: .flagChanged, from: "none", to: "weird")])
        #expect(kinds(snap("authentic", true, "reviewed_ok"), snap("authentic", true, "none")) == [.flagChanged])
        #expect(kinds(snap("authentic", true, "weird"), snap("authentic", true, "flagged")) == [.flagRaised])
        #expect(kinds(snap("authentic", true, "weird"), snap("authentic", true, "weird")).isEmpty)
    }

    @Test func equalStatesYieldNothingSoRepeatsConverge() {
        for state in [snap("needs_review", false), snap("authentic", true, "flagged"), snap(nil, false, "resolved")] {
            #expect(TransitionDiffer.diff(from: state, to: state).isEmpty)
        }
    }
}
