import Foundation
import GlimtPure

struct EmbedCommand: Command {
    static let name = "embed"
    static let summary = "Print the SFace embedding of an aligned 112x112 face image as JSON"
    static let usage = ["embed IMAGE..."]
    static let about = """
        Prints, as JSON, the 128-number SFace embedding of each IMAGE: a face already aligned to
        SFace's 112x112 template (eyes, nose tip and mouth corners at their standard places), as
        PNG, JPEG, WebP, HEIC or AVIF. The embedding is L2-normalised: the cosine of two
        embeddings is their dot product, and two photos of the same person score well above 0.45.
        It comes from the network in float, the same on every machine; analysis embeds faces in
        int8 where the CPU has AVX2, at a cosine of 0.998 or more to these.

        For whole photos, use 'glimt-pure faces PHOTO --embed', which finds and aligns the faces first.

        A file that cannot be used gets a one-line error on stderr; the others are still printed.
        """
    struct Options: OptionGroup {}

    struct Output: Encodable {
        let file: String
        let model: String
        let embedding: [Float]
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("an IMAGE")
        var results: [Output] = []
        var failed = false
        for path in args.positionals {
            do {
                let (model, embedding) = try AlignedFace.embed(path)
                results.append(Output(file: path, model: model, embedding: embedding.values))
            } catch {
                Console.err("glimt-pure embed: \(error)")
                failed = true
            }
        }
        if args.positionals.count > 1 {
            try Console.json(results)
        } else if let only = results.first {
            try Console.json(only)
        }
        return failed ? 1 : 0
    }
}
