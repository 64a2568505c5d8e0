/// What the sender of an email group decided for the members it locked: the settlements of
/// those that went in the email (`GroupSettlement`), and those a silence in force matched,
/// recorded `silenced` by it and never emailed (delivery ID to silence ID). The store writes
/// both in the transaction that locked them.
public struct GroupSend: Sendable, Equatable {
    public var settlements: [GroupSettlement]
    public var silenced: [Int64: Int64]

    public init(settlements: [GroupSettlement], silenced: [Int64: Int64] = [:]) {
        self.settlements = settlements
        self.silenced = silenced
    }
}
