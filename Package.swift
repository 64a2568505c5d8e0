// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Every numbered SQL file in migrations/, compiled into the binary (RelayMigrations).
/// SwiftPM caches this list with the manifest's text: after adding a file, change this file too
/// (the latest file, so that the change says which: 0045_target_throttle_period.sql).
let migrationFiles = ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/migrations")) ?? [])
    .filter { $0.hasSuffix(".sql") }.sorted()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "entrupy-relay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "entrupy-relay", targets: ["EntrupyRelay"]),
        .executable(name: "entrupy-sim", targets: ["EntrupySim"]),
        .executable(name: "relay-bench", targets: ["RelayBench"]),
        .executable(name: "relay-fuzz", targets: ["RelayFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        // Already in the graph through Hummingbird; the YAML trait reads the optional config file.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "YAML"]),
        // Traces (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set): OTLP over HTTP only, so gRPC is not built.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        // The domain: every type more than one module speaks (items, transitions, deliveries,
        // targets, retention, the reconcile model, job arguments) and the pure logic on them
        // (webhook parsing and signatures, diffing, the breaker, JSON values). No I/O.
        .target(
            name: "RelayModel",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Time and process effects the adapters share, kept out of the pure modules: deadlines,
        // the API budget's contract and its in-process form (it sleeps), the keyed lock,
        // settings read from the environment and secret files.
        .target(
            name: "RelayRuntime",
            dependencies: [
                "RelayModel",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL plumbing every adapter shares: its settings, error text, SQLSTATE checks,
        // named statements (`NamedSQL`) and the migrations' statement splitter.
        .target(
            name: "RelayDatabase",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The job queue: the only code that writes `jobs` rows (enqueue in the caller's
        // transaction, claim, heartbeat, finish, rescue, prune, redrive) and the worker that
        // runs typed handlers. Knows nothing of what jobs do.
        .target(
            name: "RelayQueue",
            dependencies: [
                "RelayModel",
                "RelayDatabase",
                "RelayRuntime",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The numbered SQL files of migrations/, compiled in: `migrate` applies what the binary
        // holds, never files found near it (MIGRATIONS_DIR, when set, names a folder to use instead).
        .target(
            name: "RelayMigrations",
            path: "migrations",
            exclude: ["README.md"],
            sources: ["EmbeddedMigrations.swift"],
            resources: migrationFiles.map { .embedInCode($0) },
            swiftSettings: swiftSettings
        ),
        // PostgreSQL adapter: migrations, repositories.
        .target(
            name: "RelayStore",
            dependencies: [
                "RelayModel",
                "RelayMigrations",
                "RelayDatabase",
                "RelayRuntime",
                "RelayQueue",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Entrupy REST API client: lookup, get, search, authorize-user, health (and its monitor);
        // it waits on the rate budget that RelayRuntime defines.
        .target(
            name: "EntrupyAPI",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: swiftSettings
        ),
        // Pure: the rules file (YAML), matching transitions, rendering Mustache templates into
        // the deliveries a transition causes.
        .target(
            name: "RelayRules",
            dependencies: [
                "RelayModel",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        // Notifiers: an SMTP client on SwiftNIO with MIME building, and the signed HTTP
        // callback sender. Knows nothing of rules or Entrupy.
        .target(
            name: "RelayNotify",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What jobs do: the reconcile pipeline and the deliver handler (RelayQueue runs them), and
        // the sweep, sync, backfill, rules reload and count folding services.
        .target(
            name: "RelayWorker",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                "RelayDatabase",
                "RelayQueue",
                "EntrupyAPI",
                "RelayRules",
                "RelayNotify",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // HTTP surface: the receiver (with its group-commit ingestor), health, metrics, the
        // query API, the console. Reaches the database only through RelayStore's repositories:
        // no SQL, no driver.
        .target(
            name: "RelayHTTP",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                "EntrupyAPI",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The OpenAPI document and the console's templates are files to read and edit as
            // what they are, compiled into the binary so nothing has to be found at run time.
            resources: [
                .embedInCode("Resources/openapi.json"),
                .embedInCode("Resources/console/header.mustache"),
                .embedInCode("Resources/console/footer.mustache"),
                .embedInCode("Resources/console/login.mustache"),
                .embedInCode("Resources/console/items.mustache"),
                .embedInCode("Resources/console/item.mustache"),
                .embedInCode("Resources/console/deliveries.mustache"),
                .embedInCode("Resources/console/targets.mustache"),
                .embedInCode("Resources/console/silences.mustache"),
                .embedInCode("Resources/console/message.mustache"),
                .embedInCode("Resources/console/overview.mustache"),
                .embedInCode("Resources/console/style.css"),
            ],
            swiftSettings: swiftSettings
        ),
        // Configuration and wiring, shared by the executable and the tests.
        .target(
            name: "RelayApp",
            dependencies: [
                "RelayModel",
                "RelayRuntime",
                "RelayDatabase",
                "RelayQueue",
                "RelayRules",
                "RelayNotify",
                "RelayStore",
                "RelayHTTP",
                "RelayWorker",
                "EntrupyAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "EntrupyRelay",
            dependencies: [
                "RelayApp",
                "RelayHTTP",
                "RelayModel",
                "RelayRuntime",
                "RelayDatabase",
                "RelayQueue",
                "RelayRules",
                "RelayStore",
                "RelayWorker",
                "EntrupyAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A stand-in Entrupy (API + signed webhooks) for local runs, tests and load. It imports
        // nothing of the relay: its JSON, signatures and rules are its own, written from the
        // contract, so a mistake in the relay cannot hide behind the same mistake here.
        .target(
            name: "EntrupySimulator",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "EntrupySim",
            dependencies: [
                "EntrupySimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Load generators behind deploy/bench/*.sh.
        .executableTarget(
            name: "RelayBench",
            dependencies: [
                "RelayApp", "RelayModel", "RelayStore", "RelayWorker", "RelayRules", "RelayQueue", "RelayDatabase",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // libFuzzer targets for every parser of outside input; deploy/fuzz.sh builds it with
        // -sanitize=fuzzer,address -DFUZZING (without them it is a stub that says so).
        .executableTarget(
            name: "RelayFuzz",
            dependencies: ["RelayModel", "RelayRules", "RelayNotify"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayModelTests",
            dependencies: ["RelayModel"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayDatabaseTests",
            dependencies: ["RelayDatabase"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayRuntimeTests",
            dependencies: ["RelayRuntime", "RelayModel"],
            swiftSettings: swiftSettings
        ),
        // The HTTP routes on in-memory stores: the role × route matrix and the query rules, no PostgreSQL.
        .testTarget(
            name: "RelayHTTPTests",
            dependencies: [
                "RelayHTTP", "RelayModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayRulesTests",
            dependencies: ["RelayModel", "RelayRules"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayNotifyTests",
            dependencies: ["RelayModel", "RelayNotify"],
            swiftSettings: swiftSettings
        ),
        // The stores' statements as text and bindings; no server (their behaviour is tested against PostgreSQL in RelayIntegrationTests).
        .testTarget(
            name: "RelayStoreTests",
            dependencies: ["RelayStore", "RelayModel", "RelayDatabase", "RelayQueue"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayQueueTests",
            dependencies: ["RelayQueue", "RelayModel", "RelayDatabase"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayWorkerTests",
            dependencies: ["RelayWorker", "RelayNotify", "RelayModel", "RelayRules", "RelayStore", "RelayQueue", "RelayRuntime",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Settings and logging as the app reads them; no server.
        .testTarget(
            name: "RelayAppTests",
            dependencies: ["RelayApp", "EntrupyAPI", "RelayModel", "RelayDatabase", "RelayRuntime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RelayIntegrationTests",
            dependencies: [
                "RelayApp",
                "RelayRuntime",
                "RelayWorker",
                "RelayQueue",
                "RelayDatabase",
                "EntrupyAPI",
                "EntrupySimulator",
                "RelayModel",
                "RelayStore",
                "RelayHTTP",
                "RelayRules",
                "RelayNotify",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
