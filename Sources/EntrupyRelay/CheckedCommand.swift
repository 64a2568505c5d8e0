import ArgumentParser

/// Which command `config check` checks for: it decides which settings are required.
enum CheckedCommand: String, CaseIterable, ExpressibleByArgument {
    case serve
    case serveNoWorker = "serve-no-worker"
    case worker
    /// `migrate` and the other one-shot commands: the database alone.
    case tool

    var receiving: Bool { self == .serve || self == .serveNoWorker }
    var reconciling: Bool { self == .serve || self == .worker }
}
