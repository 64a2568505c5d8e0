import RelayStore
public import RelayWorker

/// The deliver handler locks and settles email groups in the deliveries' store.
extension PostgresDeliveryStore: EmailGroupSending {}
