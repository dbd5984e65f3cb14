import Foundation

/// The process's own figures as Prometheus' process collector names them (`process_resident_memory_bytes`,
/// `process_open_fds`, …), read from `/proc/self` at each scrape, so that an operator's alert can watch
/// `serve`'s memory and files. Empty where `/proc` is not (not Linux).
enum ProcessStatistics {
    /// The exposition lines, with their `# HELP` and `# TYPE`; empty without `/proc/self`.
    static func exposition() -> String {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        else { return "" }
        let pageBytes = Double(sysconf(Int32(_SC_PAGESIZE)))
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        // Fields after the command's closing parenthesis (it may hold spaces): state is field 3, utime 14,
        // stime 15, starttime 22.
        let fields = stat[(stat.lastIndex(of: ")").map { stat.index(after: $0) } ?? stat.startIndex)...].split(separator: " ")
        let field = { (number: Int) in fields.indices.contains(number - 3) ? Double(fields[number - 3]) : nil }
        let pages = statm.split(separator: " ").compactMap { Double($0) }
        var lines: [(String, String, String, Double)] = []
        if pages.count >= 2 {
            lines.append(("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", pages[1] * pageBytes))
            lines.append(("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", pages[0] * pageBytes))
        }
        if let user = field(14), let system = field(15) {
            lines.append(("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", (user + system) / ticks))
        }
        if let start = field(22), let boot = bootSeconds() {
            lines.append(("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", boot + start / ticks))
        }
        if let open = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            lines.append(("process_open_fds", "gauge", "Number of open file descriptors.", Double(open.count)))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            lines.append(("process_max_fds", "gauge", "Maximum number of open file descriptors.", Double(limit.rlim_cur)))
        }
        return lines.map { name, type, help, value in
            "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))\n"
        }.joined()
    }

    /// When the machine booted (`btime` of `/proc/stat`), seconds since the epoch.
    private static func bootSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst(6)) }
    }
}
