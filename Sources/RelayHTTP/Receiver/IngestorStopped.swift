/// The ingestor is shutting down and accepts nothing more: the sender is asked to retry.
public struct IngestorStopped: Error, CustomStringConvertible {
    public var description: String { "the service is shutting down" }
}
