package io.appendsfeed.indexer.backfill;

/**
 * A DynamoDB export that a backfill cannot read as the store table's items: not a full export in
 * DynamoDB JSON, of another table, or a file that is not what its manifest says (item count,
 * MD5 checksum). The message names the file and what is wrong.
 */
public class ExportFormatException extends RuntimeException {

    private final String file;

    /** @param cause null when there is none */
    public ExportFormatException(String file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file of the export, relative to its folder. */
    public String file() {
        return file;
    }
}
