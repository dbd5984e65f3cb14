import ArgumentParser

/// `purchase-sli simulate`: realistic NDJSON traffic with incidents.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate", abstract: "Print realistic NDJSON purchase events with an incident scenario.")

    func run() throws {}
}
