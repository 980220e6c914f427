package io.appendsfeed.indexer.backfill.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.backfill.ExportFiles;
import io.appendsfeed.indexer.backfill.ExportFiles.ExportFormatException;
import io.appendsfeed.model.store.DynamoJson;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreItems;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a DynamoDB export says it holds ({@code manifest-summary.json}, and {@code manifest-files.json} with a
 * line per data file: key, item count, base64 MD5), and the reading of its data files. Only a full export in
 * DynamoDB JSON holds items.
 */
public final class ExportManifest {

    public static final String SUMMARY = "manifest-summary.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the scan projects, so that both sources hand on the same {@link StoreItem}s. */
    private static final List<String> KEPT = List.of(StoreItems.STREAM, StoreItems.RANGE, StoreItems.NEXT, StoreItems.TYPES);

    /** A data file; {@code path} is relative to the export's folder, e.g. {@code data/abc.json.gz}. */
    public record DataFile(String path, long itemCount, String md5Base64) {}

    private ExportManifest() {}

    /**
     * The data files the manifest lists.
     *
     * @throws ExportFormatException when it is not a full DynamoDB JSON export of {@code storeTable}, or a manifest is malformed
     * @throws UncheckedIOException when a manifest cannot be read
     */
    public static List<DataFile> read(ExportFiles export, String storeTable) {
        JsonNode summary;
        try (InputStream in = export.open(SUMMARY)) {
            summary = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), SUMMARY);
        } catch (NoSuchFileException e) {
            throw new ExportFormatException(SUMMARY, "not found at " + export.describe() + ": give the export's own folder, the one"
                    + " holding " + SUMMARY + ", manifest-files.json and data/", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SUMMARY + " of the export at " + export.describe(), e);
        }
        String format = text(summary, "outputFormat", SUMMARY);
        if (!format.equals("DYNAMODB_JSON")) {
            throw new ExportFormatException(SUMMARY, "the export is in " + format + "; export the table again with"
                    + " --export-format DYNAMODB_JSON (the default)", null);
        }
        String type = summary.path("exportType").asText("FULL_EXPORT");
        if (!type.equals("FULL_EXPORT")) {
            throw new ExportFormatException(SUMMARY, "the export is an " + type + ", which holds changes, not the table's items;"
                    + " backfill from a full export (--export-type FULL_EXPORT, the default)", null);
        }
        String tableArn = text(summary, "tableArn", SUMMARY);
        String table = tableArn.substring(tableArn.lastIndexOf('/') + 1);
        if (!table.equals(storeTable)) {
            throw new ExportFormatException(SUMMARY, "the export is of table '" + table + "' (" + tableArn + "), not of the store table '"
                    + storeTable + "'; pass the export of the store table, or the store table the export is of", null);
        }
        String filesKey = text(summary, "manifestFilesS3Key", SUMMARY);
        // keys in the manifests are from the bucket's root; the export's folder is where manifest-files.json is
        String folder = filesKey.substring(0, filesKey.lastIndexOf('/') + 1);
        String filesName = filesKey.substring(folder.length());
        List<DataFile> files = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(export.open(filesName), StandardCharsets.UTF_8))) {
            int n = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String where = filesName + " line " + ++n;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode f = parse(line, where);
                String key = text(f, "dataFileS3Key", where);
                if (!key.startsWith(folder)) {
                    throw new ExportFormatException(where, "data file " + key + " is not in the export's folder " + folder, null);
                }
                files.add(new DataFile(key.substring(folder.length()), f.path("itemCount").asLong(-1), f.path("md5Checksum").asText(null)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + filesName + " of the export at " + export.describe(), e);
        }
        return List.copyOf(files);
    }

    /**
     * Reads one gzipped data file ({@code {"Item": {...}}} a line), each item reduced to {@code p, i, n, c},
     * and checks its MD5 and item count against the manifest.
     *
     * @throws ExportFormatException for a line that is not an item, or a file whose count or checksum is not the manifest's
     * @throws UncheckedIOException when the file cannot be read
     */
    public static void readItems(ExportFiles export, DataFile file, Consumer<StoreItem> sink, AtomicLong scanned,
                                 BooleanSupplier cancelled) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
        long items = 0;
        try (DigestInputStream digest = new DigestInputStream(export.open(file.path()), md5);
             BufferedReader lines = new BufferedReader(new InputStreamReader(new GZIPInputStream(digest, 64 * 1024), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (cancelled.getAsBoolean()) {
                    return;
                }
                if (!line.isBlank()) {
                    sink.accept(StoreItems.parse(item(line, file.path(), ++items)));
                    scanned.incrementAndGet();
                }
            }
            digest.transferTo(OutputStream.nullOutputStream()); // the gzip trailer may leave bytes unread
        } catch (ZipException e) {
            throw new ExportFormatException(file.path(), "not a gzip file: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.path() + " of the export at " + export.describe(), e);
        }
        if (file.itemCount() >= 0 && items != file.itemCount()) {
            throw new ExportFormatException(file.path(), "holds " + items + " items where the manifest says " + file.itemCount()
                    + " (a truncated or replaced file?)", null);
        }
        String sum = Base64.getEncoder().encodeToString(md5.digest());
        if (file.md5Base64() != null && !file.md5Base64().equals(sum)) {
            throw new ExportFormatException(file.path(), "has MD5 " + sum + " where the manifest says " + file.md5Base64()
                    + " (a corrupt or replaced file?)", null);
        }
    }

    /** The item of one line, reduced to {@code p, i, n, c}. */
    static Map<String, AttributeValue> item(String line, String file, long n) {
        JsonNode item;
        try {
            item = JSON.readTree(line).get("Item");
        } catch (IOException e) {
            throw new ExportFormatException(file, "item " + n + " is not JSON: " + e.getMessage(), e);
        }
        if (item == null || !item.isObject()) {
            throw new ExportFormatException(file, "line " + n + " is not {\"Item\": {...}} (an incremental export's lines are"
                    + " changes, not items)", null);
        }
        ObjectNode kept = ((ObjectNode) item).retain(KEPT);
        try (JsonParser p = kept.traverse()) {
            p.nextToken();
            return DynamoJson.readItem(p);
        } catch (IOException e) {
            throw new ExportFormatException(file, "item " + n + " has an attribute value that is not DynamoDB JSON ("
                    + e.getMessage() + "): " + kept, e);
        }
    }

    private static JsonNode parse(String text, String where) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new ExportFormatException(where, "not JSON: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode o, String field, String where) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new ExportFormatException(where, "has no " + field, null);
        }
        return v.asText();
    }
}
