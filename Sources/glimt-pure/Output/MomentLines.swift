/// What spoils a chosen second as a moment and why a better-scoring one was passed over, under
/// the line of the pick (`analyze`, `days`).
enum MomentLines {
    static func print(flaws: [String]?, passedOver: String?) {
        if let flaws, !flaws.isEmpty { Console.out("  moment: " + flaws.joined(separator: "; ")) }
        if let passedOver { Console.out("  passed over: " + passedOver) }
    }
}
