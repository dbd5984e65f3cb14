import Foundation
import PurchaseSLIServer

/// The memory of a command that reads and evaluates (`alerts`, `render`, `report`, `query`, `rollout`).
enum ReadingMemory {
    /// Caps the malloc arenas at ``PurchaseSLIServer/ProcessMemory/arenas``, as `serve` does, unless the
    /// environment sets `MALLOC_ARENA_MAX`: the arrays of one large read, freed, otherwise stay in the
    /// arenas of the threads that made them while the next read takes more (the ten apps' `render` peaked
    /// at 340–356 MB with the C library's arenas and 282–292 MB with 2, at the same speed). Not `ingest`,
    /// whose two busy threads ran 15 % slower on 2.
    static func limitArenas() {
        ProcessMemory.limitArenas(environment: ProcessInfo.processInfo.environment)
    }
}
