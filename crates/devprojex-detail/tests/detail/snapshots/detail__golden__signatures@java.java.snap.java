package p;
import java.util.List;
/** Javadoc for C. */
@SuppressWarnings("unchecked")
public class C<T> {
    private final int x = 1;
    private static final String S = "// not a comment";
    private static final String TB = """
        text block // not a comment

        /* nor this */
        """;
    /** Ctor. */
    public C(int x) { /* ... */ }
    @Override
    public String toString() { /* ... */ }
    abstract int abs();
    public record R(int a) {}
}
/**
 * Summary of Documented.
 */
class Documented {
    /** Value summary. */
    int value() { /* ... */ }
}
/// A Markdown doc comment (Java 23).
class Markdown {
}
/**
 * Encodes a table.
 * <pre>
 * Table ::= SEQUENCE {
 *
 *    entries Entry }
 * </pre>
 */
class Table {
    static final int[] VALUES;
    static { /* ... */ }
}
