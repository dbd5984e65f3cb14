/// A discrete distribution over indices `0..<count`, drawn by a linear scan (tables are small).
struct WeightedTable: Sendable {
    private let cumulative: [Double]

    /// Creates a table from non-negative weights (they need not sum to 1).
    init(_ weights: [Double]) {
        var total = 0.0
        var cumulative: [Double] = []
        for weight in weights {
            total += weight
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    /// Draws an index.
    func pick(_ random: inout SimulationRandom) -> Int {
        let u = random.unit()
        var index = 0
        while index < cumulative.count - 1, u >= cumulative[index] { index += 1 }
        return index
    }
}
