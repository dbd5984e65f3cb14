import ArgumentParser
import PurchaseSLIAnalysis
import PurchaseSLIApplication

/// How a command that judges health ends, for a script, a cron job or a monitoring plugin: 0 all clear,
/// 2 alerts firing, 3 unknown (no data, or data too old to judge); 1 stays an error and 64 a usage error,
/// as for every command.
enum HealthExitCode {
    /// The exit code of the alerts `firing` at a time whose data is `freshness`: 2 when any fires (a loss
    /// of signal included), else 3 when the newest event of every action is older than the loss-of-signal
    /// window (or there is none), else nil (0).
    static func of(firing: [AlertReport], freshness: DataFreshness) -> ExitCode? {
        if !firing.isEmpty { return ExitCode(2) }
        return freshness.isStale() ? ExitCode(3) : nil
    }

    /// The exit code of a review whose period holds no event: 3, nothing was judged.
    static let unknown = ExitCode(3)

    /// The `--help` paragraph that documents them.
    static let help = """
        Exit status: 0 nothing fires and the data is fresh; 2 an alert fires (a page or a ticket: the output \
        says which); 3 unknown: no event, or the newest is older than the loss-of-signal window, so nothing \
        could fire; 1 an error (a missing database, a bad policy, a notification not delivered); 64 a usage error.
        """
}
