package io.appendsfeed.indexer.backfill;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files of a DynamoDB export to S3 ({@code ExportTableToPointInTime}, full export, DynamoDB
 * JSON), named relative to the export's folder, the one holding {@code manifest-summary.json},
 * {@code manifest-files.json} and {@code data/}: in S3 ({@code s3://bucket/prefix/AWSDynamoDB/<export id>/})
 * or copied to a local folder (e.g. with {@code aws s3 sync}).
 */
public interface ExportFiles {

    /**
     * Opens a file of the export.
     *
     * @param path relative to the export's folder, e.g. {@code manifest-summary.json} or {@code data/x.json.gz}
     * @throws NoSuchFileException when there is no such file
     */
    InputStream open(String path) throws IOException;

    /** Where the export is, for messages. */
    String describe();

    /** The export's files in a local folder (the export's own folder, where {@code manifest-summary.json} is). */
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
     * A DynamoDB export that a backfill cannot read as the store table's items: not a full export in
     * DynamoDB JSON, of another table, or a file that is not what its manifest says (item count,
     * MD5 checksum). The message names the file and what is wrong.
     */
    class ExportFormatException extends RuntimeException {
        private final String file;

        /** @param cause null when there is none */
        public ExportFormatException(String file, String problem, Throwable cause) {
            super(file + ": " + problem, cause);
            this.file = file;
        }

        /** The file of the export, relative to its folder. */
        public String file() {
            return file;
        }
    }
}
