import ArgumentParser
import Foundation
import Logging
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage

/// `purchase-sli serve`: the HTTP ingestion service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP ingestion service (POST /v1/events, GET /v1/query, /healthz, /readyz, /metrics).",
        discussion: """
            Each accepted request is answered only after its events are committed (fsynced) to the database; \
            concurrent requests are committed together. SIGTERM or SIGINT stops accepting connections, \
            finishes the requests in flight, commits, and exits 0.

            Settings come from the defaults, then --config FILE (JSON), then the environment, then the \
            options. Environment: PURCHASE_SLI_DB, PURCHASE_SLI_HOST, PURCHASE_SLI_PORT, \
            PURCHASE_SLI_INGEST_KEYS (a keys file), PURCHASE_SLI_CONFIG, PURCHASE_SLI_LOG_LEVEL \
            (trace, debug, info, notice, warning, error, critical). See README.md for the config keys.
            """)

    @Option(help: ArgumentHelp("SQLite database file (env PURCHASE_SLI_DB).", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Address to listen on (env PURCHASE_SLI_HOST; default 127.0.0.1).", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on, 0 for any free port (env PURCHASE_SLI_PORT; default 8080).", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp(
        "File of accepted ingest keys, one per line, # comments (env PURCHASE_SLI_INGEST_KEYS; default: no key needed).",
        valueName: "file"))
    var ingestKeys: String?

    @Option(help: ArgumentHelp("JSON file of server settings (env PURCHASE_SLI_CONFIG).", valueName: "file"))
    var config: String?

    @OptionGroup(title: "Limits and retention") var retention: RetentionOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Self.makeLogger(level: environment["PURCHASE_SLI_LOG_LEVEL"])
        let settings: (server: ServerConfiguration, db: String)
        let store: SQLiteBucketStore
        do {
            settings = try resolve(environment: environment)
            var storeConfiguration = try retention.configuration()
            storeConfiguration.fsyncEachCommit = true
            store = try StoreOptions.openStore(path: settings.db, configuration: storeConfiguration)
        } catch let failure as CommandFailure {
            printError("error: \(failure.message)")
            throw ExitCode.failure
        }
        let server = settings.server
        logger.info("purchase-sli serve starting", metadata: [
            "address": "\(server.host):\(server.port)", "database": "\(settings.db)",
            "ingestKeys": "\(server.ingestKeys.isEnabled ? "\(server.ingestKeys.count) accepted" : "none required")",
            "maximumBodyBytes": "\(server.maximumBodyBytes)", "maximumDecompressedBytes": "\(server.maximumDecompressedBytes)",
            "maximumCompressionRatio": "\(server.maximumCompressionRatio)",
            "maximumEventsPerRequest": "\(server.maximumEventsPerRequest)", "maximumLineBytes": "\(server.maximumLineBytes)",
            "latenessLimit": "\(TimeStep(seconds: server.latenessLimitMillis / 1000))",
            "requestsPerSecondPerKey": "\(server.requestsPerSecondPerKey)", "requestBurstPerKey": "\(server.requestBurstPerKey)",
            "idleTimeoutSeconds": "\(server.idleTimeoutSeconds)", "bodyTimeoutSeconds": "\(server.bodyTimeoutSeconds)",
        ])
        let app = buildApplication(configuration: server, store: store, databasePath: settings.db, logger: logger)
        try await app.runService()
        logger.info("purchase-sli serve stopped")
    }

    /// Settings from the defaults, the config file, the environment and the options, in that order.
    func resolve(environment: [String: String]) throws -> (server: ServerConfiguration, db: String) {
        var server = ServerConfiguration()
        if let path = config ?? environment["PURCHASE_SLI_CONFIG"] {
            try ServerConfigFile(path: path).apply(to: &server)
        }
        server.host = host ?? environment["PURCHASE_SLI_HOST"] ?? server.host
        if let text = port.map(String.init) ?? environment["PURCHASE_SLI_PORT"] {
            guard let value = Int(text), (0...65_535).contains(value) else {
                throw CommandFailure(message: "port: expected 0 to 65535, got \"\(text)\"")
            }
            server.port = value
        }
        if let path = ingestKeys ?? environment["PURCHASE_SLI_INGEST_KEYS"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure(message: "cannot read the ingest keys file \(path)")
            }
            server.ingestKeys = IngestKeys(fileContents: text)
            guard server.ingestKeys.isEnabled else { throw CommandFailure(message: "the ingest keys file \(path) holds no key") }
        }
        return (server, db ?? environment["PURCHASE_SLI_DB"] ?? "purchase-sli.sqlite")
    }

    private static func makeLogger(level: String?) -> Logger {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var logger = Logger(label: "purchase-sli")
        logger.logLevel = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }
}
