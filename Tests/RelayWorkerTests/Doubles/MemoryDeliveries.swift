import RelayModel
import RelayWorker
import Synchronization

/// The deliveries a handler may load, in memory; counts the loads.
final class MemoryDeliveries: DeliveryLoading {
    private let state: Mutex<(records: [Int64: DeliveryRecord], loads: Int)>

    init(_ records: [DeliveryRecord]) {
        state = Mutex((Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) }), 0))
    }

    var loads: Int { state.withLock { $0.loads } }

    func deliveries(ids: [Int64]) async throws -> [Int64: DeliveryRecord] {
        state.withLock { state in
            state.loads += 1
            return state.records.filter { ids.contains($0.key) }
        }
    }
}

/// A channel that answers from a script (the last answer repeats) and keeps what it was asked to send.
final class ScriptedSender: DeliverySending {
    private let state: Mutex<(script: [AttemptReport], sent: [Int64])>

    init(_ script: AttemptReport...) {
        state = Mutex((script, []))
    }

    var sent: [Int64] { state.withLock { $0.sent } }

    func deliver(_ delivery: DeliveryRecord) async -> AttemptReport {
        state.withLock { state in
            state.sent.append(delivery.id)
            return state.script.count > 1 ? state.script.removeFirst() : state.script[0]
        }
    }
}
