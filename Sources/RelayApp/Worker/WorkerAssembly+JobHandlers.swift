import EntrupyAPI
import Logging
import PostgresNIO
import RelayModel
import RelayNotify
import RelayQueue
import RelayRules
import RelayRuntime
import RelayStore
import RelayWorker

extension WorkerAssembly {
    /// The job worker's handlers as the settings describe them: `reconcile_webhook` and
    /// `reconcile_item`, which share one item lock, and `deliver`.
    struct JobHandlers {
        let settings: RelaySettings
        let client: PostgresClient
        let logger: Logger
        let workerID: String
        /// Both reconcile handlers hold it: this worker runs the hints for one item one after another.
        let itemLock = KeyedLock()

        /// `reconcile_webhook` (with the cross-replica fetch leases) and `reconcile_item`.
        func reconcile(pipeline: ReconcilePipeline, health: EntrupyHealthMonitor) -> [AnyJobHandler] {
            let events = PostgresWebhookEventStore(client: client, logger: logger, reconcileMaxAttempts: settings.worker.reconcileMaxAttempts)
            // No longer than the job's lease: a killed replica's item waits no longer than its job.
            let leases = PostgresFetchLeases(client: client, logger: logger, duration: .seconds(
                min(settings.worker.jobLeaseSeconds, settings.entrupy.timeoutSeconds + 5)))
            return [
                AnyJobHandler(ReconcileWebhookHandler(pipeline: pipeline, events: events, notFoundWindow: .seconds(settings.worker.notFoundWindowSeconds),
                                                      itemLock: itemLock, leases: leases, routeGone: { health.current.routeGoneReason })),
                AnyJobHandler(ReconcileItemHandler(pipeline: pipeline, itemLock: itemLock)),
                AnyJobHandler(CheckOverdueHandler(pipeline: pipeline, store: PostgresOverdueStore(client: client, logger: logger), itemLock: itemLock)),
            ]
        }

        /// `deliver`: email when SMTP is set, signed callbacks, each target behind its breaker.
        func deliver(deliveries: PostgresDeliveryStore, rules: RulesStore, smtp: SMTPClient?, callbackSender: CallbackSender,
                     targetHealth: PostgresTargetHealthStore) -> AnyJobHandler {
            AnyJobHandler(DeliveryHandler(
                deliveries: deliveries,
                email: smtp.map(EmailDeliverer.init),
                callbacks: CallbackDeliverer(sender: callbackSender, rules: rules),
                schedule: settings.notify.retrySchedule, limiter: TargetLimiter(limit: settings.notify.targetConcurrency),
                targets: targetHealth, breaker: TargetBreaker(policy: settings.notify.breaker),
                operations: PostgresOperationalEvents(client: client, logger: logger),
                alerts: { [rules] event in DeliveryPlanner.plan(rules: rules.current, event: event) },
                outcomes: DeliveryOutcomeWrites(),
                workerID: workerID, logger: logger
            ).pausing(pauses(rules: rules))
            .throttled(by: DeliveryThrottle(rules: { [rules] in rules.current }, slots: PostgresTargetThrottle(client: client, logger: logger),
                                            longestSnooze: settings.notify.throttleMaxWait, records: DeliveryOutcomeWrites())))
        }

        /// Silences (read every two seconds) and the quiet hours of the rules in force.
        func pauses(rules: RulesStore) -> DeliveryPauses {
            let silences = PostgresSilenceStore(client: client, logger: logger)
            return DeliveryPauses(silences: SilenceCache(reader: silences, logger: logger), reader: silences,
                                  quietHours: { [rules] name in rules.current.rules.first { $0.name == name }?.quietHours },
                                  records: DeliveryOutcomeWrites())
        }
    }

    /// The job worker's claims, leases, polling, backoff, retention of finished jobs and drain.
    static func jobWorkerConfiguration(settings: RelaySettings) -> JobWorkerConfiguration {
        var configuration = JobWorkerConfiguration(
            concurrency: settings.worker.concurrency, lease: .seconds(settings.worker.jobLeaseSeconds),
            pollInterval: .milliseconds(settings.worker.jobPollMilliseconds),
            pruneCompletedAfter: .seconds(settings.worker.pruneCompletedHours * 3600),
            pruneDeadAfter: .seconds(settings.worker.pruneDeadDays * 86_400),
            backoffBase: .milliseconds(settings.worker.jobBackoffBaseMilliseconds),
            maxCrashes: settings.worker.jobMaxCrashes, jobTimeout: .seconds(settings.worker.jobTimeoutSeconds)
        )
        configuration.shutdownDrain = .seconds(settings.worker.jobShutdownDrainSeconds)
        return configuration
    }

    /// The signed callbacks' HTTP client: as many connections per host as a target may have deliveries under way.
    static func callbackSender(settings: RelaySettings) -> CallbackSender {
        CallbackSender(timeout: .seconds(settings.notify.callbackTimeoutSeconds), connectionsPerHost: settings.notify.targetConcurrency,
                       allowPrivate: settings.notify.allowPrivateCallbacks)
    }
}
