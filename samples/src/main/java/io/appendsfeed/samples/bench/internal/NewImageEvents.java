package io.appendsfeed.samples.bench.internal;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The "read DynamoDB Streams directly" baseline: what a consumer without the feed must do with each
 * record: keep Tip writes that appended events ({@code a > 0}), take the last {@code a} entries of
 * {@code e}/{@code c} and decode their bodies (encoding 0 raw, 1 raw deflate). Calves, unfold-only
 * writes and removals carry no new events.
 */
final class NewImageEvents {

    private static final String TIP = "2147483647";

    private NewImageEvents() {
    }

    /**
     * @return body bytes of each new event, decoded
     * @throws IllegalStateException on an item not of the store format or an encoding other than 0 and 1
     */
    static List<byte[]> of(Record r) {
        if ("REMOVE".equals(r.eventNameAsString())) {
            return List.of();
        }
        Map<String, AttributeValue> img = r.dynamodb().newImage();
        if (img == null || img.isEmpty() || !TIP.equals(img.get("i").n()) || !img.containsKey("a")) {
            return List.of();
        }
        int appended = Integer.parseInt(img.get("a").n());
        List<AttributeValue> e = img.get("e").l();
        List<AttributeValue> c = img.get("c").l();
        if (appended > e.size() || e.size() != c.size()) {
            throw new IllegalStateException("not a Tip of the store format: " + r.dynamodb().keys());
        }
        return e.subList(e.size() - appended, e.size()).stream().map(ev -> body(ev.m())).toList();
    }

    private static byte[] body(Map<String, AttributeValue> event) {
        byte[] d = event.get("d").b().asByteArray();
        AttributeValue enc = event.get("D");
        int encoding = enc == null ? 0 : Integer.parseInt(enc.n());
        return switch (encoding) {
            case 0 -> d;
            case 1 -> inflate(d);
            default -> throw new IllegalStateException("body encoding " + encoding + " is not decoded by the benchmark");
        };
    }

    private static byte[] inflate(byte[] deflated) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 3);
            byte[] buf = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalStateException("truncated deflate body");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalStateException("corrupt deflate body: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
