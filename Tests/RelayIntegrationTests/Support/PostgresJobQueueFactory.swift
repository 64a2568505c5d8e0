import PostgresNIO
import RelayStore

enum PostgresJobQueueFactory {
    static func make(_ client: PostgresClient) -> PostgresJobQueue {
        PostgresJobQueue(client: client, logger: TestDatabase.logger)
    }
}
