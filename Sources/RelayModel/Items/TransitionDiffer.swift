/// Derives transitions by comparing the stored state with a fresh one (contract section 4).
/// Comparing states, not replaying webhooks, is what makes duplicates, reordering and missed
/// webhooks converge: the same pair of states always yields the same transitions, and equal
/// states yield none.
public enum TransitionDiffer {
    public static func diff(from old: ItemSnapshot?, to new: ItemSnapshot) -> [Transition] {
        var transitions: [Transition] = []
        guard let old else {
            transitions.append(Transition(kind: .itemCreated, from: nil, to: new.result))
            if new.resultFinal, new.result != nil {
                transitions.append(Transition(kind: .resultFinal, from: nil, to: new.result))
            }
            transitions += retakeTransitions(from: nil, to: new)
            // A new item starts unflagged; a flag seen at first sight was raised before it.
            return transitions + flagTransitions(from: "none", to: new.flag)
        }

        if old.result != new.result {
            transitions.append(Transition(kind: .resultChanged, from: old.result, to: new.result))
        }
        // Final when it becomes final, or when a final result changes to another final one.
        let becameFinal = new.resultFinal && !old.resultFinal
        let finalChanged = new.resultFinal && old.resultFinal && old.result != new.result
        if (becameFinal || finalChanged), new.result != nil {
            transitions.append(Transition(kind: .resultFinal, from: old.result, to: new.result))
        }

        transitions += retakeTransitions(from: old, to: new)
        transitions += flagTransitions(from: old.flag, to: new.flag)
        return transitions
    }

    /// Entrupy's result `data_required` asks for new photos: once each time a result becomes it
    /// (first seen so, or from another result), never again while it stays.
    static func retakeTransitions(from old: ItemSnapshot?, to new: ItemSnapshot) -> [Transition] {
        guard new.result == retakeResult, old?.result != retakeResult else { return [] }
        return [Transition(kind: .resultRetakeRequested, from: old?.result, to: new.result)]
    }

    /// The result by which Entrupy asks for a retake (contract section 3).
    public static let retakeResult = "data_required"

    /// A flag only reaches `resolved` or goes back to `none` through `flagged` (contract
    /// section 3), so when two fetches straddle both steps the missing `flagged` is inferred
    /// and both transitions are recorded: a flag raised and resolved between two looks is
    /// still a flag raised and resolved.
    static func flagTransitions(from old: String, to new: String) -> [Transition] {
        guard old != new else { return [] }
        switch (old, new) {
        case (_, "flagged"):
            return [Transition(kind: .flagRaised, from: old, to: new)]
        case ("flagged", "none"):
            return [Transition(kind: .flagCleared, from: old, to: new)]
        case ("flagged", "resolved"):
            return [Transition(kind: .flagResolved, from: old, to: new)]
        case ("none", "resolved"):
            return [Transition(kind: .flagRaised, from: old, to: "flagged"), Transition(kind: .flagResolved, from: "flagged", to: new)]
        case ("resolved", "none"):
            return [Transition(kind: .flagRaised, from: old, to: "flagged"), Transition(kind: .flagCleared, from: "flagged", to: new)]
        case (_, let reviewed) where reviewed.hasPrefix("reviewed"):
            // v2's `reviewed_ok`: Entrupy looked at the flag (from flagged, or first seen so).
            return [Transition(kind: .flagReviewed, from: old, to: new)]
        default:
            // A value outside the documented ones, either side: a change all the same, which
            // rules can match, so a new value Entrupy sends is never a silent one.
            return [Transition(kind: .flagChanged, from: old, to: new)]
        }
    }
}
