import ArgumentParser
import PurchaseSLIApplication
import PurchaseSLIDashboards

/// Where dashboard definitions are read and rendered pages written, for `render` and `demo`.
struct PagesOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Directory of dashboard definitions (every *.yaml but slos.yaml).", valueName: "dir"))
    var dashboards = "dashboards"

    @Option(help: ArgumentHelp("Directory the pages are written to (created if missing).", valueName: "dir"))
    var out = "out"

    /// Renders every dashboard, the last week's review and the index for `context` into `out`, and the set
    /// of each app of `eachApp` into `out/apps/<dir>/`, their alert text linking as `links` says; returns the
    /// paths written.
    func render(context: DashboardContext, links: PageLinks, eachApp: [String] = [], generatedAtSeconds: Int64) async throws -> [String] {
        let renderer = DashboardRenderer(definitions: try DashboardFiles.load(directory: dashboards), context: context, links: links)
        return try DashboardFiles.write(try await renderer.render(eachApp: eachApp, generatedAtSeconds: generatedAtSeconds), to: out)
    }
}
