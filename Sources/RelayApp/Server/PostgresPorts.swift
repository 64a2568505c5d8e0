public import RelayHTTP
import RelayStore

// The PostgreSQL adapters serve the HTTP layer's ports. Declared here, where they are wired,
// so RelayHTTP knows the ports and the model but not RelayStore.

extension PostgresCallerRate: CallerRate {}
extension PostgresDeliveryRepository: DeliveryQueries {}
extension PostgresErasureStore: ErasureStoring {}
extension PostgresChangeFeed: ChangeFeedQueries {}
extension PostgresItemRepository: ItemQueries {}
extension PostgresOverviewRepository: OverviewQueries {}
extension PostgresRequestSlots: RequestSlots {}
extension PostgresSDKUserRepository: SDKUserStore {}
extension PostgresSessionRepository: ConsoleSessionStore {}
extension PostgresSignInLimiter: SignInLimiter {}
extension PostgresTokenRepository: TokenChecking {}
extension PostgresWebhookEventRepository: WebhookEventQueries {}
extension PostgresWebhookEventRepository: WebhookEventRepository {}
extension PostgresWebhookEventRepository: WebhookRejectionLog {}
