package io.appendsfeed.model.store.internal;

/**
 * Attribute names and fixed values of the store item format (the repository's DESIGN.md, "The store table").
 * Every name here defines the storage format shared with Equinox.DynamoStore and equinox-js:
 * changing one breaks interoperability with tables they wrote.
 */
public final class Fields {

    private Fields() {}

    /** Hash key: the stream name (S). */
    public static final String P = "p";
    /** Range key (N): {@link #TIP_INDEX} for the Tip, the index of its first event for a calf. */
    public static final String I = "i";
    /** Index the next event after this item's events gets (N). */
    public static final String N = "n";
    /** Events appended by this write (N, Tip only; absent means 0). */
    public static final String A = "a";
    /** Bytes held in calves (N, Tip only; absent means 0). */
    public static final String B = "b";
    /** Fresh random token of every Tip write (S, Tip only). */
    public static final String ETAG = "etag";
    /** Event types of the item's events, in order (L of S). */
    public static final String C = "c";
    /** Events (L of M). */
    public static final String E = "e";
    /** Unfolds (L of M, Tip; an empty list on calves and when there are none). */
    public static final String U = "u";

    /** Inside an event or unfold: timestamp (S, ISO-8601 UTC). */
    public static final String T = "t";
    /** Inside an event or unfold: data body (B). */
    public static final String DATA = "d";
    /** Inside an event or unfold: data encoding (N; omitted when 0). */
    public static final String DATA_ENCODING = "D";
    /** Inside an event or unfold: meta body (B; omitted when there is no meta). */
    public static final String META = "m";
    /** Inside an event or unfold: meta encoding (N; omitted when 0 or no meta). */
    public static final String META_ENCODING = "M";
    /** Inside an event: correlation id (S; omitted when null). */
    public static final String CORRELATION = "x";
    /** Inside an event: causation id (S; omitted when null). */
    public static final String CAUSATION = "y";
    /** Inside an unfold: the stream version it was written at (N). */
    public static final String UNFOLD_INDEX = "i";
    /** Inside an unfold: its type (S). */
    public static final String UNFOLD_TYPE = "c";

    /** The Tip's range key, {@code Int32.MaxValue}: fixed by the format, sorts after every calf. */
    public static final long TIP_INDEX = 2147483647L;
}
