package dev.warden.client;

/** One read of a {@link WardenClient#multiRead} batch. */
public record ReadOp(Kind kind, String path) {
    public enum Kind { GET_DATA, GET_CHILDREN }

    public ReadOp {
        Paths.validate(path);
    }

    public static ReadOp getData(String path) {
        return new ReadOp(Kind.GET_DATA, path);
    }

    public static ReadOp getChildren(String path) {
        return new ReadOp(Kind.GET_CHILDREN, path);
    }
}
