package io.appendsfeed.indexer.backfill;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files of a DynamoDB export to S3 (full export, DynamoDB JSON), by their path relative to the export's
 * folder (the one holding {@code manifest-summary.json}), in S3 ({@link S3ExportFiles}) or copied to a local folder.
 */
public interface ExportFiles {

    /** @throws NoSuchFileException when there is no such file */
    InputStream open(String path) throws IOException;

    /** Where the export is, for messages. */
    String describe();

    /** The export's files in a local folder, the one holding {@code manifest-summary.json}. */
    static ExportFiles folder(Path folder) {
        return new ExportFiles() {
            @Override
            public InputStream open(String path) throws IOException {
                Path file = folder.resolve(path).normalize();
                if (!file.startsWith(folder.normalize())) {
                    throw new NoSuchFileException(path, null, "outside the export folder " + folder);
                }
                return Files.newInputStream(file);
            }

            @Override
            public String describe() {
                return folder.toString();
            }
        };
    }

    /**
     * An export that is not the store table's items: not a full DynamoDB JSON export, of another table, or a
     * file that is not what its manifest says (item count, MD5). The message names the file and what is wrong.
     */
    class ExportFormatException extends RuntimeException {
        /** @param cause null when there is none */
        public ExportFormatException(String file, String problem, Throwable cause) {
            super(file + ": " + problem, cause);
        }
    }
}
