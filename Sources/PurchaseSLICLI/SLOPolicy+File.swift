import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore

extension SLOPolicy {
    /// The policy in the YAML file at `path`; without a path, `slos.yaml` of the dashboards `directory`
    /// when it exists, else the built-in defaults. A file that cannot be read or holds a wrong key is a
    /// ``CommandFailure``.
    static func load(path: String?, directory: String = "dashboards") throws -> SLOPolicy {
        guard let path = file(path: path, directory: directory) else { return .default }
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

    /// The file ``load(path:directory:)`` reads: `path`, else `slos.yaml` of `directory` when present, else
    /// none (the defaults).
    static func file(path: String?, directory: String = "dashboards") -> String? {
        let inDirectory = directory + "/slos.yaml"
        return path ?? (FileManager.default.fileExists(atPath: inDirectory) ? inDirectory : nil)
    }
}
