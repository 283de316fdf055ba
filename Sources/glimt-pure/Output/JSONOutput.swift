import Foundation

/// How every `--json` is written: keys sorted, slashes as they are.
enum JSONOutput {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        return encoder
    }
}
