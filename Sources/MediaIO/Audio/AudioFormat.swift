/// The one sound format glimt reads and writes: 48 kHz stereo, interleaved Float32 (left,
/// right, left, ...). Every clip's sound is resampled to it, and the film is encoded from it.
public enum AudioFormat {
    public static let sampleRate = 48_000
    public static let channels = 2
}
