import Foundation
import GlimtPure

/// Where the benchmark's files are: this checkout's folders and the built binaries beside it.
enum Paths {
    /// The repository's root (this file is Benchmarks/glimt-bench/ChildProcess.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func inRepository(_ path: String) -> String { repository.appendingPathComponent(path).standardized.path }
    /// The shared folder beside the repository (models, photos, videos).
    static func shared(_ path: String) -> String { inRepository("../shared/" + path) }
    /// A product built into the same folder as this glimt-bench.
    static func built(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }
}

/// A child process run to the end, with what wait4 says about it: wall time and its own peak
/// resident memory, which the parent's getrusage would mix with every other child.
struct ChildProcess {
    var status: Int32
    var seconds: Double
    /// User and system seconds of the child (wait4).
    var cpuSeconds: Double
    var peakMB: Double
    var output: Data
    var errors: String

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`; `environment`
    /// entries are added to this process's. Output goes through temporary files, not pipes, so
    /// a chatty child never blocks on a full pipe while we wait for it.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-\(getpid())-\(UUID().uuidString)").path
        // Only files made here are removed afterwards (never the discard device).
        let outPath = base + ".out", errPath = base + ".err"
        defer { try? FileManager.default.removeItem(atPath: outPath); try? FileManager.default.removeItem(atPath: errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let started = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw GlimtError("cannot start: \(String(cString: strerror(spawned)))", path: executable) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let output = FileManager.default.contents(atPath: outPath) ?? Data()
        let errors = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        // ru_maxrss is in kilobytes on Linux. A child killed by a signal gets 128 + its number.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return ChildProcess(status: code, seconds: seconds, cpuSeconds: cpu, peakMB: Double(usage.ru_maxrss) / 1024, output: output, errors: errors)
    }

    /// The last line the child wrote to stderr that is not a warning: why it failed, in one line.
    var lastError: String {
        errors.split(separator: "\n").last { !$0.contains("WARN") }.map(String.init) ?? "exit \(status)"
    }
}

/// The Python peers: a script in Benchmarks/ run with python3, printing one JSON object.
enum Python {
    struct Reply {
        var json: [String: Any]?
        /// Why there is no answer (python3 or a package missing, the script failed).
        var note: String?
        var run: ChildProcess?
    }

    static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) -> Reply {
        let path = Paths.inRepository("Benchmarks/" + script)
        let child: ChildProcess
        do { child = try ChildProcess.run("python3", [path] + arguments, environment: environment) } catch {
            return Reply(note: "python3 not available")
        }
        guard child.status == 0, let json = try? JSONSerialization.jsonObject(with: child.output) as? [String: Any] else {
            return Reply(note: "\(script) failed (\(child.lastError))", run: child)
        }
        if let e = json["error"] as? String { return Reply(note: "\(script): \(e)", run: child) }
        return Reply(json: json, run: child)
    }
}
