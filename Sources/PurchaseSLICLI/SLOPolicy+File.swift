import Foundation
import PurchaseSLIAnalysis

extension SLOPolicy {
    /// The policy in the YAML file at `path`; without a path, `dashboards/slos.yaml` when it exists, else
    /// the built-in defaults. A file that cannot be read or holds a wrong key is a ``CommandFailure``.
    static func load(path: String?) throws -> SLOPolicy {
        let path = path ?? (FileManager.default.fileExists(atPath: "dashboards/slos.yaml") ? "dashboards/slos.yaml" : nil)
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
