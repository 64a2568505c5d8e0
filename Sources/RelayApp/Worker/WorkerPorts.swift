import EntrupyAPI
import RelayStore
public import RelayWorker

// The Entrupy API client and the PostgreSQL store serve the worker's ports. Declared here,
// where they are wired, so the pipeline's decisions can be tested on doubles.

extension EntrupyAPIClient: ItemSource {}
extension PostgresReconcileStore: ReconcileStoring {}
extension PostgresDeliveryStore: DeliveryLoading {}
extension PostgresTargetHealthStore: TargetHealthTracking {}
extension PostgresOperationalEvents: OperationalRecording {}
extension PostgresWebhookEventStore: WebhookEventTracking {}
extension PostgresFetchLeases: FetchLeasing {}
extension PostgresItemStore: SweepStoring {}
extension PostgresOverdueStore: OverdueStoring {}
extension PostgresItemStore: CountFolding {}
extension PostgresSyncStore: SyncStoring {}
extension PostgresRetentionStore: RetentionStoring {}
extension PostgresTargetHealthStore: TargetMaintaining {}
extension DeliveryOutcomeWrites: DeliveryOutcomeRecording {}
extension DeliveryOutcomeWrites: DeliveryPauseRecording {}
extension PostgresSilenceStore: SilenceReading {}
