import Logging
import ServiceLifecycle

/// Entrupy's support at work: every flag the desk scheduled is resolved when due (flag
/// `resolved`, `flag_info` saying so), with its webhook, until the simulator stops.
struct SimFlagResolver: Service {
    let store: SimulatorStore
    let desk: SimFlagDesk
    let sender: WebhookSender

    static let resolution = FlagInfo(id: "reviewed_ok", label: "Reviewed", message: "Entrupy's support reviewed the result and kept it.")

    func run() async throws {
        // Graceful shutdown ends the wait; nothing is left to finish (a pending flag stays flagged).
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: .milliseconds(200))
                resolveDue()
            }
        }
    }

    func resolveDue() {
        for id in desk.takeDue(now: SimulatorStore.now()) {
            let resolved = store.modify(id) { item, now in
                guard item.flag == "flagged" else { return }
                item.setFlag("resolved", info: Self.resolution, isFlaggable: nil, at: now)
            }
            if let resolved, resolved.flag == "resolved" { sender.send(WebhookEvent.sessionCompleted, item: resolved) }
        }
    }
}
