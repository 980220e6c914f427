package io.appendsfeed.indexer.backfill.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.backfill.ExportFiles;
import io.appendsfeed.indexer.backfill.ExportFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a DynamoDB export says it holds: {@code manifest-summary.json} (one JSON object: the table,
 * the format, the item count, where {@code manifest-files.json} is) and {@code manifest-files.json}
 * (one JSON object per line and data file: its key, item count and base64 MD5). Only a full export
 * in DynamoDB JSON holds items; an incremental one holds changes, and ION is another format.
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
}
