import Foundation
import Hummingbird
import Logging
import NIOPosix
import _NIOFileSystem

/// The rendered pages of one directory, for Hummingbird's `FileMiddleware`: `/` is its `index.html`,
/// `/oncall.html` its file of that name. Only regular `.html` and `.csv` files (the pages' tables) directly in
/// the directory, or directly in one app's `apps/<dir>/` (`/apps/<dir>/` its index), are served (names of
/// lowercase letters, digits, `-`, `.` and the `W` of a weekly review), so a database, a keys file, another
/// subdirectory or a symbolic link kept beside them (`passwd.html` → `/etc/passwd`, `apps` → `/`) is never
/// handed out. Files are opened without following a link and streamed in chunks on NIO's thread pool, off the
/// cooperative threads.
struct PageFiles: FileProvider {
    /// What the middleware needs to know of the directory or a page.
    struct FileAttributes: FileMiddlewareFileAttributes {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    private let directory: String
    private let fileSystem = FileSystem(threadPool: .singleton)

    /// Serves the pages of `directory` (logged once to `logger`).
    init(directory: String, logger: Logger) {
        self.directory = directory.hasSuffix("/") ? directory : directory + "/"
        logger.info("Serving pages from \(self.directory)")
    }

    /// The middleware that answers the requests no route matches with a page, when there is one.
    func middleware<Context: RequestContext>(context: Context.Type = Context.self) -> WholePages<Context> {
        WholePages(
            files: FileMiddleware(fileProvider: self, cacheControl: .init([(.textHtml, [.noCache])]), searchForIndexHtml: true)
                .withAdditionalMediaType(MediaType(type: .text, subType: "html", parameter: ("charset", "utf-8")), mappedToFileExtension: "html")
                .withAdditionalMediaType(MediaType(type: .text, subType: "csv", parameter: ("charset", "utf-8")), mappedToFileExtension: "csv"))
    }

    /// Pages whole, never a byte range: a page is a few hundred kilobytes, and `FileMiddleware` answers a
    /// range past the end with 206 and a negative length, then cuts the connection. RFC 9110 lets a
    /// server ignore `Range`; `Accept-Ranges: none` says it does.
    struct WholePages<Context: RequestContext>: RouterMiddleware {
        let files: FileMiddleware<Context, PageFiles>

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var head = request.head
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
            var response = try await files.handle(Request(head: head, body: request.body), context: context, next: next)
            if response.headers[.acceptRanges] != nil { response.headers[.acceptRanges] = "none" }
            return response
        }
    }

    /// The directory itself for `/`, an app's directory for `/apps/<dir>/` (the middleware then looks for
    /// its `index.html`, and redirects `/apps/<dir>` there), a page's file for a page's path, nil for
    /// anything else.
    func getFileIdentifier(_ path: String) -> String? {
        if path == "/" { return directory }
        if let app = Self.appDirectory(path) { return directory + app }
        return Self.pageName(path).map { directory + $0 }
    }

    /// The directory, an app's directory (their ids end with `/`) or a regular file; nil for a link, a
    /// device, a missing file, or anything else (the middleware answers 404). Below the directory, every
    /// directory on the way (`apps`, the app's) must be one itself, never a link.
    func getAttributes(id: String) async throws -> FileAttributes? {
        let isFolder = id.hasSuffix("/")
        let below = id.dropFirst(directory.count).split(separator: "/")
        let parents = isFolder ? below[...] : below.dropLast()
        for depth in parents.indices {
            let parent = directory + parents[...depth].joined(separator: "/")
            guard let info = try? await fileSystem.info(forFileAt: FilePath(parent), infoAboutSymbolicLink: true), info.type == .directory
            else { return nil }
        }
        guard let info = try? await fileSystem.info(forFileAt: FilePath(id), infoAboutSymbolicLink: !isFolder),
            info.type == (isFolder ? .directory : .regular)
        else { return nil }
        return FileAttributes(
            isFolder: isFolder, size: Int(info.size),
            modificationDate: Date(timeIntervalSince1970: Double(info.lastDataModificationTime.seconds)))
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard let attributes = try await getAttributes(id: id), !attributes.isFolder else { throw HTTPError(.notFound) }
        return stream(id, range: 0...max(0, attributes.size - 1), size: attributes.size)
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let attributes = try await getAttributes(id: id), !attributes.isFolder else { throw HTTPError(.notFound) }
        return stream(id, range: range.clamped(to: 0...max(0, attributes.size - 1)), size: attributes.size)
    }

    /// The bytes of `range` of the file, read in 128 kB chunks from a descriptor opened without
    /// following a link (a file swapped for one after the check fails to open, ending the response).
    private func stream(_ path: String, range: ClosedRange<Int>, size: Int) -> ResponseBody {
        guard size > 0 else { return ResponseBody() }
        return ResponseBody(contentLength: range.count) { writer in
            try await fileSystem.withFileHandle(
                forReadingAt: FilePath(path), options: OpenOptions.Read(followSymbolicLinks: false, closeOnExec: true)
            ) { handle in
                for try await chunk in handle.readChunks(in: Int64(range.lowerBound)...Int64(range.upperBound), chunkLength: .kibibytes(128)) {
                    try await writer.write(chunk)
                }
            }
            try await writer.finish(nil)
        }
    }

    /// The file a path asks for, or nil when it is not a page (or a page's CSV) of the directory, or of
    /// one app's pages (`apps/<dir>/<page>`, `<dir>` as ``PurchaseSLIApplication/AppSlug`` writes the app).
    static func pageName(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 1 || (parts.count == 3 && parts[0] == "apps" && isName(parts[1])), let name = parts.last, isName(name),
            name.hasSuffix(".html") || name.hasSuffix(".csv")
        else { return nil }
        return parts.joined(separator: "/")
    }

    /// `apps/<dir>/` for `/apps/<dir>/` or `/apps/<dir>` (an app's directory), else nil.
    static func appDirectory(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 4 && parts[3].isEmpty), parts[0].isEmpty, parts[1] == "apps", isName(String(parts[2]))
        else { return nil }
        return "apps/\(parts[2])/"
    }

    /// Whether `name` may name a page, a page's CSV or an app's directory: lowercase letters, digits, `-`,
    /// `.` and the `W` of an ISO week, not starting with `.` nor holding `..`.
    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128 && !name.hasPrefix(".") && !name.contains("..")
            && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." || $0 == "W") }
    }
}
