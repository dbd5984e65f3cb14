import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore

extension SLOPolicy {
    /// The policy in the YAML file at `path`; without a path, `slos.yaml` of the dashboards `directory`
    /// when it exists, else the built-in defaults. A file that cannot be read or holds a wrong key is a
    /// ``CommandFailure``.
    static func load(path: String?, directory: String = "dashboards") throws -> SLOPolicy {
        let inDirectory = directory + "/slos.yaml"
        let path = path ?? (FileManager.default.fileExists(atPath: inDirectory) ? inDirectory : nil)
        guard let path else { return .default }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure(message: "cannot read the policy file \(path)")
        }
        do {
            let policy = try SLOPolicy(yaml: text)
            if let zone = policy.timeZone { _ = try TimeZoneOffsets.resolving(zone, source: "\(path): timeZone") }
            return policy
        } catch let error as PolicyError {
            throw CommandFailure(message: "\(path): \(error)")
        }
    }
}
