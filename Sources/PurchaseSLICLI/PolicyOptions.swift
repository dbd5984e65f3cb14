import ArgumentParser
import PurchaseSLIAnalysis

/// The `--policy` option of the commands that apply the SLO policy.
struct PolicyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "SLO, alert and rollout policy (YAML; default: dashboards/slos.yaml, or that of --dashboards, when present, else built-in defaults).",
            valueName: "file"))
    var policy: String?

    /// The policy read from `--policy`, or from `slos.yaml` of the dashboards `directory` when present,
    /// or the defaults.
    func load(directory: String = "dashboards") throws -> SLOPolicy {
        try SLOPolicy.load(path: policy, directory: directory)
    }
}
