import GlimtPure

/// Options that several commands declare, each written once: a command declares one by a
/// property of its `Options` (`let json = SharedOptions.json`).
enum SharedOptions {
    static let overwrite = FlagOption("--overwrite", short: "-y", "Replace an existing output file (otherwise it is refused)")
    static let library = LibraryOption()
    static let json = FlagOption("--json", "Print JSON")
    static let person = TextOption(
        "--person", "NAME", "Whose days: one of the library's people ('glimt-pure people' lists them; with one person it may be left out)")
    static let aspect = ChoiceOption(
        "--aspect", default: Aspect.standard,
        "The film's shape (portrait 1080x1920, landscape 1920x1080, square 1080x1080): crops are framed for it")
    static let seconds = NumberOption("--seconds", "S", default: ClipLength.standard, range: ClipLength.allowed, "Length of each day's clip")
    static let withoutPerson = ChoiceOption(
        "--without-person", default: Judgement.Rules().withoutPerson,
        "A day none of whose videos shows the person: skip it, or include its best second anyway, marked as without the person")
    static let photos = ChoiceOption(
        "--photos", default: Judgement.Rules().photos,
        "Photos (JPEG, HEIC) beside the videos: fill the days without a video of the person, also compete with the day's videos, or never")
    static let detectSize = NumberOption(
        "--detect-size", "N", default: FaceModels.standardDetectionSize, range: FaceModels.detectionSizes,
        "Long side, in pixels, the detector looks at (more finds smaller faces in crowds, and costs more)")
    /// The sheet `show` and `calendar` draw.
    static let sheet = RequiredTextOption("--sheet", "OUT.jpg", completion: .file, what: "or .png", "The sheet to write, .jpg or .png (required)")
}
