package io.appendsfeed.indexer.backfill.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.backfill.ExportFiles;
import io.appendsfeed.indexer.backfill.ExportFormatException;
import io.appendsfeed.model.store.DynamoJson;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreItems;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads one data file of a DynamoDB export: gzipped, one {@code {"Item": {...}}} per line in
 * DynamoDB JSON. Takes from each item only what the scan projects ({@code p, i, n, c}), so both
 * sources hand the same {@link StoreItem}s on. Checks the file against its manifest entry: the
 * MD5 of its bytes and its item count.
 */
public final class ExportReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> KEPT = List.of(StoreItems.STREAM, StoreItems.RANGE, StoreItems.NEXT, StoreItems.TYPES);

    private ExportReader() {}

    /**
     * @throws ExportFormatException for a line that is not an item, or a file whose count or checksum is not the manifest's
     * @throws UncheckedIOException when the file cannot be read
     */
    public static void read(ExportFiles export, ExportManifest.DataFile file, Consumer<StoreItem> sink, AtomicLong scanned,
                            BooleanSupplier cancelled) {
        MessageDigest md5 = md5();
        long items = 0;
        try (InputStream raw = export.open(file.path());
             DigestInputStream digest = new DigestInputStream(raw, md5);
             BufferedReader lines = new BufferedReader(new InputStreamReader(new GZIPInputStream(digest, 64 * 1024), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (cancelled.getAsBoolean()) {
                    return;
                }
                if (line.isBlank()) {
                    continue;
                }
                items++;
                sink.accept(StoreItems.parse(item(line, file.path(), items)));
                scanned.incrementAndGet();
            }
            digest.transferTo(java.io.OutputStream.nullOutputStream()); // the gzip trailer may leave bytes unread
        } catch (java.util.zip.ZipException e) {
            throw new ExportFormatException(file.path(), "not a gzip file: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.path() + " of the export at " + export.describe(), e);
        }
        if (file.itemCount() >= 0 && items != file.itemCount()) {
            throw new ExportFormatException(file.path(), "holds " + items + " items where the manifest says " + file.itemCount()
                    + " (a truncated or replaced file?)");
        }
        String sum = Base64.getEncoder().encodeToString(md5.digest());
        if (file.md5Base64() != null && !file.md5Base64().equals(sum)) {
            throw new ExportFormatException(file.path(), "has MD5 " + sum + " where the manifest says " + file.md5Base64()
                    + " (a corrupt or replaced file?)");
        }
    }

    /** The item of one line, reduced to {@code p, i, n, c} as SDK attribute values. */
    static Map<String, AttributeValue> item(String line, String file, long n) {
        JsonNode item;
        try {
            item = JSON.readTree(line).get("Item");
        } catch (IOException e) {
            throw new ExportFormatException(file, "item " + n + " is not JSON: " + e.getMessage(), e);
        }
        if (item == null || !item.isObject()) {
            throw new ExportFormatException(file, "line " + n + " is not {\"Item\": {...}} (an incremental export's lines are"
                    + " changes, not items)");
        }
        Map<String, AttributeValue> out = new HashMap<>();
        for (String name : KEPT) {
            JsonNode v = item.get(name);
            if (v != null) {
                out.put(name, value(v, file, n));
            }
        }
        return out;
    }

    /** DynamoDB JSON: one of S, N, B (base64), BOOL, NULL, L, M, SS, NS, BS (read by {@link DynamoJson}). */
    static AttributeValue value(JsonNode v, String file, long n) {
        try (JsonParser p = v.traverse()) {
            p.nextToken();
            return DynamoJson.read(p);
        } catch (IOException e) {
            throw new ExportFormatException(file, "item " + n + " has an attribute value that is not DynamoDB JSON (" + e.getMessage()
                    + "): " + v, e);
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }
}
