import Foundation
import XCTest

/// The house's rules, read from the sources themselves, so a wrong arrow fails even a plain
/// `swift build` user's `swift test` (tools/test.sh also builds with SwiftPM's import check).
final class HouseTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `name -> dependencies` of every target in Package.swift.
    static func declaredTargets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        var targets: [String: Set<String>] = [:]
        for m in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = String(manifest[Range(m.range(at: 1), in: manifest)!])
            let deps = Range(m.range(at: 2), in: manifest).map { manifest[$0] } ?? ""
            targets[name] = Set(deps.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }.filter { !$0.isEmpty })
        }
        return targets
    }

    /// Swift files of a target and the package modules each imports.
    static func sources(of target: String) throws -> [(file: String, text: String)] {
        let folder = target == "glimt-bench" ? root.appendingPathComponent("Benchmarks/glimt-bench")
            : target == "TestSupport" ? root.appendingPathComponent("Tests/TestSupport") : root.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { ($0.path, try String(contentsOf: $0, encoding: .utf8)) }
    }

    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count, words[..<i].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
            return String(words[i + 1])
        }
    }

    func testEveryImportIsADeclaredDependency() throws {
        let targets = try Self.declaredTargets()
        XCTAssertGreaterThanOrEqual(targets.count, 12, "Package.swift read: \(targets.keys.sorted())")
        for (target, deps) in targets {
            for (file, text) in try Self.sources(of: target) {
                for module in Self.imports(text) where targets[module] != nil {
                    XCTAssertTrue(deps.contains(module), "\(file): \(target) imports \(module), which it does not declare")
                }
            }
        }
    }

    func testTheArrowsPointDown() throws {
        let targets = try Self.declaredTargets()
        // Who may use FFmpeg, the models' engine, and the facade.
        XCTAssertEqual(targets.filter { $0.value.contains("CFFmpeg") }.keys.sorted(), ["MediaIO"])
        XCTAssertEqual(targets.filter { $0.value.contains("CSQLite") }.keys.sorted(), ["Library"], "only the store speaks SQL")
        XCTAssertEqual(targets.filter { $0.value.contains("TensorLite") }.keys.sorted(), ["Faces", "glimt-bench"])
        XCTAssertEqual(targets["glimt-pure"], ["GlimtPure"], "the CLI imports only the facade")
        XCTAssertEqual(targets["TensorLite"], ["CPrefetch"], "kernels know nothing of faces: only of the CPU's prefetch hint, which Swift cannot spell")
        XCTAssertEqual(targets["CPrefetch"], [])
        XCTAssertEqual(targets.filter { $0.value.contains("CPrefetch") }.keys.sorted(), ["TensorLite"])
        XCTAssertEqual(targets["Imaging"], [])
        XCTAssertEqual(targets["GlimtCore"], [])
        XCTAssertFalse(targets["Analysis"]!.contains("MediaIO") || targets["Analysis"]!.contains("Faces"), "analysis is logic over frames it is handed")
        XCTAssertFalse(targets["Film"]!.contains("Analysis"), "the film takes its own plan type")
        XCTAssertFalse(targets["Faces"]!.contains("MediaIO") || targets["Faces"]!.contains("Library"), "faces know nothing of video or the library")
        // The analysis engine sits between the media and the facade; the library only keeps what it observed.
        XCTAssertEqual(targets["AnalysisEngine"], ["GlimtCore", "Imaging", "MediaIO", "Faces", "Analysis"])
        XCTAssertEqual(targets["Library"], ["CSQLite", "GlimtCore", "Imaging", "Analysis"], "the library is persistence: no faces, no media, no engine")
        XCTAssertEqual(targets.filter { $0.value.contains("AnalysisEngine") }.keys.sorted(), ["GlimtPure", "glimt-bench"])
        XCTAssertFalse(targets["Film"]!.contains("AnalysisEngine") || targets["Film"]!.contains("Library"), "the film is cut from a plan, not from an analysis")
    }

    /// The facade keeps its use cases in folders by concern; only the module's own file sits at its top.
    func testTheFacadeIsFoldersByConcern() throws {
        let top = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/GlimtPure").path)
        XCTAssertEqual(top.filter { $0.hasSuffix(".swift") }, ["GlimtPure.swift"])
        XCTAssertTrue(Set(top).isSuperset(of: ["Library", "Film", "Sheets", "Photos"]), "\(top)")
        let media = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/MediaIO").path)
        XCTAssertEqual(media.filter { $0.hasSuffix(".swift") }, [], "MediaIO's files are in folders by concern")
    }

    /// The analysis engine's public face speaks its own terms: no MediaIO type leaks through it
    /// to the facade (which would then depend on the media layer's shapes).
    func testTheAnalysisEngineHidesTheMediaLayer() throws {
        var mediaTypes = Set<String>()
        let declaration = try NSRegularExpression(pattern: #"^public (?:final )?(?:struct|enum|class|protocol) (\w+)"#, options: .anchorsMatchLines)
        for (_, text) in try Self.sources(of: "MediaIO") {
            for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                mediaTypes.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        XCTAssertTrue(mediaTypes.isSuperset(of: ["VideoReader", "VideoDecodeOptions", "TimeBound", "VideoInfo"]), "MediaIO's types read: \(mediaTypes.sorted())")
        let names = try NSRegularExpression(pattern: "\\b(" + mediaTypes.sorted().joined(separator: "|") + ")\\b")
        for (file, text) in try Self.sources(of: "AnalysisEngine") {
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("public ") {
                let s = String(line)
                XCTAssertNil(names.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "\(file): public API shows a MediaIO type: \(s)")
            }
        }
    }

    /// Every default is stated once, in the options type it belongs to: the CLI writes no
    /// "(default N)" into a help text and passes no number of its own as a default (help shows
    /// each default from the type; `HelpTests` checks what it prints against the types).
    func testTheCommandLineStatesNoDefaultOfItsOwn() throws {
        let literalDefault = try NSRegularExpression(pattern: #"default:\s*-?[0-9]"#)
        // OptionSpec.swift is where the "(default ...)" of every option is made from its value.
        for (file, text) in try Self.sources(of: "glimt-pure") where !file.hasSuffix("/OptionSpec.swift") {
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let s = String(line)
                XCTAssertFalse(s.contains("(default "), "\(file): a default written into help text: \(s)")
                XCTAssertNil(literalDefault.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "\(file): a default written as a number: \(s)")
            }
        }
    }

    /// One word for one idea: the person looked for is the person, a face using another's
    /// embedding borrows it.
    func testOneWordForOneIdea() throws {
        let retired = try NSRegularExpression(pattern: #"containsChild|withoutChild|without-child|\becho(ed|es)?\b|\blend(er|s)?\b|\bloans?\b"#)
        for target in try Self.declaredTargets().keys {
            for (file, text) in try Self.sources(of: target) {
                for line in text.split(separator: "\n") {
                    let s = String(line)
                    XCTAssertNil(retired.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "\(file): a retired word: \(s)")
                }
            }
        }
    }

    /// No FFmpeg type leaves MediaIO, no engine type leaves Faces.
    func testPublicInterfacesHideWhatIsBehindThem() throws {
        let hidden: [(target: String, pattern: String)] = [
            ("MediaIO", #"\bAV[A-Z]\w*|\bSws\w*|\bSwr\w*|OpaquePointer|UnsafeMutablePointer<AV"#),
            ("Faces", #"\bTensor\b|\bLayerProfile\b|\bByteImage\b|\bTensorArena\b|\bWorkspacePool\b"#),
        ]
        for (target, pattern) in hidden {
            let re = try NSRegularExpression(pattern: pattern)
            for (file, text) in try Self.sources(of: target) {
                for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("public ") {
                    let s = String(line)
                    XCTAssertNil(re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "\(file): public API shows what \(target) hides: \(s)")
                }
            }
        }
    }

    /// Privacy is a promise: no module may even import networking.
    func testNoNetworkingAnywhere() throws {
        for target in try Self.declaredTargets().keys {
            for (file, text) in try Self.sources(of: target) {
                XCTAssertFalse(Self.imports(text).contains("FoundationNetworking"), "\(file) imports networking")
                XCTAssertFalse(text.contains("URLSession"), "\(file) uses URLSession")
            }
        }
    }
}
