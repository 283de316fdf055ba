/// Where a day's second is in its file, as lines say it: "at 2.63 s", or "(photo)" for a photo
/// held for the second.
enum SecondText {
    static func at(_ start: Double, photo: Bool?) -> String { photo == true ? "(photo)" : String(format: "at %.2f s", start) }
}
