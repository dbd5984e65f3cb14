import Foundation
import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore
import PurchaseSLIRendering

/// Reading dashboard definitions from a directory and writing rendered pages to one.
public enum DashboardFiles {
    /// A directory or file that cannot be read or written, or a definition that is wrong, with the path.
    public struct Failure: UserFacingError, Sendable {
        /// What went wrong, naming the file.
        public let description: String
    }

    /// Every `*.yaml` file of `directory` but `slos.yaml`, in file-name order (on-call first when
    /// present), as definitions.
    public static func load(directory: String) throws -> [DashboardDefinition] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw Failure(description: "cannot read the dashboards directory \(directory)")
        }
        let files = names.filter { $0.hasSuffix(".yaml") && $0 != "slos.yaml" }
            .sorted { ($0 == "oncall.yaml" ? "" : $0) < ($1 == "oncall.yaml" ? "" : $1) }
        guard !files.isEmpty else { throw Failure(description: "\(directory) holds no dashboard definition (*.yaml)") }
        let definitions = try files.map { name in
            let path = directory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Failure(description: "cannot read \(path)")
            }
            do {
                return try DashboardDefinition(yaml: text)
            } catch let error as PolicyError {
                throw Failure(description: "\(path): \(error)")
            }
        }
        if let clash = Dictionary(grouping: definitions, by: \.file).first(where: { $0.value.count > 1 }) {
            throw Failure(description: "\(directory): more than one dashboard writes \(clash.key)")
        }
        return definitions
    }

    /// Writes each set into its directory below `directory` (``write(_:to:)``); returns the paths of the
    /// pages written.
    public static func write(_ sets: [DashboardRenderer.PageSet], to directory: String) throws -> [String] {
        try sets.flatMap { set in try write(set.files, to: set.directory.isEmpty ? directory : directory + "/" + set.directory) }
    }

    /// Writes each file into `directory` (created when missing), with the CSV of each of its tables
    /// (``TableCSV``); returns the paths of the pages written.
    public static func write(_ files: [DashboardRenderer.File], to directory: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try files.map { file in
                let path = directory + "/" + file.name
                // Each table's numbers (each chart's too) as a CSV file beside the page, linked after it.
                let (html, tables) = TableCSV.attach(to: file.html, pageName: file.name)
                // An earlier rendering's tables that this one has not (serve renders every minute): removed.
                let names = Set(tables.map(\.name))
                for stale in try FileManager.default.contentsOfDirectory(atPath: directory)
                where TableCSV.isFile(stale, of: file.name) && !names.contains(stale) {
                    try FileManager.default.removeItem(atPath: directory + "/" + stale)
                }
                for table in tables {
                    try Data(table.text.utf8).write(to: URL(fileURLWithPath: directory + "/" + table.name), options: .atomic)
                }
                try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                return path
            }
        } catch {
            throw Failure(description: "cannot write the pages into \(directory): \(error.localizedDescription)")
        }
    }
}
