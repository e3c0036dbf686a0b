// Runs EPUBCheck (Debian's epubcheck, /usr/share/java/epubcheck.jar on the class path) on
// each EPUB given, in one JVM: `java -cp epubcheck.jar EPUBCheckRun.java BOOK.epub...`.
// EPUBCheck prints each message (ERROR(RSC-005): ..., WARNING(PKG-010): ...) as it finds it;
// this prints, per book, one line "<path>: <fatal> fatal, <errors> errors, <warnings>
// warnings, <infos> infos" on stdout, and exits 1 unless every book has no fatal error, no
// error and no warning.
import com.adobe.epubcheck.api.EpubCheck;
import com.adobe.epubcheck.util.DefaultReportImpl;
import java.io.File;

public class EPUBCheckRun {
    public static void main(String[] args) {
        boolean clean = args.length > 0;
        for (String path : args) {
            DefaultReportImpl report = new DefaultReportImpl(path);
            new EpubCheck(new File(path), report).validate();
            int fatal = report.getFatalErrorCount(), errors = report.getErrorCount(), warnings = report.getWarningCount();
            System.out.println(path + ": " + fatal + " fatal, " + errors + " errors, " + warnings + " warnings, "
                + report.getInfoCount() + " infos");
            clean &= fatal + errors + warnings == 0;
        }
        System.exit(clean ? 0 : 1);
    }
}
