/// How long each day's clip is: the film's clip and the window analysis chooses are the same
/// length, so both take it from here.
public enum ClipLength {
    /// One second of every day.
    public static let standard: Double = 1
    /// Lengths a person may ask for, in seconds.
    public static let allowed: ClosedRange<Double> = 0.1...60
}
