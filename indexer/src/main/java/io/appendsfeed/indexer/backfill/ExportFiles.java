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
 *
 * @param describe where the export is, for messages
 */
public record ExportFiles(String describe, Opener opener) {

    /** Opens a file of the export. */
    @FunctionalInterface
    public interface Opener {
        /** @throws NoSuchFileException when there is no such file */
        InputStream open(String path) throws IOException;
    }

    /** @throws NoSuchFileException when there is no such file */
    public InputStream open(String path) throws IOException {
        return opener.open(path);
    }

    /** The export's files in a local folder, the one holding {@code manifest-summary.json}. */
    public static ExportFiles folder(Path folder) {
        return new ExportFiles(folder.toString(), path -> {
            Path file = folder.resolve(path).normalize();
            if (!file.startsWith(folder.normalize())) {
                throw new NoSuchFileException(path, null, "outside the export folder " + folder);
            }
            return Files.newInputStream(file);
        });
    }

    /**
     * The export's files in S3, read with {@code GetObject} only (the manifest names every file). Needs
     * {@code software.amazon.awssdk:s3}, an optional dependency of the indexer (the CLI jar carries it).
     *
     * @param location {@code s3://bucket/path/to/AWSDynamoDB/<export id>/}
     * @throws IllegalArgumentException when it is not an {@code s3://} URL with a bucket
     */
    public static ExportFiles s3(S3Client s3, String location) {
        URI uri = URI.create(location.trim());
        if (!"s3".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + location + "' is not an s3://bucket/prefix/ location");
        }
        String bucket = uri.getHost();
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        String prefix = path.isEmpty() || path.endsWith("/") ? path : path + "/";
        String where = "s3://" + bucket + "/" + prefix;
        return new ExportFiles(where, file -> {
            try {
                return s3.getObject(b -> b.bucket(bucket).key(prefix + file));
            } catch (NoSuchKeyException e) {
                NoSuchFileException missing = new NoSuchFileException(where + file);
                missing.initCause(e);
                throw missing;
            }
        });
    }

    /**
     * An export that is not the store table's items: not a full DynamoDB JSON export, of another table, or a
     * file that is not what its manifest says (item count, MD5). The message names the file and what is wrong.
     */
    public static class ExportFormatException extends RuntimeException {
        /** @param cause null when there is none */
        public ExportFormatException(String file, String problem, Throwable cause) {
            super(file + ": " + problem, cause);
        }
    }
}
