import Foundation
import XCTest

/// The house's rules, read from the sources themselves, so a wrong arrow fails even a plain
/// `swift build` user's `swift test` (tools/test.sh also builds with SwiftPM's import check).
final class HouseTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `name -> dependencies` of every target in Package.swift, test targets included.
    static func declaredTargets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        var targets: [String: Set<String>] = [:]
        for m in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = String(manifest[Range(m.range(at: 1), in: manifest)!])
            let deps = Range(m.range(at: 2), in: manifest).map { manifest[$0] } ?? ""
            targets[name] = Set(
                deps.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }.filter { !$0.isEmpty })
        }
        return targets
    }

    /// The product's targets: what ships, not what tests it.
    static func productTargets() throws -> [String: Set<String>] {
        try declaredTargets().filter { !isTest($0.key) }
    }

    static func isTest(_ target: String) -> Bool { target.hasSuffix("Tests") || target == "TestSupport" }

    /// Swift files of a target and the package modules each imports.
    static func sources(of target: String) throws -> [(file: String, text: String)] {
        let folder =
            target == "glimt-bench"
            ? root.appendingPathComponent("Benchmarks/glimt-bench")
            : isTest(target) ? root.appendingPathComponent("Tests/\(target)") : root.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map {
            ($0.path, try String(contentsOf: $0, encoding: .utf8))
        }
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
        let targets = try Self.productTargets()
        // Who may use FFmpeg, the models' engine, and the facade.
        XCTAssertEqual(targets.filter { $0.value.contains("CFFmpeg") }.keys.sorted(), ["MediaIO"])
        XCTAssertEqual(targets.filter { $0.value.contains("CSQLite") }.keys.sorted(), ["Library"], "only the store speaks SQL")
        XCTAssertEqual(
            targets.filter { $0.value.contains("TensorLite") }.keys.sorted(), ["AnalysisEngine", "Faces", "glimt-bench"],
            "the models run on the kernels, and the engine says which kernels run")
        XCTAssertEqual(targets["glimt-pure"], ["GlimtPure"], "the CLI imports only the facade")
        XCTAssertEqual(
            targets["TensorLite"], ["CPrefetch"], "kernels know nothing of faces: only of the CPU's prefetch hint, which Swift cannot spell")
        XCTAssertEqual(targets["CPrefetch"], [])
        XCTAssertEqual(targets.filter { $0.value.contains("CPrefetch") }.keys.sorted(), ["TensorLite"])
        XCTAssertEqual(targets["Imaging"], [])
        XCTAssertEqual(targets["GlimtCore"], [])
        XCTAssertFalse(
            targets["Analysis"]!.contains("MediaIO") || targets["Analysis"]!.contains("Faces"), "analysis is logic over frames it is handed")
        XCTAssertFalse(targets["Film"]!.contains("Analysis"), "the film takes its own plan type")
        XCTAssertFalse(targets["Faces"]!.contains("MediaIO") || targets["Faces"]!.contains("Library"), "faces know nothing of video or the library")
        // The analysis engine sits between the media and the facade; the library only keeps what it observed.
        XCTAssertEqual(targets["AnalysisEngine"], ["GlimtCore", "Imaging", "MediaIO", "Faces", "TensorLite", "Analysis"])
        XCTAssertEqual(
            targets["Library"], ["CSQLite", "GlimtCore", "Imaging", "Analysis"], "the library is persistence: no faces, no media, no engine")
        XCTAssertEqual(targets.filter { $0.value.contains("AnalysisEngine") }.keys.sorted(), ["GlimtPure", "glimt-bench"])
        XCTAssertFalse(
            targets["Film"]!.contains("AnalysisEngine") || targets["Film"]!.contains("Library"), "the film is cut from a plan, not from an analysis")
        // The facade goes through three doors (the library, the engine, the film) and uses the
        // plain modules under them: never the media layer, the face models or the kernels.
        XCTAssertEqual(targets["GlimtPure"], ["Library", "AnalysisEngine", "Film", "Analysis", "Imaging", "GlimtCore"])
    }

    /// One test target per module, its folder named for it, depending only on that module,
    /// TestSupport and what the module itself may import: the import check then holds the tests
    /// to the same arrows as the product. Tests of the built binary are CLITests; the house's
    /// own rules are HouseTests.
    func testEachModuleHasATestTargetThatKeepsToItsArrows() throws {
        let targets = try Self.declaredTargets()
        let modules = targets.filter {
            !Self.isTest($0.key) && !$0.key.hasPrefix("C") && !["glimt-pure", "glimt-bench", "SFaceWeights", "BuildCommit"].contains($0.key)
        }
        for (module, deps) in modules {
            let tests = module + "Tests"
            guard let testDeps = targets[tests] else { XCTFail("\(module) has no test target \(tests)"); continue }
            XCTAssertTrue(testDeps.contains(module), "\(tests) tests \(module)")
            let allowed = deps.union([module, "TestSupport"])
            XCTAssertTrue(
                testDeps.isSubset(of: allowed), "\(tests) depends on \(testDeps.subtracting(allowed).sorted()), which \(module) may not import")
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path).filter {
            !$0.hasPrefix(".")
        }
        let testTargets = Set(targets.keys.filter(Self.isTest))
        XCTAssertEqual(Set(folders).subtracting(["Fixtures"]), testTargets, "every folder of Tests/ is a target, and every test target a folder")
        XCTAssertEqual(targets["HouseTests"], [], "the house is read from the sources, not from the modules")
    }

    /// The facade keeps its use cases in folders by concern; only the module's own file sits at its top.
    func testTheFacadeIsFoldersByConcern() throws {
        let top = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/GlimtPure").path)
        XCTAssertEqual(top.filter { $0.hasSuffix(".swift") }, ["GlimtPure.swift"])
        XCTAssertTrue(Set(top).isSuperset(of: ["Library", "Film", "Sheets", "Photos"]), "\(top)")
        let media = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/MediaIO").path)
        XCTAssertEqual(media.filter { $0.hasSuffix(".swift") }, [], "MediaIO's files are in folders by concern")
    }

    /// TensorLite keeps a kernel's register tiles one file per tile and instruction set, in a folder
    /// beside its entry point and scalar reference (docs/architecture.md): a file named for an
    /// instruction set is that set's code under one `#if`, and no file at the module's top picks
    /// code by instruction set but the ones that say what the build is and how it multiplies-adds.
    func testKernelsKeepOneFilePerInstructionSet() throws {
        // The int8 pointwise layer's AVX2 tile needs AVX2's integer instructions, which the
        // portable build (sharing the float AVX2 tiles) does not have, and gives way to AVX-VNNI's.
        let conditions = [
            "-avx512.swift": "#if GLIMT_AVX512", "-avx512vnni.swift": "#if GLIMT_AVX512", "-avx2.swift": "#if !GLIMT_AVX512",
            "-avxvnni.swift": "#if GLIMT_AVXVNNI", "QuantizedPointwiseConv-6x16-avx2.swift": "#if GLIMT_AVX2 && !GLIMT_AVXVNNI",
        ]
        let module = Self.root.appendingPathComponent("Sources/TensorLite").path
        var folders: [String: [String]] = [:], isaFiles = 0
        for (path, text) in try Self.sources(of: "TensorLite") {
            let url = URL(fileURLWithPath: path), file = url.lastPathComponent, folder = url.deletingLastPathComponent().path
            let directives = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("#if") || $0.hasPrefix("#else") || $0.hasPrefix("#endif") }
            if folder == module {
                if !["KernelVariant.swift", "MultiplyAdd.swift"].contains(file) {
                    XCTAssertEqual(
                        directives.filter { $0.contains("GLIMT_") }, [],
                        "\(file): a kernel with code per instruction set is a folder of files")
                }
                continue
            }
            folders[url.deletingLastPathComponent().lastPathComponent, default: []].append(file)
            guard let condition = conditions.filter({ file.hasSuffix($0.key) }).max(by: { $0.key.count < $1.key.count })?.value else { continue }
            isaFiles += 1
            XCTAssertTrue(text.hasPrefix(condition + "\n"), "\(file): starts with `\(condition)`")
            XCTAssertEqual(directives, [condition, "#endif"], "\(file): one `#if` around the whole file, no other")
        }
        XCTAssertEqual(folders.keys.sorted(), ["Conv3x3", "DepthwiseConv", "PointwiseConv", "QuantizedFullyConnected", "QuantizedPointwiseConv"])
        for (kernel, files) in folders {
            XCTAssertTrue(
                Set(files).isSuperset(of: ["\(kernel).swift", "\(kernel)-reference.swift"]),
                "\(kernel): entry point and reference, in \(files)")
        }
        XCTAssertEqual(isaFiles, 11, "every kernel's AVX-512 and AVX2 tiles, and the int8 pointwise layer's AVX-VNNI one")
    }

    /// Public declarations of a module's sources, each whole: from `public` to its body's `{` (or
    /// its end), however many lines its signature is wrapped over.
    static func publicDeclarations(_ text: String) -> [String] {
        var found: [String] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            // A declaration starts a line (after indentation) with `public `.
            let lineStart = i == 0 || chars[i - 1] == "\n"
            if lineStart {
                var j = i
                while j < chars.count, chars[j] == " " { j += 1 }
                if j + 7 <= chars.count, String(chars[j..<(j + 7)]) == "public " {
                    var depth = 0, k = j
                    while k < chars.count {
                        let c = chars[k]
                        if c == "(" || c == "[" { depth += 1 }
                        if c == ")" || c == "]" { depth = max(0, depth - 1) }
                        if depth == 0 && (c == "{" || c == "\n") {
                            // A line that ends open (`->`, `,`, `(`) goes on to the next.
                            let soFar = String(chars[j..<k]).trimmingCharacters(in: .whitespaces)
                            if c == "\n" && (soFar.hasSuffix("->") || soFar.hasSuffix(",") || soFar.hasSuffix(":")) { k += 1; continue }
                            break
                        }
                        k += 1
                    }
                    // A stored property's initial value is not its interface (its type is).
                    var declared = String(chars[j..<min(k, chars.count)])
                    if let eq = declared.range(of: " = "), !declared.contains("func "), !declared.contains("init(") {
                        declared = String(declared[..<eq.lowerBound])
                    }
                    found.append(declared)
                    i = k
                    continue
                }
            }
            i += 1
        }
        return found
    }

    /// The public types a module declares.
    static func publicTypes(of target: String) throws -> Set<String> {
        var types = Set<String>()
        let declaration = try NSRegularExpression(
            pattern: #"^\s*public (?:final )?(?:struct|enum|class|protocol|typealias) (\w+)"#, options: .anchorsMatchLines)
        for (_, text) in try sources(of: target) {
            for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                types.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        return types
    }

    /// The analysis engine's public face speaks its own terms: no type of the media layer, the
    /// face models or the kernels leaks through it to the facade (which would then depend on
    /// their shapes), in any part of a declaration, however it is wrapped.
    func testTheAnalysisEngineHidesTheMediaLayerTheModelsAndTheKernels() throws {
        let media = try Self.publicTypes(of: "MediaIO"), faces = try Self.publicTypes(of: "Faces"), kernels = try Self.publicTypes(of: "TensorLite")
        XCTAssertTrue(
            media.isSuperset(of: ["VideoReader", "VideoDecodeOptions", "TimeBound", "VideoInfo", "ImageDecoder"]),
            "MediaIO's types read: \(media.sorted())")
        XCTAssertTrue(faces.isSuperset(of: ["FacePipeline", "FaceDetector", "SFace", "YuNet"]), "Faces' types read: \(faces.sorted())")
        XCTAssertTrue(kernels.isSuperset(of: ["KernelVariant", "CPUFlags", "Tensor"]), "TensorLite's types read: \(kernels.sorted())")
        let hidden = try NSRegularExpression(pattern: "\\b(" + media.union(faces).union(kernels).sorted().joined(separator: "|") + ")\\b")
        var declarations = 0
        for (file, text) in try Self.sources(of: "AnalysisEngine") {
            for d in Self.publicDeclarations(text) {
                declarations += 1
                XCTAssertNil(hidden.firstMatch(in: d, range: NSRange(d.startIndex..., in: d)), "\(file): public API shows a type it hides: \(d)")
            }
        }
        XCTAssertGreaterThan(declarations, 50, "the engine's declarations read")
    }

    /// The whole-declaration reader sees a wrapped signature's later lines.
    func testAWrappedSignatureIsReadWhole() {
        let text = """
            public struct A {
                public func run(path: String,
                                reader: VideoReader) -> Int { 1 }
                public init(options: AnalysisOptions,
                            pipeline: FacePipeline)
                package func hidden(_ x: VideoReader) {}
            }
            """
        let d = Self.publicDeclarations(text)
        XCTAssertEqual(d.count, 3, "\(d)")
        XCTAssertTrue(d[1].contains("VideoReader"), d[1])
        XCTAssertTrue(d[2].contains("FacePipeline"), d[2])
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
        for target in try Self.declaredTargets().keys where !target.hasSuffix("Tests") {
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

    /// The Debian package's binary holds the face models once per kernel variant and runs the one
    /// chosen at start (AnalysisEngine's `Kernels`): the engine loads them only through it, never
    /// Faces' own (its portable variant there), and each variant is the shared sources, linked in
    /// Sources/Variants, on its own TensorLite.
    func testTheEngineRunsTheFaceModelsOfTheKernelsChosen() throws {
        let loads = try NSRegularExpression(
            pattern: #"\b(FacePipeline|FaceDetector|EyeReader|SFace|YuNet|IrisLandmark)\s*(\.shared\(|\.baked\(|\()|\bBakedModelCache\b"#)
        var files = 0
        for (file, text) in try Self.sources(of: "AnalysisEngine") {
            files += 1
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let s = String(line)
                XCTAssertNil(
                    loads.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "\(file): loads Faces' own models, not the chosen build's: \(s)")
            }
        }
        XCTAssertGreaterThan(files, 15, "the engine's sources read")
        let kernels = try String(contentsOf: Self.root.appendingPathComponent("Sources/AnalysisEngine/Models/Kernels.swift"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let package = try String(contentsOf: Self.root.appendingPathComponent("tools/package/package.sh"), encoding: .utf8)
        let variants = try XCTUnwrap(package.split(separator: "\n").first { $0.hasPrefix("variants=\"") })
            .dropFirst("variants=\"".count).dropLast().split(separator: " ").map { String($0.split(separator: "=")[0]) }
        XCTAssertEqual(variants, ["avx512", "avx2vnni", "avx2"], "package.sh's variants")
        for v in variants {
            for module in ["TensorLite", "Faces"] {
                let link = Self.root.appendingPathComponent("Sources/Variants/\(v)/\(module)").path
                XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "../../\(module)", link)
            }
            XCTAssertTrue(kernels.contains("#if canImport(Faces_\(v))\nimport Faces_\(v)\n#endif"), "Kernels imports Faces_\(v) when linked in")
            XCTAssertTrue(kernels.contains("builds.append(Faces_\(v).FacesBuild.self)"), "Kernels lists Faces_\(v)")
        }
        XCTAssertTrue(manifest.contains(#"["-module-alias", "TensorLite=" + tensorLite]"#), "each Faces variant on its own TensorLite")
    }

    /// Privacy is a promise: no module may even import networking.
    func testNoNetworkingAnywhere() throws {
        for target in try Self.declaredTargets().keys {
            for (file, text) in try Self.sources(of: target) where !file.hasSuffix("/HouseTests.swift") {
                XCTAssertFalse(Self.imports(text).contains("FoundationNetworking"), "\(file) imports networking")
                XCTAssertFalse(text.contains("URLSession"), "\(file) uses URLSession")
            }
        }
    }
}
