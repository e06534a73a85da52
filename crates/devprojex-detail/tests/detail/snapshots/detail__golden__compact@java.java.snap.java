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
    public C(int x) {
        this.x = x;
    }
    @Override
    public String toString() {
        Runnable r = () -> {
            System.out.println("x");
        };
        return S;
    }
    abstract int abs();
    public record R(int a) {}
}
/**
 * Summary of Documented.
 *
 * <p>Details.
 *
 * @since 1.0
 */
class Documented {
    /** Value summary.
     *
     * @return one */
    int value() {
        return 1;
    }
}
/// A Markdown doc comment (Java 23).
///
/// Details in **Markdown**.
class Markdown {
}
/**
 * Encodes a table.
 * <pre>
 * Table ::= SEQUENCE {
 *
 *    entries Entry }
 * </pre>
 *
 * Details after the summary.
 */
class Table {
    static final int[] VALUES;
    static {
        VALUES = new int[4];
        VALUES[0] = 1;
    }
}
