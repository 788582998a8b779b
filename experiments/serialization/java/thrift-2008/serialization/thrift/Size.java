package serialization.thrift;

/** media.thrift's enum Size: SMALL = 1, LARGE = 2. */
public enum Size {
    SMALL(1), LARGE(2);

    private final int value;

    Size(int value) {
        this.value = value;
    }

    public int getValue() {
        return value;
    }

    /** null for a value this schema does not know, as Thrift's generated findByValue does. */
    public static Size findByValue(int value) {
        switch (value) {
            case 1: return SMALL;
            case 2: return LARGE;
            default: return null;
        }
    }
}
