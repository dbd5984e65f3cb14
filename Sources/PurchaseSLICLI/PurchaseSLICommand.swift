public import ArgumentParser

/// The `purchase-sli` root command.
public struct PurchaseSLICommand: AsyncParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "purchase-sli",
        abstract: "Purchase SLIs for apps that sell in-app purchases: ingest events, query success rates, alert.",
        discussion: """
            Events (one JSON object each, NDJSON or a JSON array, optionally gzip) are counted in time \
            buckets by event time, in a SQLite file (or a PostgreSQL database). See docs/event-format.md for \
            the event format.
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, IngestCommand.self, IngestStoreCommand.self, QueryCommand.self, ChargesCommand.self, GrantsCommand.self,
            ConsumptionCommand.self, MakeWholeCommand.self,
            AlertsCommand.self, MaintenanceCommand.self, SLOCommand.self,
            RolloutCommand.self, RenderCommand.self,
            ReportCommand.self, IncidentCommand.self, IncidentsCommand.self, SimulateCommand.self, ServeCommand.self, MigrateCommand.self,
        ]
    )

    /// Creates the command (argument parsing fills it in).
    public init() {}
}
