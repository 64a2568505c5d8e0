public import EntrupyAPI
public import Logging
public import PostgresNIO
public import RelayHTTP
import RelayStore

extension PostgresFlagRequestStore: FlagRequestStoring {}
extension PostgresItemStore: ItemRefreshing {}

extension ItemActions {
    /// Flag and refresh on PostgreSQL, flags asking `api` (nil: they answer 503; refresh still queues).
    public static func postgres(client: PostgresClient, api: EntrupyAPIClient?, settings: RelaySettings, logger: Logger) -> ItemActions {
        let items = PostgresItemStore(client: client, logger: logger)
        return ItemActions(
            flagger: ItemFlagger(api: api, store: PostgresFlagRequestStore(client: client, logger: logger), refresher: items,
                                 configuredReasons: settings.entrupy.flagReasons),
            refresher: items)
    }
}
