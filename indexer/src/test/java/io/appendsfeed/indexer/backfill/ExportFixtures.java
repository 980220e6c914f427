package io.appendsfeed.indexer.backfill;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Test support: what {@code ExportTableToPointInTime} writes to S3 for a full export in DynamoDB
 * JSON, made from a table on DynamoDB Local: {@code AWSDynamoDB/<export id>/manifest-summary.json},
 * {@code manifest-files.json} (one JSON object per line and data file: item count, base64 MD5,
 * ETag, key) and {@code data/<name>.json.gz} (gzipped, one {@code {"Item":{...}}} per line, every
 * attribute in DynamoDB JSON). Items are spread over {@code files} data files.
 */
public final class ExportFixtures {

    static final String ACCOUNT = "123456789012";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExportFixtures() {}

    /** @return the export's own folder (the one holding manifest-summary.json) */
    public static Path write(DynamoDbClient dynamo, String table, Path bucket, int files) {
        String exportId = System.currentTimeMillis() + "-" + UUID.randomUUID().toString().substring(0, 8);
        String folderKey = "AWSDynamoDB/" + exportId + "/";
        Path folder = bucket.resolve(folderKey);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(b -> b.tableName(table).consistentRead(true).exclusiveStartKey(from));
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        try {
            Files.createDirectories(folder.resolve("data"));
            StringBuilder manifestFiles = new StringBuilder();
            for (int f = 0; f < files; f++) {
                String name = UUID.randomUUID().toString().replace("-", "").substring(0, 26) + ".json.gz";
                Path data = folder.resolve("data").resolve(name);
                long count = 0;
                try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(data))) {
                    for (int k = f; k < items.size(); k += files) {
                        ObjectNode line = JSON.createObjectNode();
                        line.set("Item", item(items.get(k)));
                        out.write((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
                        count++;
                    }
                }
                byte[] bytes = Files.readAllBytes(data);
                ObjectNode entry = JSON.createObjectNode().put("itemCount", count)
                        .put("md5Checksum", Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes)))
                        .put("etag", HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes)) + "-1")
                        .put("dataFileS3Key", folderKey + "data/" + name);
                manifestFiles.append(JSON.writeValueAsString(entry)).append('\n');
            }
            Files.writeString(folder.resolve("manifest-files.json"), manifestFiles.toString());
            String tableArn = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/" + table;
            Instant now = Instant.now();
            ObjectNode summary = JSON.createObjectNode().put("version", "2020-06-30")
                    .put("exportArn", tableArn + "/export/" + exportId).put("startTime", now.toString()).put("endTime", now.toString())
                    .put("tableArn", tableArn).put("tableId", UUID.randomUUID().toString()).put("exportTime", now.toString())
                    .put("s3Bucket", "exports").putNull("s3Prefix").put("s3SseAlgorithm", "AES256").putNull("s3SseKmsKeyId")
                    .put("manifestFilesS3Key", folderKey + "manifest-files.json").put("billedSizeBytes", 0)
                    .put("itemCount", items.size()).put("outputFormat", "DYNAMODB_JSON").put("exportType", "FULL_EXPORT");
            Files.writeString(folder.resolve("manifest-summary.json"), JSON.writeValueAsString(summary));
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode item(Map<String, AttributeValue> item) {
        ObjectNode o = JSON.createObjectNode();
        item.forEach((k, v) -> o.set(k, value(v)));
        return o;
    }

    private static ObjectNode value(AttributeValue v) {
        ObjectNode o = JSON.createObjectNode();
        switch (v.type()) {
            case S -> o.put("S", v.s());
            case N -> o.put("N", v.n());
            case B -> o.put("B", Base64.getEncoder().encodeToString(v.b().asByteArray()));
            case BOOL -> o.put("BOOL", v.bool());
            case NUL -> o.put("NULL", true);
            case L -> {
                ArrayNode a = o.putArray("L");
                v.l().forEach(e -> a.add(value(e)));
            }
            case M -> {
                ObjectNode m = o.putObject("M");
                v.m().forEach((k, e) -> m.set(k, value(e)));
            }
            case SS -> v.ss().forEach(o.putArray("SS")::add);
            case NS -> v.ns().forEach(o.putArray("NS")::add);
            case BS -> {
                ArrayNode a = o.putArray("BS");
                v.bs().forEach(b -> a.add(Base64.getEncoder().encodeToString(b.asByteArray())));
            }
            default -> throw new IllegalArgumentException("attribute value of unknown type: " + v);
        }
        return o;
    }
}
