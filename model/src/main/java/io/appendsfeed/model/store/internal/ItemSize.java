package io.appendsfeed.model.store.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size DynamoDB counts against its item limit, per its documented rules, rounded up where they are
 * approximate so that an item we accept is never refused: a name's UTF-8 length plus its value's; S: UTF-8
 * length; B: bytes; N: a byte per two digits plus 2; L and M: 3 plus, per element, 1 and its size (and name).
 */
public final class ItemSize {

    public static final int CONTAINER_OVERHEAD = 3;
    public static final int ELEMENT_OVERHEAD = 1;

    private ItemSize() {}

    public static long item(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> a : item.entrySet()) {
            size += utf8(a.getKey()) + value(a.getValue());
        }
        return size;
    }

    /** What one element adds to the list it is in. */
    public static long element(AttributeValue v) {
        return ELEMENT_OVERHEAD + value(v);
    }

    public static long value(AttributeValue v) {
        return switch (v.type()) {
            case S -> utf8(v.s());
            case N -> number(v.n());
            case B -> v.b().asByteArrayUnsafe().length;
            case BOOL, NUL -> 1;
            case L -> CONTAINER_OVERHEAD + v.l().stream().mapToLong(ItemSize::element).sum();
            case M -> CONTAINER_OVERHEAD + v.m().entrySet().stream()
                    .mapToLong(a -> ELEMENT_OVERHEAD + utf8(a.getKey()) + value(a.getValue())).sum();
            case SS -> v.ss().stream().mapToLong(ItemSize::utf8).sum();
            case NS -> v.ns().stream().mapToLong(ItemSize::number).sum();
            case BS -> v.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
            default -> throw new IllegalArgumentException("unknown attribute value type: " + v);
        };
    }

    static long number(String n) {
        long digits = n.chars().filter(Character::isDigit).count();
        return (digits + 1) / 2 + 2;
    }

    static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
