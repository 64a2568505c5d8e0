/// A reconcile's commit was refused because the item names a key an erasure remembered (its
/// Entrupy ID, customer item ID, submitter's username or Entrupy user ID), and the change was
/// computed with the people fields: the caller computes it again without them
/// (`ReconcileChange.peopleErased`). Nothing was written.
public struct ErasedSubjectFound: Error, Equatable {
    public let entrupyID: String

    public init(entrupyID: String) {
        self.entrupyID = entrupyID
    }
}
