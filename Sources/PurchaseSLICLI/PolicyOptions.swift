import ArgumentParser
import PurchaseSLIAnalysis

/// The `--policy` option of the commands that apply the SLO policy.
struct PolicyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "SLO, alert and rollout policy (YAML; default: dashboards/slos.yaml when present, else built-in defaults).",
        valueName: "file"))
    var policy: String?

    /// The policy read from `--policy`, or from dashboards/slos.yaml when present, or the defaults.
    func load() throws -> SLOPolicy {
        try SLOPolicy.load(path: policy)
    }
}
