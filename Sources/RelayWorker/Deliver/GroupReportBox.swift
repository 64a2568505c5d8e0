import Foundation

/// The report a group's send closure hands back to the job that ran it.
final class GroupReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: AttemptReport?

    var report: AttemptReport? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
