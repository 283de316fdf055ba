import Foundation
import XCTest

@testable import glimt_pure

/// Each command's options are the stored properties of its `Options`, read by key path: a
/// misspelt option does not compile, and the parser, help and `run` share one declaration.
/// What the compiler cannot see is checked here, for every command.
final class CommandOptionsTests: XCTestCase {
    /// A property of `Options` that is no option would be readable by key path and yet unknown
    /// to the parser (its help, its completions): every one is an option or a group of them.
    func testEveryCommandDeclaresOptionsOnly() {
        for command in commands {
            XCTAssertEqual(notOptions(command), [], "\(command.name)")
        }
    }

    private func notOptions<C: Command>(_: C.Type) -> [String] { notOptions(in: C.Options(), path: "\(C.self).Options") }

    private func notOptions(in value: Any, path: String) -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            let here = path + "." + (child.label ?? "?")
            if child.value is OptionGroup { return notOptions(in: child.value, path: here) }
            return child.value is DeclaredOption ? [] : [here]
        }
    }

    /// Two options of one command under one name (a group and the command both declaring
    /// --library, say) would leave the parser one of them: each name and short name once.
    func testNoCommandDeclaresANameTwice() {
        for command in commands {
            let names = command.allOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
            XCTAssertEqual(Set(names).count, names.count, "\(command.name): \(names.sorted())")
        }
    }

    /// A command reads its options by their declarations: a value, a number in its range, a
    /// group's one value; an option not given reads as not given.
    func testACommandReadsWhatItDeclares() throws {
        let line = try ParsedCommandLine(
            ["--from", "2024-05-01", "--all", "--seconds", "2", "--ref", "a.jpg", "--ref", "b.jpg"], command: "days",
            options: DaysCommand.allOptions, elsewhere: { _ in [] })
        let args = Arguments(line, options: DaysCommand.Options())
        XCTAssertTrue(args.flag(\.all))
        XCTAssertFalse(args.flag(\.json))
        XCTAssertEqual(try args.value(\.days).from, "2024-05-01")
        XCTAssertNil(try args.value(\.days).to)
        XCTAssertEqual(try args.value(\.judging.seconds), 2)
        XCTAssertEqual(args.all(\.judging.references.ref), ["a.jpg", "b.jpg"])
        XCTAssertTrue(args.has(\.judging.references))
        XCTAssertFalse(args.has(\.judging.identity))
        XCTAssertEqual(try args.value(\.judging.identity.match), DaysCommand.Options().judging.identity.match.defaultValue)
    }
}
