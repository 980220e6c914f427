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
import java.util.ArrayList;
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
 * What a DynamoDB export says it holds: {@code manifest-summary.json} (one JSON object: the table,
 * the format, the item count, where {@code manifest-files.json} is) and {@code manifest-files.json}
 * (one JSON object per line and data file: its key, item count and base64 MD5), and the reading of its
 * data files. Only a full export in DynamoDB JSON holds items; an incremental one holds changes, and ION
 * is another format.
 *
 * @param tableArn the exported table
 * @param itemCount items in the export
 */
public record ExportManifest(String tableArn, long itemCount, List<DataFile> files) {

    public static final String SUMMARY = "manifest-summary.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A data file: {@code path} relative to the export's folder, e.g. {@code data/abc.json.gz}. */
    public record DataFile(String path, long itemCount, String md5Base64) {}

    public ExportManifest {
        files = List.copyOf(files);
    }

    /**
     * @throws ExportFormatException when it is not a full DynamoDB JSON export, or a manifest is malformed
     * @throws UncheckedIOException when a manifest cannot be read
     */
    public static ExportManifest read(ExportFiles export) {
        JsonNode summary = json(export, SUMMARY);
        String format = text(summary, "outputFormat", SUMMARY);
        if (!format.equals("DYNAMODB_JSON")) {
            throw new ExportFormatException(SUMMARY, "the export is in " + format + "; export the table again with"
                    + " --export-format DYNAMODB_JSON (the default)");
        }
        String type = summary.path("exportType").asText("FULL_EXPORT");
        if (!type.equals("FULL_EXPORT")) {
            throw new ExportFormatException(SUMMARY, "the export is an " + type + ", which holds changes, not the table's items;"
                    + " backfill from a full export (--export-type FULL_EXPORT, the default)");
        }
        String filesKey = text(summary, "manifestFilesS3Key", SUMMARY);
        // keys in the manifests are from the bucket's root; the export's folder is where manifest-files.json is
        String folder = filesKey.contains("/") ? filesKey.substring(0, filesKey.lastIndexOf('/') + 1) : "";
        String filesName = filesKey.substring(folder.length());
        List<DataFile> files = new ArrayList<>();
        try (BufferedReader lines = reader(export, filesName)) {
            String line;
            int n = 0;
            while ((line = lines.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode f = parse(line, filesName + " line " + n);
                String key = text(f, "dataFileS3Key", filesName + " line " + n);
                if (!key.startsWith(folder)) {
                    throw new ExportFormatException(filesName, "line " + n + ": data file " + key + " is not in the export's folder " + folder);
                }
                files.add(new DataFile(key.substring(folder.length()), f.path("itemCount").asLong(-1), f.path("md5Checksum").asText(null)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + filesName + " of the export at " + export.describe(), e);
        }
        long count = summary.path("itemCount").asLong(files.stream().mapToLong(DataFile::itemCount).sum());
        return new ExportManifest(text(summary, "tableArn", SUMMARY), count, files);
    }

    /** @throws ExportFormatException when the export is of another table */
    public void requireTable(String storeTable) {
        String table = tableArn.substring(tableArn.lastIndexOf('/') + 1);
        if (!table.equals(storeTable)) {
            throw new ExportFormatException(SUMMARY, "the export is of table '" + table + "' (" + tableArn + "), not of the store table '"
                    + storeTable + "'; pass the export of the store table, or the store table the export is of");
        }
    }

    private static JsonNode json(ExportFiles export, String path) {
        try (InputStream in = export.open(path)) {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), path);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ExportFormatException(path, "not found at " + export.describe() + ": give the export's own folder, the one"
                    + " holding " + SUMMARY + ", manifest-files.json and data/", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + " of the export at " + export.describe(), e);
        }
    }

    private static BufferedReader reader(ExportFiles export, String path) throws IOException {
        return new BufferedReader(new InputStreamReader(export.open(path), StandardCharsets.UTF_8));
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
            throw new ExportFormatException(where, "has no " + field);
        }
        return v.asText();
    }

    private static final List<String> KEPT = List.of(StoreItems.STREAM, StoreItems.RANGE, StoreItems.NEXT, StoreItems.TYPES);

    /**
     * Reads one data file: gzipped, one {@code {"Item": {...}}} per line in DynamoDB JSON, taking from each item
     * only what the scan projects ({@code p, i, n, c}), so both sources hand the same {@link StoreItem}s on.
     * Checks the file against its manifest entry: the MD5 of its bytes and its item count.
     *
     * @throws ExportFormatException for a line that is not an item, or a file whose count or checksum is not the manifest's
     * @throws UncheckedIOException when the file cannot be read
     */
    public static void readItems(ExportFiles export, DataFile file, Consumer<StoreItem> sink, AtomicLong scanned,
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
