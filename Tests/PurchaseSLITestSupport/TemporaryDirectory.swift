import Foundation

/// A fresh directory under the system's temporary directory, removed when the test is done.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        path = NSTemporaryDirectory() + "purchase-sli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A directory that lives as long as the test process, removed when it exits: for files whose owner a test
    /// cannot hold to its end (a store returned alone, with no handle on its directory).
    public static let forTheProcess: TemporaryDirectory = {
        let directory = try! TemporaryDirectory()
        atexit { try? FileManager.default.removeItem(atPath: TemporaryDirectory.forTheProcess.path) }
        return directory
    }()

    /// A new subdirectory of ``forTheProcess``, named uniquely, and its path.
    public static func underTheProcess() throws -> String {
        let path = forTheProcess.file(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` as UTF-8 to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
