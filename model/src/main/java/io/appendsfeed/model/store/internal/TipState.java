package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.internal.Fields.C;
import static io.appendsfeed.model.store.internal.Fields.E;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.Expected;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What an append must know of a Tip to decide: its version and etag (for the condition), how many
 * events and bytes it holds (to decide whether to calve), and its bytes in calves. {@code item} is
 * the whole Tip when it was just read (needed to write a calf); the cache keeps states without it.
 *
 * @param eventBytes item-size bytes of the elements of {@code e} and {@code c} (see {@link ItemSize#element})
 */
public record TipState(long version, String etag, int eventCount, long eventBytes, long calfBytes,
                       Map<String, AttributeValue> item) {

    public static TipState of(StreamName stream, Map<String, AttributeValue> tip) {
        List<AttributeValue> e = list(stream, tip, E);
        List<AttributeValue> c = list(stream, tip, C);
        long bytes = 0;
        for (AttributeValue v : e) {
            bytes += ItemSize.element(v);
        }
        for (AttributeValue v : c) {
            bytes += ItemSize.element(v);
        }
        return new TipState(Items.next(stream, tip), Items.etag(tip), c.size(), bytes,
                Items.number(stream, tip, Fields.B), tip);
    }

    /** Whether this can be known without its item: what the cache holds. */
    public TipState withoutItem() {
        return item == null ? this : new TipState(version, etag, eventCount, eventBytes, calfBytes, null);
    }

    public boolean satisfies(Expected expected) {
        if (expected instanceof Expected.Version v) {
            return v.version() == version;
        }
        if (expected instanceof Expected.Etag t) {
            return t.etag().equals(etag);
        }
        return !(expected instanceof Expected.Absent); // a Tip exists
    }

    /** Never an empty list for an attribute of another type (what the SDK's {@code l()} returns): that would append to it blindly. */
    private static List<AttributeValue> list(StreamName stream, Map<String, AttributeValue> tip, String name) {
        AttributeValue v = tip.get(name);
        if (v == null) {
            return List.of();
        }
        if (v.type() != AttributeValue.Type.L) {
            throw new StoreFormatException(stream, Items.rangeKey(tip), "its '" + name + "' is not a list (L): " + v);
        }
        return v.l();
    }
}
