import PostgresNIO
import RelayQueue

enum PostgresJobQueueFactory {
    static func make(_ client: PostgresClient) -> PostgresJobQueue {
        PostgresJobQueue(client: client, logger: TestDatabase.logger)
    }
}
