package io.appendsfeed.indexer.lambda;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over one JSON document held as UTF-8 bytes, for a reader that knows the document's shape
 * and wants a few values out of a large one: it steps over what it is not asked for (a string by
 * looking for its closing quote, an object or array by its brackets) without making tokens, strings
 * or objects of it, and makes a string only of what is asked for. Jackson's tokenizer, which the
 * Lambda event reader used first, spent most of an event's time making tokens of the event bodies it
 * then skipped (samples/BENCHMARKS.md, "Indexer profile", sixth round).
 *
 * <p>Strict where it reads (structure, names, separators, literals) and where it skips (brackets must
 * match, strings must close): input that is not JSON fails with a {@link Malformed} naming the byte
 * offset. Not checked where skipped: the characters inside strings and the digits of numbers.
 */
final class JsonScanner {

    /** The document is not JSON, or not of the shape the reader expects, at {@link #offset}. */
    static final class Malformed extends IllegalArgumentException {
        final int offset;

        Malformed(String problem, int offset) {
            super(problem + " (at byte " + offset + ")");
            this.offset = offset;
        }
    }

    private final byte[] b;
    private final int end;
    private int pos;
    private byte[] closers = new byte[16];

    // the last member name read by nextMember
    private int nameStart;
    private int nameEnd;
    private boolean nameEscaped;

    // whether the last string skipString stepped over held escapes
    private boolean stringEscaped;

    JsonScanner(byte[] json) {
        this(json, 0);
    }

    /** A cursor at {@code offset}, where a value starts (one this document's reader noted with {@link #offset}). */
    JsonScanner(byte[] json, int offset) {
        this.b = json;
        this.end = json.length;
        this.pos = offset;
    }

    byte[] bytes() {
        return b;
    }

    /** Where the cursor is: after {@link #peek}, where the next value starts. */
    int offset() {
        return pos;
    }

    Malformed malformed(String problem) {
        return new Malformed(problem, pos);
    }

    private void ws() {
        while (pos < end) {
            byte c = b[pos];
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                pos++;
            } else {
                return;
            }
        }
    }

    /** The next byte that is not white space, not consumed. */
    byte peek() {
        ws();
        if (pos >= end) {
            throw malformed("the JSON ends early");
        }
        return b[pos];
    }

    /** Whether only white space is left. */
    boolean atEnd() {
        ws();
        return pos >= end;
    }

    /** Consumes a {@code null} if one is next. */
    boolean nullNext() {
        if (peek() != 'n') {
            return false;
        }
        literal("null");
        return true;
    }

    boolean objectNext() {
        return peek() == '{';
    }

    boolean arrayNext() {
        return peek() == '[';
    }

    /** @throws Malformed unless an object starts here, saying what the value should have been */
    void startObject(String what) {
        if (peek() != '{') {
            throw malformed(what + " is not a JSON object");
        }
        pos++;
    }

    /** @throws Malformed unless an array starts here */
    void startArray(String what) {
        if (peek() != '[') {
            throw malformed(what + " is not a JSON array");
        }
        pos++;
    }

    /**
     * Moves to the next member's value, its name then in {@link #nameIs}/{@link #name}; false at the
     * object's end (consumed).
     *
     * @param first whether this is the first call since the object started
     */
    boolean nextMember(boolean first) {
        if (!next(first, '}', "expected ',' or '}' after an object's member")) {
            return false;
        }
        if (peek() != '"') {
            throw malformed("expected a member name (a string)");
        }
        nameStart = pos + 1;
        pos = skipString(nameStart);
        nameEnd = pos - 1;
        nameEscaped = stringEscaped;
        if (peek() != ':') {
            throw malformed("expected ':' after a member name");
        }
        pos++;
        return true;
    }

    /** Moves to the next element; false at the array's end (consumed). */
    boolean nextElement(boolean first) {
        return next(first, ']', "expected ',' or ']' after an array's element");
    }

    /** False at the closing bracket (consumed); otherwise past the comma that must separate one from the last. */
    private boolean next(boolean first, char close, String expected) {
        byte c = peek();
        if (c == close) {
            pos++;
            return false;
        }
        if (!first) {
            if (c != ',') {
                throw malformed(expected);
            }
            pos++;
        }
        return true;
    }

    /** Whether the last member name is {@code ascii}, compared byte by byte (no string made). */
    boolean nameIs(byte[] ascii) {
        if (nameEscaped) {
            return name().equals(new String(ascii, StandardCharsets.US_ASCII));
        }
        return Arrays.equals(b, nameStart, nameEnd, ascii, 0, ascii.length);
    }

    /** Whether the last member name is the one-byte name {@code c}. */
    boolean nameIs(char c) {
        return nameEnd - nameStart == 1 ? b[nameStart] == c : nameEscaped && name().equals(String.valueOf(c));
    }

    String name() {
        return decode(nameStart, nameEnd, nameEscaped);
    }

    static byte[] ascii(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /** A string value. @throws Malformed when the value is not a string */
    private String string(String what) {
        if (peek() != '"') {
            throw malformed(what + " is not a string");
        }
        int start = pos + 1;
        pos = skipString(start);
        return decode(start, pos - 1, stringEscaped);
    }

    /** The text of bytes {@code [start, end)} of a string, escapes decoded when it has any. */
    String decode(int start, int end, boolean escaped) {
        if (!escaped) {
            return new String(b, start, end - start, StandardCharsets.UTF_8);
        }
        StringBuilder out = new StringBuilder(end - start);
        int run = start;
        int k = start;
        while (k < end) {
            if (b[k] != '\\') {
                k++;
                continue;
            }
            out.append(new String(b, run, k - run, StandardCharsets.UTF_8));
            byte e = b[k + 1];
            switch (e) {
                case '"', '\\', '/' -> out.append((char) e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (k + 6 > end) {
                        throw new Malformed("a \\u escape is cut short", k);
                    }
                    try {
                        out.append((char) Integer.parseInt(new String(b, k + 2, 4, StandardCharsets.US_ASCII), 16));
                    } catch (NumberFormatException notHex) {
                        throw new Malformed("a \\u escape is not four hexadecimal digits", k);
                    }
                    k += 4;
                }
                default -> throw new Malformed("'\\" + (char) e + "' is not a JSON escape", k);
            }
            k += 2;
            run = k;
        }
        return out.append(new String(b, run, end - run, StandardCharsets.UTF_8)).toString();
    }

    /**
     * A scalar as text: a string's characters, a number's or a literal's text ({@code true}); null for
     * {@code null}. What a JSON object reader does with a string field given a number or a boolean.
     *
     * @throws Malformed for an object or an array
     */
    String scalarText(String what) {
        byte c = peek();
        if (c == '"') {
            return string(what);
        }
        if (c == '{' || c == '[') {
            throw malformed(what + " is not a string");
        }
        if (nullNext()) {
            return null;
        }
        int start = pos;
        skipScalar();
        return new String(b, start, pos - start, StandardCharsets.US_ASCII);
    }

    /** {@code true} or {@code false} (or the strings "true", "false"); null for {@code null}. */
    Boolean bool(String what) {
        byte c = peek();
        if (c == 't' && literal("true") || c == 'f' && literal("false")) {
            return c == 't';
        }
        if (nullNext()) {
            return null;
        }
        if (c == '"') {
            String s = string(what);
            if (s.equals("true") || s.equals("false")) {
                return Boolean.valueOf(s);
            }
        }
        throw malformed(what + " is not a boolean");
    }

    /** A number. @throws Malformed when it is none */
    double number(String what) {
        byte c = peek();
        if (c != '-' && (c < '0' || c > '9')) {
            throw malformed(what + " is not a number");
        }
        int start = pos;
        skipScalar();
        try {
            return Double.parseDouble(new String(b, start, pos - start, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            pos = start;
            throw malformed(what + " is not a number");
        }
    }

    /** Steps over the next value, whatever it is. */
    void skipValue() {
        byte c = peek();
        if (c == '"') {
            pos = skipString(pos + 1);
        } else if (c == '{' || c == '[') {
            skipNested();
        } else {
            skipScalar();
        }
    }

    private boolean literal(String word) {
        int n = word.length();
        if (pos + n > end) {
            throw malformed("the JSON ends early");
        }
        for (int k = 0; k < n; k++) {
            if (b[pos + k] != word.charAt(k)) {
                throw malformed("'" + word + "' misspelt");
            }
        }
        pos += n;
        return true;
    }

    /** A number or a literal: up to the next separator. */
    private void skipScalar() {
        byte c = b[pos];
        if (c == 't') {
            literal("true");
            return;
        }
        if (c == 'f') {
            literal("false");
            return;
        }
        if (c == 'n') {
            literal("null");
            return;
        }
        if (c != '-' && (c < '0' || c > '9')) {
            throw malformed("'" + (char) c + "' does not start a JSON value");
        }
        int start = pos;
        while (pos < end) {
            c = b[pos];
            if (c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
                pos++;
            } else {
                break;
            }
        }
        if (pos == start) {
            throw malformed("a number is empty");
        }
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5c5c5c5c5c5c5c5cL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * From the first character of a string to just past its closing quote; notes whether it held
     * escapes. Eight bytes at a time until one of them is a quote or a backslash (a string's bytes are
     * mostly base64 bodies here), then byte by byte: a quarter faster than bytes alone, measured with
     * the C1 compiler the template runs.
     */
    private int skipString(int k) {
        boolean escaped = false;
        byte[] b = this.b;
        int end = this.end;
        while (k + 8 <= end) {
            long w = (long) LONGS.get(b, k);
            long q = w ^ QUOTES;
            long s = w ^ BACKSLASHES;
            // a byte of q or s is zero where w holds a quote or a backslash; the lowest such byte is exact
            long hit = ((q - ONES) & ~q | (s - ONES) & ~s) & HIGHS;
            if (hit != 0) {
                break; // within these eight bytes: the byte loop finds it (Long.numberOfTrailingZeros is no intrinsic in C1)
            }
            k += 8;
        }
        while (k < end) {
            byte c = b[k++];
            if (c == '"') {
                stringEscaped = escaped;
                return k;
            }
            if (c == '\\') {
                escaped = true;
                k++;
            }
        }
        throw new Malformed("a string does not end", Math.min(k, end));
    }

    /**
     * Steps over an array (the cursor on its {@code [}), noting where each element starts (after white
     * space) in one pass over its bytes.
     *
     * @return the starts, the first {@code count[0]} of the array given back or of a larger one
     */
    int[] elementStarts(int[] starts, int[] count) {
        if (b[pos] != '[') {
            throw malformed("expected an array");
        }
        return nested(starts, count);
    }

    /** An object or array, by its brackets (each closed by its own kind), stepping over strings. */
    private void skipNested() {
        nested(null, null);
    }

    /**
     * The one loop over an object's or array's bytes (the cursor on its bracket): strings stepped over
     * in place (a call per string was a fifth of the loop's time with C1), brackets matched, and with
     * {@code starts} given, where each element of the outermost array starts.
     *
     * <p>Two shapes make up most of a Lambda event's DynamoDB JSON, and are stepped over whole: an
     * attribute value opening a string, <code>{"S":"</code>, <code>{"B":"</code> or <code>{"N":"</code>
     * (an event body is a {@code B}), and a one-character name with its colon, <code>"t":</code>, after
     * an object's <code>{</code> or a <code>,</code>. Each is recognised in one eight-byte word; anything
     * else goes byte by byte, so the JSON is checked as strictly as without them. A string's bytes are
     * read eight at a time until a word holds a quote; whether a backslash escapes that quote is settled
     * then, by the backslashes before it (the string's escapes are otherwise stepped over byte by byte).
     * Measured with the C1 compiler the template runs, on the benchmark's events: a quarter less time
     * than a word test for quotes and backslashes with no shapes (samples/BENCHMARKS.md, "Indexer
     * profile", seventh round).
     */
    private int[] nested(int[] starts, int[] count) {
        byte[] b = this.b;
        int end = this.end;
        int n = 0;
        int depth = 0;
        int k = pos;
        boolean expectValue = false;
        while (k < end) {
            byte c = b[k];
            if (expectValue && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                if (c == ']' && n == 0 && depth == 1) {
                    // the empty array: nothing starts
                } else {
                    if (c == ',' || c == ']') {
                        throw new Malformed("an array's element is missing", k);
                    }
                    if (n == starts.length) {
                        starts = Arrays.copyOf(starts, n * 2);
                    }
                    starts[n++] = k;
                }
                expectValue = false;
            }
            k++;
            if (c == '{' || c == '[') {
                if (depth == closers.length) {
                    closers = Arrays.copyOf(closers, depth * 2);
                }
                closers[depth++] = c == '{' ? (byte) '}' : (byte) ']';
                expectValue = starts != null && depth == 1;
                if (c == '[' || k + 8 > end) {
                    continue;
                }
                long w = (long) LONGS.get(b, k);
                long value = w & VALUE_MASK;
                if (value == S_VALUE || value == B_VALUE || value == N_VALUE) {
                    k += VALUE_LENGTH; // inside the value's string: stepped over below
                } else {
                    if ((w & NAME_MASK) == NAME && (byte) (w >>> 8) != '"' && (byte) (w >>> 8) != '\\') {
                        k += NAME_LENGTH; // at the member's value
                    }
                    continue;
                }
            } else if (c == ',') {
                if (depth == 1 && starts != null) {
                    expectValue = true;
                } else if (k + 8 <= end) {
                    long w = (long) LONGS.get(b, k);
                    if ((w & NAME_MASK) == NAME && (byte) (w >>> 8) != '"' && (byte) (w >>> 8) != '\\') {
                        k += NAME_LENGTH;
                    }
                }
                continue;
            } else if (c == '}' || c == ']') {
                if (depth == 0 || closers[--depth] != c) {
                    throw new Malformed("'" + (char) c + "' closes nothing opened", k - 1);
                }
                if (depth == 0) {
                    pos = k;
                    if (count != null) {
                        count[0] = n;
                    }
                    return starts;
                }
                continue;
            } else if (c != '"') {
                continue;
            }
            // a string, from its first character: whole words without a quote, then byte by byte
            int from = k;
            while (k + 8 <= end) {
                long q = (long) LONGS.get(b, k) ^ QUOTES;
                if (((q - ONES) & ~q & HIGHS) != 0) {
                    break;
                }
                k += 8;
            }
            if (k > from && b[k - 1] == '\\' && oddBackslashesTo(k - 1)) {
                k++; // the words stepped over end in an escape: what it escapes is not the end
            }
            while (true) {
                if (k >= end) {
                    throw new Malformed("a string does not end", end);
                }
                byte x = b[k++];
                if (x == '"') {
                    break;
                }
                if (x == '\\') {
                    k++;
                }
            }
        }
        throw new Malformed("an object or array does not end", end);
    }

    /**
     * Whether the run of backslashes that ends at {@code last} (inside a string, whose opening quote
     * stops it) has an odd length, so that its last backslash escapes the next character.
     */
    private boolean oddBackslashesTo(int last) {
        int j = last;
        while (b[j] == '\\') {
            j--;
        }
        return ((last - j) & 1) == 1;
    }

    /** ASCII characters as the word that holds them first (little-endian), as {@code LONGS} reads them. */
    private static long word(String ascii) {
        long w = 0;
        for (int i = ascii.length() - 1; i >= 0; i--) {
            w = w << 8 | ascii.charAt(i);
        }
        return w;
    }

    private static final int VALUE_LENGTH = 5;
    private static final long VALUE_MASK = 0xFF_FFFF_FFFFL;
    private static final long S_VALUE = word("\"S\":\"");
    private static final long B_VALUE = word("\"B\":\"");
    private static final long N_VALUE = word("\"N\":\"");
    /** A one-character name and its colon, the character (second byte) masked out: {@code "?":}. */
    private static final int NAME_LENGTH = 4;
    private static final long NAME_MASK = 0xFFFF_00FFL;
    private static final long NAME = '"' | (long) '"' << 16 | (long) ':' << 24;
}
