package io.appendsfeed.indexer.backfill;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.util.Objects;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The files of a DynamoDB export read from S3 ({@code GetObject} only: the manifest names every file). Needs
 * {@code software.amazon.awssdk:s3}, an optional dependency of the indexer (the CLI jar carries it).
 *
 * @param prefix the export's folder within the bucket, ending in {@code /} (empty for the bucket's root)
 */
public record S3ExportFiles(S3Client s3, String bucket, String prefix) implements ExportFiles {

    public S3ExportFiles {
        Objects.requireNonNull(s3, "s3");
        Objects.requireNonNull(bucket, "bucket");
        prefix = prefix == null ? "" : prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
    }

    /**
     * @param location {@code s3://bucket/path/to/AWSDynamoDB/<export id>/}
     * @throws IllegalArgumentException when it is not an {@code s3://} URL with a bucket
     */
    public static S3ExportFiles at(S3Client s3, String location) {
        URI uri = URI.create(location.trim());
        if (!"s3".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + location + "' is not an s3://bucket/prefix/ location");
        }
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        return new S3ExportFiles(s3, uri.getHost(), path);
    }

    @Override
    public InputStream open(String path) throws IOException {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(prefix + path));
        } catch (NoSuchKeyException e) {
            NoSuchFileException missing = new NoSuchFileException(describe() + path);
            missing.initCause(e);
            throw missing;
        }
    }

    @Override
    public String describe() {
        return "s3://" + bucket + "/" + prefix;
    }
}
