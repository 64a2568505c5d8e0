public import RelayHTTP
import RelayStore

// The PostgreSQL adapters serve the HTTP layer's ports. Declared here, where they are wired,
// so RelayHTTP knows the ports and the model but not RelayStore.

extension PostgresCallerRate: CallerRate {}
extension PostgresDeliveryStore: DeliveryQueries {}
extension PostgresErasureStore: ErasureStoring {}
extension PostgresChangeFeed: ChangeFeedQueries {}
extension PostgresItemStore: ItemQueries {}
extension PostgresOverviewStore: OverviewQueries {}
extension PostgresRequestSlots: RequestSlots {}
extension PostgresSDKUserStore: SDKUserStore {}
extension PostgresSessionStore: ConsoleSessionStore {}
extension PostgresSignInLimiter: SignInLimiter {}
extension PostgresTokenStore: TokenChecking {}
extension PostgresWebhookEventStore: WebhookEventQueries {}
extension PostgresWebhookEventStore: WebhookEventStore {}
extension PostgresWebhookEventStore: WebhookRejectionLog {}
