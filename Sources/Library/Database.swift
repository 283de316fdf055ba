import CSQLite
import Foundation
import GlimtCore

/// A small, safe face on SQLite: one connection, prepared statements with bound values (never
/// text pasted into SQL), transactions, and every failure as a `GlimtError` naming the file.
/// Not for sharing between threads: the store serialises access to it.
final class Database {
    let path: String
    private var handle: OpaquePointer?
    /// Whether this connection may write (and so checkpoint on closing).
    private var writes = false

    /// Opens (creating) the database. WAL lets readers go on while one process writes; the busy
    /// timeout makes a second writer wait instead of failing; foreign keys keep frames and faces
    /// tied to their video; FULL sync makes a committed video survive a power cut.
    init(path: String, busyTimeoutMilliseconds: Int32 = 30_000) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, handle != nil else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw GlimtError("cannot open the library database (\(reason))", path: path)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
        writes = true
    }

    /// Opens a database to read only, its WAL included (what a scan running on it has committed):
    /// for another library merged into this one, which the merge must not change.
    init(readingOnly path: String) throws {
        self.path = path
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, handle != nil else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw GlimtError("cannot read the library database (\(reason))", path: path)
        }
        sqlite3_busy_timeout(handle, 30_000)
    }

    /// Opens the file only to look at it, as it lies on disk: read-only and immutable, so SQLite
    /// writes nothing, and neither replays nor makes a journal or WAL beside it. A file that is
    /// not glimt's store is judged through this and left exactly as it was.
    init(inspecting path: String) throws {
        self.path = path
        let uri = "file:" + FileName.bytes(path).map(Self.uriByte).joined() + "?immutable=1"
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, handle != nil else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw GlimtError("cannot read the library database (\(reason))", path: path)
        }
    }

    /// A byte of a path in a `file:` URI: the unreserved as they are, every other percent-encoded
    /// (a `?` or `#` in a folder's name must not end the path).
    private static func uriByte(_ b: UInt8) -> String {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return String(UnicodeScalar(b))
        default:
            return String(format: "%%%02X", b)
        }
    }

    /// A writer copies what it committed into the database file before it closes, without waiting
    /// for anyone: SQLite does so only when the closing connection is the last one, and a reader
    /// open meanwhile (a review page, a `status`) would leave it all in the WAL, so that a copy of
    /// library.sqlite alone, a backup, lacked it.
    deinit {
        if writes { _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else { throw failure(status, message.map { String(cString: $0) }) }
    }

    /// Runs `body` in one transaction: all of it is stored, or none of it. BEGIN IMMEDIATE takes
    /// the write lock up front, so two writers queue instead of deadlocking. Inside another
    /// transaction it is a savepoint of it: several changes (a choices file's, a merge and its
    /// record) are then all stored or none, and each still undoes itself when it fails.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if sqlite3_get_autocommit(handle) == 0 {
            savepoints += 1
            let name = "step\(savepoints)"
            defer { savepoints -= 1 }
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a transaction is open on this connection (its changes, until committed, are seen
    /// only through it).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How deep the savepoints of nested transactions go.
    private var savepoints = 0

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, nil) }
        return Statement(statement, database: self)
    }

    /// Runs one statement with `values` bound in order.
    func run(_ sql: String, _ values: [Value] = []) throws {
        let s = try prepare(sql)
        try s.bind(values)
        while try s.step() {}
    }

    /// Every row of a query, each read by `row`. The query's statement is kept for its next run
    /// (judging a library reads each day's videos, frames and faces by the same three queries,
    /// and preparing them again each time was a tenth of the reading); taken out of the keeping
    /// while it runs, so that the same query inside `row` gets a statement of its own.
    func rows<T>(_ sql: String, _ values: [Value] = [], _ row: (Statement) throws -> T) throws -> [T] {
        let s = try queries.removeValue(forKey: sql) ?? prepare(sql)
        // Reset when done, so that a kept statement holds no read of the database open.
        defer {
            s.reset()
            queries[sql] = s
        }
        try s.bind(values)
        var out: [T] = []
        while try s.step() { out.append(try row(s)) }
        return out
    }

    /// Statements of `rows`, by their SQL.
    private var queries: [String: Statement] = [:]

    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    func failure(_ status: Int32, _ message: String?) -> GlimtError {
        let text = message ?? String(cString: sqlite3_errmsg(handle))
        switch status & 0xff {
        case SQLITE_FULL: return GlimtError("the disk is full; the library is unchanged since its last complete step", path: path)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return GlimtError("the library database is damaged or not a database (\(text)); move it away to start afresh", path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return GlimtError("the library is busy with another glimt-pure for too long (\(text))", path: path)
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN: return GlimtError("cannot write the library database (\(text))", path: path)
        default: return GlimtError("library database error: \(text)", path: path)
        }
    }

    /// A value to bind or read.
    enum Value {
        case int(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
        case null

        static func of(_ v: Int) -> Value { .int(Int64(v)) }
        static func of(_ v: Double) -> Value { .real(v) }
        static func of(_ v: Float) -> Value { .real(Double(v)) }
        static func of(_ v: String) -> Value { .text(v) }
        static func of(_ v: String?) -> Value { v.map(Value.text) ?? .null }
        static func of(_ v: Double?) -> Value { v.map(Value.real) ?? .null }
        static func of(_ v: Float?) -> Value { v.map { .real(Double($0)) } ?? .null }
        static func of(_ v: Int?) -> Value { v.map { .int(Int64($0)) } ?? .null }
        static func of(_ v: Bool) -> Value { .int(v ? 1 : 0) }
    }

    final class Statement {
        private let statement: OpaquePointer
        private unowned let database: Database

        init(_ statement: OpaquePointer, database: Database) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func bind(_ values: [Value]) throws {
            reset()
            for (i, value) in values.enumerated() {
                let n = Int32(i + 1)
                let status: Int32
                switch value {
                case .int(let v): status = sqlite3_bind_int64(statement, n, v)
                case .real(let v): status = sqlite3_bind_double(statement, n, v)
                case .text(let v): status = sqlite3_bind_text(statement, n, v, -1, glimt_sqlite_transient())
                case .blob(let v):
                    status = v.withUnsafeBytes { sqlite3_bind_blob(statement, n, $0.baseAddress, Int32($0.count), glimt_sqlite_transient()) }
                case .null: status = sqlite3_bind_null(statement, n)
                }
                guard status == SQLITE_OK else { throw database.failure(status, nil) }
            }
        }

        /// True while there is a row to read.
        func step() throws -> Bool {
            let status = sqlite3_step(statement)
            switch status {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.failure(status, nil)
            }
        }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func float(_ column: Int32) -> Float { Float(sqlite3_column_double(statement, column)) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
        func optionalFloat(_ column: Int32) -> Float? { isNull(column) ? nil : float(column) }
        func text(_ column: Int32) -> String {
            guard let p = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: p)
        }
        func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
        /// The column as it is stored, whatever its type: for copying rows between stores.
        func value(_ column: Int32) -> Value {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT: return .real(double(column))
            case SQLITE_TEXT: return .text(text(column))
            case SQLITE_BLOB: return .blob(blob(column))
            default: return .null
            }
        }
        /// The column of the result called `name`.
        func column(named name: String) throws -> Int32 {
            for i in 0..<sqlite3_column_count(statement) where String(cString: sqlite3_column_name(statement, i)) == name { return i }
            throw GlimtError("library database error: no column \(name)", path: database.path)
        }
        /// Every column of the row, its type and its bytes, into `hash`.
        func hashRow(into hash: inout StableHash) {
            for i in 0..<sqlite3_column_count(statement) {
                let type = sqlite3_column_type(statement, i)
                hash.add(UInt64(type))
                switch type {
                case SQLITE_NULL: break
                case SQLITE_INTEGER: hash.add(UInt64(bitPattern: sqlite3_column_int64(statement, i)))
                case SQLITE_FLOAT: hash.add(sqlite3_column_double(statement, i).bitPattern)
                default:
                    let count = Int(sqlite3_column_bytes(statement, i))
                    if count > 0, let p = sqlite3_column_blob(statement, i) { hash.add(UnsafeRawBufferPointer(start: p, count: count)) }
                    hash.add(UInt64(count))
                }
            }
        }
        func blob(_ column: Int32) -> [UInt8] {
            withBlob(column) { [UInt8]($0) }
        }
        /// The column's bytes where SQLite holds them, valid only inside `body`.
        func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let p = sqlite3_column_blob(statement, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return try body(UnsafeRawBufferPointer(start: p, count: count))
        }
    }
}
