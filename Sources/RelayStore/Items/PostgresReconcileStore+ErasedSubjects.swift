import RelayModel
import RelayDatabase

/// What the reconcile's statements do for erasure: look the item's keys up among those an
/// erasure remembered (`erased_subjects`: one primary-key probe per key, inside the commit
/// statement), refuse a change computed with people fields for an item that names one, and
/// store an erased item's webhooks without their bodies.
extension PostgresReconcileStore {
    /// `forgotten.hit`: whether one of the item's keys was erased. NULL keys match nothing.
    /// The salt comes from a join, so the planner inlines the hash (migration 37): the
    /// two-argument form reads it with a subquery and is planned again at every call.
    static let forgottenCTE = """
        forgotten AS (
            SELECT EXISTS (SELECT FROM installation s, erased_subjects WHERE key IN (
                erased_subject_key(s.key_salt, 'entrupy_id', :entrupy_id::text),
                erased_subject_key(s.key_salt, 'customer_item_id', :customer_item_id::text),
                erased_subject_key(s.key_salt, 'username', :subject_username::text),
                erased_subject_key(s.key_salt, 'user_id', :subject_user_id::text))) AS hit)
        """

    /// The write goes ahead only for a change without people fields, or for an item none of
    /// whose keys was erased.
    static let clearOfErasures = "(:people_erased::bool OR NOT (SELECT hit FROM forgotten))"

    /// The answer's column: refused because a key was erased (the caller computes it again without people fields).
    static let refusedForErasure = "(NOT :people_erased::bool AND (SELECT hit FROM forgotten))"

    /// For a webhook event's `UPDATE … SET`: an erased item's event keeps no body or headers.
    static let erasedBodyAssignments = """
        body = CASE WHEN :people_erased::bool THEN NULL ELSE body END,
                          headers = CASE WHEN :people_erased::bool THEN '{}'::jsonb ELSE headers END,
                          body_removed = CASE WHEN :people_erased::bool THEN coalesce(body_removed, 'erased') ELSE body_removed END,
                          body_removed_at = CASE WHEN :people_erased::bool THEN coalesce(body_removed_at, now()) ELSE body_removed_at END
        """

    /// The keys looked up beside the item's IDs (`:people_erased` is a fetch value: every
    /// statement marks webhook events). A change without people fields has none to look up.
    static func setSubjectValues(_ change: ReconcileChange, item: EntrupyItem, in values: inout NamedBindings) {
        values.set("subject_username", change.peopleErased ? nil : item.username)
        values.set("subject_user_id", change.peopleErased ? nil : item.raw[path: "owner.user_id"]?.scalarText.map { StoredText.clean($0) })
    }
}
