package io.appendsfeed.indexer.backfill;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The files of a DynamoDB export to S3 (full export, DynamoDB JSON), by their path relative to the export's
 * folder (the one holding {@code manifest-summary.json}), in S3 or copied to a local folder.
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
     * The export's files in S3, read with {@code GetObject} only (the manifest names every file). Needs
     * {@code software.amazon.awssdk:s3}, an optional dependency of the indexer (the CLI jar carries it).
     *
     * @param location {@code s3://bucket/path/to/AWSDynamoDB/<export id>/}
     * @throws IllegalArgumentException when it is not an {@code s3://} URL with a bucket
     */
    static ExportFiles s3(S3Client s3, String location) {
        URI uri = URI.create(location.trim());
        if (!"s3".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + location + "' is not an s3://bucket/prefix/ location");
        }
        String bucket = uri.getHost();
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        String prefix = path.isEmpty() || path.endsWith("/") ? path : path + "/";
        return new ExportFiles() {
            @Override
            public InputStream open(String file) throws IOException {
                try {
                    return s3.getObject(b -> b.bucket(bucket).key(prefix + file));
                } catch (NoSuchKeyException e) {
                    NoSuchFileException missing = new NoSuchFileException(describe() + file);
                    missing.initCause(e);
                    throw missing;
                }
            }

            @Override
            public String describe() {
                return "s3://" + bucket + "/" + prefix;
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
