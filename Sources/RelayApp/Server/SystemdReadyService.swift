import RelayRuntime
public import ServiceLifecycle

/// For a process with no port of its own to wait for (the worker): tells systemd it is ready
/// (`Type=notify`) once the group has started its services, then waits for the shutdown.
public struct SystemdReadyService: Service {
    public init() {}

    public func run() async throws {
        SystemdNotifier.notify("READY=1")
        try? await gracefulShutdown()
    }
}
