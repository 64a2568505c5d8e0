import Foundation
import Synchronization

/// Entrupy's support desk for flags raised through the API: the reasons it offers, each flag
/// request it was sent (for `/_sim/flags`: how many, and the most within any one second),
/// and the flags it will resolve once `resolveAfterSeconds` have passed (`SimFlagResolver`).
final class SimFlagDesk: Sendable {
    /// The reasons the simulator offers (`supported_flag_reasons`): its own, Entrupy publishes none we could read.
    static let reasons: [FlagInfo] = [
        FlagInfo(id: "result_disputed", label: "I disagree with the result", message: "Entrupy's support reviews the photos again."),
        FlagInfo(id: "wrong_item_details", label: "The item details are wrong", message: "Brand, model or category do not match the item."),
        FlagInfo(id: "other", label: "Something else", message: "Say what in the comments."),
    ]

    struct State {
        var requests = 0
        var window = RequestRateWindow()
        /// Entrupy ID → when (epoch seconds) its flag resolves.
        var due: [String: Double] = [:]
    }

    let resolveAfterSeconds: Double
    private let state = Mutex(State())

    init(resolveAfterSeconds: Double = 2) {
        self.resolveAfterSeconds = resolveAfterSeconds
    }

    /// Counts a flag request (whatever its answer), at its arrival.
    func arrived() {
        let now = Date().timeIntervalSince1970
        state.withLock { state in
            state.requests += 1
            state.window.record(at: now)
        }
    }

    func schedule(_ entrupyID: String, now: Double) {
        state.withLock { $0.due[entrupyID] = now + resolveAfterSeconds }
    }

    /// The flags due by `now`, no longer pending.
    func takeDue(now: Double) -> [String] {
        state.withLock { state in
            let due = state.due.filter { $0.value <= now }.map(\.key).sorted()
            for id in due { state.due[id] = nil }
            return due
        }
    }

    var json: SimJSON {
        state.withLock { state in
            .object(["requests": .number(state.requests), "peak_per_second": .number(state.window.peak), "pending": .number(state.due.count)])
        }
    }

    func reset() {
        state.withLock { state in
            state.requests = 0
            state.window = RequestRateWindow()
        }
    }
}
