import Foundation
import GlimtPure

/// `--library DIR`: the library folder, the standard one when it is not given.
struct LibraryOption: ParsedOption {
    let spec = OptionSpec(name: "--library", value: "DIR", completion: .folder, defaultText: LibraryLocation.standard, help: "Library folder")

    func value(_ text: String?, command: String) throws -> URL { try LibraryLocation.resolve(text) }
}
