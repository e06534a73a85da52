// Parses each Java file named on the command line with javac's own parser (no type checking, so
// files need not compile) and exits 1 after printing the first syntax error of any that fails.
// Run as a single-file program: `java JavaSyntax.java FILE...` (JDK 11 or later).
import com.sun.source.util.JavacTask;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaSyntax {
    public static void main(String[] files) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null);
        int failed = 0;
        for (String file : files) {
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            JavacTask task = (JavacTask) javac.getTask(null, fileManager, diagnostics,
                    List.of("-proc:none"), null, fileManager.getJavaFileObjects(file));
            task.parse();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    System.out.println(file + ":" + d.getLineNumber() + ": " + d.getMessage(null));
                    failed++;
                    break;
                }
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
