import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Reads zip files the way an Android app unpacks a download as it arrives: front to back with
 * java.util.zip.ZipInputStream, never looking at the central directory.
 *
 * Run: java ZipStreamCheck.java file.zip...
 * Prints one line per entry, tab-separated: archive, name, method (stored|deflated), size,
 * CRC-32 (8 hex digits) and SHA-256 of the bytes read. Each entry must announce its size and
 * CRC-32 in its local header, before its data (no data descriptor), and the bytes read must
 * match both. Any failure prints "error: <archive>: <message>" on stderr and exits 1.
 */
public class ZipStreamCheck {
    public static void main(String[] args) throws Exception {
        byte[] buffer = new byte[1 << 16];
        for (String path : args) {
            try (InputStream file = new BufferedInputStream(new FileInputStream(path));
                 ZipInputStream zip = new ZipInputStream(file)) {
                ZipEntry entry;
                while ((entry = zip.getNextEntry()) != null) {
                    long announcedSize = entry.getSize();
                    long announcedCrc = entry.getCrc();
                    if (announcedSize < 0 || announcedCrc < 0) {
                        fail(path, entry.getName() + ": size or CRC-32 not in the local header");
                    }
                    CRC32 crc = new CRC32();
                    MessageDigest sha = MessageDigest.getInstance("SHA-256");
                    long size = 0;
                    int count;
                    while ((count = zip.read(buffer)) > 0) {
                        crc.update(buffer, 0, count);
                        sha.update(buffer, 0, count);
                        size += count;
                    }
                    if (size != announcedSize || crc.getValue() != announcedCrc) {
                        fail(path, entry.getName() + ": read " + size + " bytes with CRC-32 "
                            + Long.toHexString(crc.getValue()) + ", the header announced " + announcedSize
                            + " with " + Long.toHexString(announcedCrc));
                    }
                    String method = entry.getMethod() == ZipEntry.STORED ? "stored" : "deflated";
                    System.out.printf("%s\t%s\t%s\t%d\t%08x\t%s%n", path, entry.getName(), method, size,
                        crc.getValue(), HexFormat.of().formatHex(sha.digest()));
                }
            } catch (Exception e) {
                fail(path, e.toString());
            }
        }
    }

    private static void fail(String path, String message) {
        System.out.flush();
        System.err.println("error: " + path + ": " + message);
        System.exit(1);
    }
}
