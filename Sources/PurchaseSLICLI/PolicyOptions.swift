import ArgumentParser
import Foundation
import PurchaseSLIAnalysis

/// The `--policy` option of the commands that apply the SLO policy.
struct PolicyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "SLO, alert and rollout policy (YAML; default: dashboards/slos.yaml when present, else built-in defaults).",
        valueName: "file"))
    var policy: String?

    /// The policy read from `--policy`, or from dashboards/slos.yaml when present, or the defaults.
    func load() throws -> SLOPolicy {
        let path = policy ?? (FileManager.default.fileExists(atPath: "dashboards/slos.yaml") ? "dashboards/slos.yaml" : nil)
        guard let path else { return .default }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure(message: "cannot read the policy file \(path)")
        }
        do {
            return try SLOPolicy(yaml: text)
        } catch let error as PolicyError {
            throw CommandFailure(message: "\(path): \(error)")
        }
    }
}
