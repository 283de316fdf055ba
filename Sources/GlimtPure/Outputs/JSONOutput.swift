import Foundation

/// How every `--json` is written: keys sorted, slashes as they are, and every time as ISO 8601
/// (`2024-06-21T10:12:33Z`, as a reference's `added` is), never Foundation's seconds since 2001.
/// Here rather than in the CLI because a day's judgement is kept as `days --json` prints it
/// (`DayReport.json`).
public enum JSONOutput {
    public static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// Reads what `encoder` wrote.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
