package io.appendsfeed.model.store.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size DynamoDB counts against its 400 KB item limit, per its documented rules, rounded up
 * where the rules are approximate so that an item we accept is never refused by DynamoDB:
 * <ul>
 * <li>an attribute: the UTF-8 length of its name plus the size of its value;</li>
 * <li>S: UTF-8 length; B: byte length; BOOL and NULL: 1;</li>
 * <li>N: 1 byte per two significant digits plus 1 (we count all digits, plus 1 more for the sign);</li>
 * <li>L and M: 3 bytes plus, per element, 1 byte of overhead plus its size (and, in a map, its name).</li>
 * </ul>
 */
public final class ItemSize {

    /** What a list or map costs before its elements. */
    public static final int CONTAINER_OVERHEAD = 3;
    /** What each list or map element costs on top of its size. */
    public static final int ELEMENT_OVERHEAD = 1;

    private ItemSize() {}

    public static long item(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> a : item.entrySet()) {
            size += utf8(a.getKey()) + value(a.getValue());
        }
        return size;
    }

    /** Size of one list element, overhead included: what it adds to the list it is in. */
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
