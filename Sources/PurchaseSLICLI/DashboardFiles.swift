import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIDashboards

/// Reading dashboard definitions from a directory and writing rendered pages to one.
enum DashboardFiles {
    /// Every `*.yaml` file of `directory` but `slos.yaml`, in file-name order (on-call first when
    /// present), as definitions.
    static func load(directory: String) throws -> [DashboardDefinition] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw CommandFailure(message: "cannot read the dashboards directory \(directory)")
        }
        let files = names.filter { $0.hasSuffix(".yaml") && $0 != "slos.yaml" }
            .sorted { ($0 == "oncall.yaml" ? "" : $0) < ($1 == "oncall.yaml" ? "" : $1) }
        guard !files.isEmpty else { throw CommandFailure(message: "\(directory) holds no dashboard definition (*.yaml)") }
        let definitions = try files.map { name in
            let path = directory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure(message: "cannot read \(path)")
            }
            do {
                return try DashboardDefinition(yaml: text)
            } catch let error as PolicyError {
                throw CommandFailure(message: "\(path): \(error)")
            }
        }
        if let clash = Dictionary(grouping: definitions, by: \.file).first(where: { $0.value.count > 1 }) {
            throw CommandFailure(message: "\(directory): more than one dashboard writes \(clash.key)")
        }
        return definitions
    }

    /// Writes each file into `directory` (created when missing); returns the paths written.
    static func write(_ files: [DashboardRenderer.File], to directory: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try files.map { file in
                let path = directory + "/" + file.name
                try Data(file.html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                return path
            }
        } catch {
            throw CommandFailure(message: "cannot write the pages into \(directory): \(error.localizedDescription)")
        }
    }
}
