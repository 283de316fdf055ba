public enum TensorLite {}
