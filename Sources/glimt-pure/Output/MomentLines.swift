/// What spoils a chosen second as a moment and why a better-scoring one was passed over, under
/// the line of the pick (`analyze` indents by two like its other lines, `days` by four like its
/// candidates).
enum MomentLines {
    static func print(flaws: [String]?, passedOver: String?, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        if let flaws, !flaws.isEmpty { Console.out(pad + "moment: " + flaws.joined(separator: "; ")) }
        if let passedOver { Console.out(pad + "passed over: " + passedOver) }
    }
}
