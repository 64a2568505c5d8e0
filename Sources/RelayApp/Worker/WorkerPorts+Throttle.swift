public import RelayStore
public import RelayWorker

extension PostgresTargetThrottle: TargetThrottling {}
extension DeliveryOutcomeWrites: DeliveryThrottleRecording {}
