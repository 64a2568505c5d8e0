public import Foundation
public import RelayModel

/// Where the deliver handler reads silences (`PostgresSilenceStore`, wired in RelayApp): those
/// in force, every few seconds (`SilenceCache`), and, only when a silence in force names item
/// fields and could match a delivery, that item's fields.
public protocol SilenceReading: Sendable {
    func inForce(ahead: Duration) async throws -> (silences: [Silence], now: Date)
    func silenceFields(entrupyID: String) async throws -> EntrupyItem?
}
